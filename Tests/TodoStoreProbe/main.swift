import TodoStore
import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

// Runs store operations in a separate process for the store's tests: parallel writers,
// and processes killed at a chosen or random instant.
//
//   todo-store-probe stress TODO DONE ID COUNT     mixed appends, edits and moves
//   todo-store-probe kill TODO DONE CALL N         an archive killed at the Nth CALL
//   todo-store-probe shuttle TODO DONE             moves lines between the files until killed
//   todo-store-probe document-stress TODO DONE ID COUNT   an app's document: add, complete,
//                                                  save, reload, COUNT times
//   todo-store-probe document-kill TODO DONE CALL N       a document's save killed at the Nth CALL

/// Counts system calls and ends the process at the chosen one.
final class Killer: @unchecked Sendable {
  var seen = 0
}

func fail(_ message: String) -> Never {
  let text = Array("todo-store-probe: \(message)\n".utf8)
  _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  exit(1)
}

func line(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A store killed at the Nth call of CALL (arguments 4 and 5), its undo log in `state`.
func killingStore(_ usage: String) -> TodoStore {
  guard arguments.count == 6, let call = SystemCall(rawValue: arguments[4]), let n = Int(arguments[5]) else {
    fail(usage)
  }
  let killer = Killer()
  return TodoStore(
    stateDirectory: state,
    faults: FaultInjection { made, _ in
      if made == call {
        killer.seen += 1
        if killer.seen == n { raise(SIGKILL) }
      }
      return nil
    })
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: stress|kill|shuttle TODO DONE ...") }
let todo = arguments[2]
let done = arguments[3]
// The undo log goes beside the files, never into the user's state directory.
let state = getenv("TODO_PROBE_STATE").map { String(cString: $0) } ?? todo + ".state"

do {
  switch arguments[1] {
  case "stress":
    guard arguments.count == 6, let count = Int(arguments[5]) else {
      fail("stress TODO DONE ID COUNT")
    }
    let id = arguments[4]
    let store = TodoStore(lockTimeout: 60, stateDirectory: state)
    for i in 0..<count {
      let own = "p\(id) n\(i)"
      switch i % 4 {
      case 0:
        try store.append([line(own)], to: todo, label: "add")
      case 1:
        try store.update(todo, label: "add") { list in list.append(Task(parsing: own)) }
      case 2:
        let earlier = "p\(id) n\(i - 2)"
        try store.update(todo, label: "do") { list in
          guard let index = list.firstIndex(where: { $0.line == earlier }) else {
            fail("lost '\(earlier)'")
          }
          list.replace(at: index, with: Task(parsing: "x " + earlier))
        }
      default:
        let earlier = "x p\(id) n\(i - 3)"
        try store.update([todo, done], label: "archive") { lists in
          guard let index = lists[0].firstIndex(where: { $0.line == earlier }) else {
            fail("lost '\(earlier)'")
          }
          lists[1].append(lists[0].remove(at: index))
        }
      }
    }
  case "kill":
    let store = killingStore("kill TODO DONE CALL N")
    try store.update([todo, done], label: "archive") { lists in
      for task in lists[0] where task.isCompleted { lists[1].append(task) }
      lists[0].removeAll { $0.isCompleted }
    }
  case "shuttle":
    let store = TodoStore(stateDirectory: state)
    while true {
      try store.update([todo, done], label: "move") { lists in
        if lists[0].isEmpty {
          for task in lists[1] { lists[0].append(task) }
          lists[1].removeAll { _ in true }
        } else {
          let count = min(lists[0].count, 1 + lists[0].count / 3)
          for _ in 0..<count { lists[1].append(lists[0].remove(at: 0)) }
        }
      }
    }
  case "document-stress":
    // As an app would: edit the list in memory, save, and take in the other process's saves.
    guard arguments.count == 6, let count = Int(arguments[5]) else {
      fail("document-stress TODO DONE ID COUNT")
    }
    let id = arguments[4]
    let document = try TodoDocument(
      path: todo, donePath: done, store: TodoStore(lockTimeout: 60, stateDirectory: state))
    for i in 0..<count {
      document.list.append(Task(parsing: "p\(id) n\(i)"))
      if i % 3 == 2 {
        let earlier = "p\(id) n\(i - 1)"
        guard let index = document.list.firstIndex(where: { $0.line == earlier }) else {
          fail("lost '\(earlier)'")
        }
        var task = document.list[index]
        task.complete(on: TaskDate(year: 2026, month: 12, day: 3)!)
        document.list.replace(at: index, with: task)
      }
      let outcome = try document.save(label: "probe \(id)")
      if !outcome.conflicts.isEmpty { fail("conflicts: \(outcome.conflicts)") }
      if i % 5 == 4 { try document.reload() }
    }
  case "document-kill":
    let store = killingStore("document-kill TODO DONE CALL N")
    let document = try TodoDocument(path: todo, donePath: done, store: store)
    // Every kind of edit in one save: a changed line, a removed one, an added one.
    document.list.replace(at: 0, with: Task(parsing: "x 2026-12-03 first"))
    document.list.remove(at: 1)
    document.list.append(Task(parsing: "added by the app"))
    try document.save()
  default:
    fail("unknown command '\(arguments[1])'")
  }
} catch let error as StoreError {
  fail(error.description)
} catch {
  fail("\(error)")
}

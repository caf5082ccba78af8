import Foundation
import Testing
import TodoTxt

@testable import TodoStore

@Suite struct LockTests {
  @Test func heldLockTimesOutWithAClearMessage() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\n")
    // Another open file description holds the lock, as another process would.
    let fd = open(dir.file(".todo.txt.lock"), O_RDWR | O_CREAT, 0o644)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX) == 0)
    let store = dir.store(lockTimeout: 0.3)
    let started = Date()
    #expect(
      throws: StoreError(.lockTimeout(seconds: 0.3), path: dir.file("todo.txt"), operation: .lock)
    ) {
      try store.append([bytes("b")], to: dir.file("todo.txt"), label: "add")
    }
    #expect(Date().timeIntervalSince(started) >= 0.3)
    #expect(throws: StoreError.self) {
      try store.update(dir.file("todo.txt"), label: "x") { $0.remove(at: 0) }
    }
    #expect(dir.read("todo.txt") == "a\n")
    #expect(
      StoreError(.lockTimeout(seconds: 10), path: "/x/todo.txt", operation: .lock).description
        == "cannot lock '/x/todo.txt': it is locked by another process (waited 10 s)")
    // Reads for display need no lock.
    #expect(try store.read(dir.file("todo.txt")).count == 1)
    flock(fd, LOCK_UN)
    #expect(try store.append([bytes("b")], to: dir.file("todo.txt"), label: "add") == [2])
  }

  @Test func parallelProcessesLoseAndDoubleNothing() throws {
    let dir = Scratch()
    let processes = 6
    let operations = 60
    let children = try (0..<processes).map { id in
      try Probe.start(
        ["stress", dir.file("todo.txt"), dir.file("done.txt"), String(id), String(operations)],
        state: dir.file("state"))
    }
    for child in children {
      child.waitUntilExit()
      #expect(child.terminationStatus == 0)
    }
    var expectedTodo: [String] = []
    var expectedDone: [String] = []
    for id in 0..<processes {
      for i in stride(from: 1, to: operations, by: 4) { expectedTodo.append("p\(id) n\(i)") }
      for i in stride(from: 0, to: operations - 3, by: 4) { expectedDone.append("x p\(id) n\(i)") }
    }
    let todo = (dir.read("todo.txt") ?? "").split(separator: "\n").map(String.init)
    let done = (dir.read("done.txt") ?? "").split(separator: "\n").map(String.init)
    #expect(todo.sorted() == expectedTodo.sorted())
    #expect(done.sorted() == expectedDone.sorted())
    #expect(dir.entries.filter { !$0.hasPrefix(".") } == ["done.txt", "state", "todo.txt"])
    #expect(!dir.entries.contains { $0.hasSuffix(".new") || $0.hasSuffix(".journal") })
  }
}

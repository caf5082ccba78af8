import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// Fails chosen system calls: the Nth call of a kind, or every call on matching paths.
final class Faults: @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [SystemCall: Int] = [:]
  private let rule: (SystemCall, String, Int) -> Int32?

  init(_ rule: @escaping (SystemCall, String, Int) -> Int32?) { self.rule = rule }

  var injection: FaultInjection {
    FaultInjection { call, path in
      self.lock.lock()
      defer { self.lock.unlock() }
      self.counts[call, default: 0] += 1
      return self.rule(call, path, self.counts[call, default: 0])
    }
  }
}

@Suite struct FaultTests {
  static let todo = "(A) call mom\r\nx 2026-01-02 done task\r\nlast line without newline"
  static let done = "x 2025-12-31 old\n"

  /// Runs an archive and an edit and an append under `faults`; each must fail and leave
  /// both files byte for byte as they were, with no temporary file or journal behind.
  func expectUntouched(_ faults: Faults, reason: StoreError.Kind) throws {
    let dir = Scratch()
    dir.write("todo.txt", FaultTests.todo)
    dir.write("done.txt", FaultTests.done)
    let store = dir.store(faults: faults.injection)
    #expect(throws: StoreError.self) {
      try store.update([dir.file("todo.txt"), dir.file("done.txt")], label: "archive") { lists in
        lists[1].append(lists[0].remove(at: 1))
      }
    }
    #expect(throws: StoreError.self) {
      try store.update(dir.file("todo.txt"), label: "pri 1 B") { list in
        list.replace(number: 1, with: Task(parsing: "(B) call mom"))
      }
    }
    do {
      _ = try store.append([bytes("new")], to: dir.file("todo.txt"), label: "add")
      Issue.record("append did not fail")
    } catch {
      #expect(error.kind == reason)
      #expect(error.path == dir.file("todo.txt"))
    }
    #expect(dir.read("todo.txt") == FaultTests.todo)
    #expect(dir.read("done.txt") == FaultTests.done)
    #expect(dir.entries.filter { $0.hasSuffix(".new") || $0.contains("journal") } == [])
  }

  @Test func fullDiskOnEveryWrite() throws {
    try expectUntouched(
      Faults { call, path, _ in call == .write && !path.contains("/state/") ? ENOSPC : nil },
      reason: .noSpace)
  }

  @Test func failingFsync() throws {
    try expectUntouched(
      Faults { call, path, _ in call == .fsync && !path.contains("/state/") ? EIO : nil },
      reason: .io(EIO))
  }

  @Test func readOnlyDirectory() throws {
    // Creating the temporary file, or opening the file to append, is refused.
    try expectUntouched(
      Faults { call, path, _ in
        call == .open && (path.hasSuffix(".new") || path.hasSuffix("todo.txt")) ? EACCES : nil
      },
      reason: .permissionDenied)
  }

  @Test func failingSecondRenameRollsTheFirstBack() throws {
    let dir = Scratch()
    dir.write("todo.txt", FaultTests.todo)
    dir.write("done.txt", FaultTests.done)
    // done.txt is renamed first (lock order); the rename of todo.txt fails.
    let faults = Faults { call, path, _ in
      call == .rename && path == dir.file("todo.txt") ? EIO : nil
    }
    let store = dir.store(faults: faults.injection)
    #expect(throws: StoreError(.io(EIO), path: dir.file("todo.txt"), operation: .write)) {
      try store.update([dir.file("todo.txt"), dir.file("done.txt")], label: "archive") { lists in
        lists[1].append(lists[0].remove(at: 1))
      }
    }
    #expect(dir.read("todo.txt") == FaultTests.todo)
    #expect(dir.read("done.txt") == FaultTests.done)
    #expect(dir.entries.filter { $0.hasSuffix(".new") || $0.contains("journal") } == [])
  }

  @Test func realReadOnlyDirectory() throws {
    guard geteuid() != 0 else { return }  // root writes anywhere; the injected case above covers it
    let dir = Scratch()
    dir.write("todo.txt", "a\n")
    chmod(dir.path, 0o555)
    defer { chmod(dir.path, 0o755) }
    #expect(throws: StoreError(.permissionDenied, path: dir.file("todo.txt"), operation: .write)) {
      try dir.store().update(dir.file("todo.txt"), label: "del 1") { $0.remove(at: 0) }
    }
    #expect(dir.read("todo.txt") == "a\n")
  }

  @Test func messagesNameTheFileAndTheProblem() {
    let cases: [(StoreError, String)] = [
      (
        StoreError(.notFound, path: "/t/todo.txt", operation: .read),
        "cannot read '/t/todo.txt': no such file or directory"
      ),
      (
        StoreError(.isDirectory, path: "/t", operation: .read),
        "cannot read '/t': it is a directory"
      ),
      (
        StoreError(.permissionDenied, path: "/t/todo.txt", operation: .write),
        "cannot write '/t/todo.txt': permission denied"
      ),
      (
        StoreError(.readOnlyFileSystem, path: "/t/todo.txt", operation: .write),
        "cannot write '/t/todo.txt': read-only file system"
      ),
      (
        StoreError(
          .danglingSymlink(target: "/gone/done.txt"), path: "/t/done.txt", operation: .create),
        "cannot create '/t/done.txt': it is a symbolic link to '/gone/done.txt', which does not exist"
      ),
      (
        StoreError(.io(EIO), path: "/t/todo.txt", operation: .write),
        "cannot write '/t/todo.txt': input/output error"
      ),
      (
        StoreError(
          .conflict(line: 1, was: "a\u{1B}[31m", now: "b"), path: "/t/todo.txt",
          operation: .undo(label: "do 1")),
        "cannot undo 'do 1' in '/t/todo.txt': line 1 changed meanwhile: was 'a^[[31m', now 'b'"
      ),
      (
        StoreError(.nothingToUndo, path: "/t/todo.txt", operation: .undo(label: "")),
        "nothing to undo in '/t/todo.txt'"
      ),
    ]
    for (error, text) in cases {
      #expect(error.description == text)
      #expect(!error.description.contains("\n"))
    }
  }
}

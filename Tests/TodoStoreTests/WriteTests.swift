import Foundation
import Testing
import TodoTxt

@testable import TodoStore

@Suite struct WriteTests {
  @Test func readsAndReportsMissingFilesAndDirectories() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\n")
    let store = dir.store()
    #expect(try store.read(dir.file("todo.txt")).text == "a\nb\n")
    #expect(throws: StoreError(.notFound, path: dir.file("none.txt"), operation: .read)) {
      try store.read(dir.file("none.txt"))
    }
    #expect(throws: StoreError(.isDirectory, path: dir.path, operation: .read)) {
      try store.read(dir.path)
    }
    #expect(
      StoreError(.noSpace, path: "/x/todo.txt", operation: .write).description
        == "cannot write '/x/todo.txt': no space left on device")
  }

  @Test func updateReplacesTheFileAndKeepsPermissions() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\nb\n")
    chmod(dir.file("todo.txt"), 0o640)
    let store = dir.store()
    let number = try store.update(dir.file("todo.txt"), label: "edit") { list in
      list.replace(number: 2, with: Task(parsing: "x b"))
      return 2
    }
    #expect(number == 2)
    #expect(dir.read("todo.txt") == "a\nx b\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("todo.txt"))
    #expect(attributes[.posixPermissions] as? Int == 0o640)
    #expect(!dir.entries.contains { $0.hasSuffix(".new") })
    #expect(!dir.entries.contains { $0.hasSuffix(".txt") && $0 != "todo.txt" })
  }

  @Test func updateThroughSymlinkReplacesTheTarget() throws {
    let dir = Scratch()
    try FileManager.default.createDirectory(
      atPath: dir.file("real"), withIntermediateDirectories: true)
    dir.write("real/todo.txt", "a\n")
    symlink(dir.file("real/todo.txt"), dir.file("todo.txt"))
    try dir.store().update(dir.file("todo.txt"), label: "add") { list in
      list.append(Task(parsing: "b"))
    }
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("todo.txt"))
        == dir.file("real/todo.txt"))
    #expect(dir.read("real/todo.txt") == "a\nb\n")
    #expect(dir.entries.contains(".todo.txt.lock") == false)
    #expect(dir.entries(in: "real").contains(".todo.txt.lock"))
  }

  @Test func unchangedListWritesNothingAndThrowingEditWritesNothing() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\n")
    let before =
      try FileManager.default.attributesOfItem(atPath: dir.file("todo.txt"))[.systemFileNumber]
      as? Int
    let store = dir.store()
    try store.update(dir.file("todo.txt"), label: "nothing") { _ in }
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try store.update(dir.file("todo.txt"), label: "refused") { list in
        list.append(Task(parsing: "b"))
        throw Refused()
      }
    }
    let after =
      try FileManager.default.attributesOfItem(atPath: dir.file("todo.txt"))[.systemFileNumber]
      as? Int
    #expect(before == after)
    #expect(dir.read("todo.txt") == "a\n")
  }

  @Test func appendFixesMissingNewlineInTheFilesStyle() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\r\nb\r\nc")
    let store = dir.store()
    let numbers = try store.append(
      [bytes("d"), bytes("e")], to: dir.file("todo.txt"), label: "add")
    #expect(numbers == [4, 5])
    #expect(dir.read("todo.txt") == "a\r\nb\r\nc\r\nd\r\ne\r\n")
    #expect(try store.append([bytes("f")], to: dir.file("new.txt"), label: "add") == [1])
    #expect(dir.read("new.txt") == "f\n")
  }

  @Test func appendToALargeFileCountsItsLinesOnceAndUndoes() throws {
    let dir = Scratch()
    // Over LineCount.threshold, mostly CRLF, with a byte order mark and a blank line.
    var text = "\u{FEFF}first\r\n\r\n"
    while text.utf8.count < LineCount.threshold + 10 { text += "a task line +Kitchen due:2025-01-01\r\n" }
    text += "last\r\n"
    dir.write("todo.txt", text)
    let lines = TodoList(bytes: Array(text.utf8)).count
    let store = dir.store()
    #expect(try store.append([bytes("b")], to: dir.file("todo.txt"), label: "add b") == [lines + 1])
    // The second append uses the remembered counts.
    #expect(try store.append([bytes("c"), bytes("d")], to: dir.file("todo.txt"), label: "add c") == [lines + 2, lines + 3])
    #expect(dir.read("todo.txt") == text + "b\r\nc\r\nd\r\n")
    // A rewrite by the store remembers its counts too; one by another program is counted again.
    try store.update(dir.file("todo.txt"), label: "edit") { list in list.replace(number: 1, with: Task(parsing: "x first")) }
    #expect(try store.append([bytes("e")], to: dir.file("todo.txt"), label: "add e") == [lines + 4])
    dir.write("todo.txt", text + "outside\n")
    #expect(try store.append([bytes("f")], to: dir.file("todo.txt"), label: "add f") == [lines + 2])
    _ = try store.undo(files: [dir.file("todo.txt")])
    #expect(dir.read("todo.txt") == text + "outside\n")
    #expect(TodoList(bytes: dir.bytes("todo.txt") ?? []).count == lines + 1)
  }

  @Test func appendDoesNotReplaceTheFile() throws {
    let dir = Scratch()
    dir.write("todo.txt", "a\n")
    let inode = {
      try FileManager.default.attributesOfItem(atPath: dir.file("todo.txt"))[.systemFileNumber]
        as? Int
    }
    let before = try inode()
    _ = try dir.store().append([bytes("b")], to: dir.file("todo.txt"), label: "add")
    #expect(try inode() == before)
  }

  @Test func characterDeviceIsWrittenInPlace() throws {
    let dir = Scratch()
    dir.write("todo.txt", "x done\nopen\n")
    let store = dir.store()
    #expect(store.isFileOrDevice("/dev/null"))
    #expect(!store.isFileOrDevice(dir.path))
    try store.createIfMissing("/dev/null")
    try store.update([dir.file("todo.txt"), "/dev/null"], label: "archive") { lists in
      lists[1].append(lists[0].remove(at: 0))
    }
    #expect(dir.read("todo.txt") == "open\n")
    #expect(try store.append([bytes("gone")], to: "/dev/null", label: "report") == [1])
    var info = stat()
    #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
  }

  @Test func createIfMissingCreatesOnlyWhenNothingIsThere() throws {
    let dir = Scratch()
    let store = dir.store()
    try store.createIfMissing(dir.file("done.txt"))
    #expect(dir.read("done.txt") == "")
    dir.write("todo.txt", "a\n")
    try store.createIfMissing(dir.file("todo.txt"))
    #expect(dir.read("todo.txt") == "a\n")
    symlink(dir.file("nowhere/done.txt"), dir.file("link.txt"))
    #expect(throws: StoreError.self) { try store.createIfMissing(dir.file("link.txt")) }
    #expect(throws: StoreError(.isDirectory, path: dir.path, operation: .create)) {
      try store.createIfMissing(dir.path)
    }
  }
}

extension Scratch {
  func entries(in name: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: file(name))) ?? []).sorted()
  }
}

import Foundation
import Testing
import TodoTxt

@testable import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// ``TodoStore/readBytes(joining:)``: several files read into one buffer, each as a read of
/// it alone would find it.
@Suite struct TodoStoreTests {
  @Test func theFilesBytesFollowOneAnotherWithWhereEachEnds() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "call mum\npay rent")
    scratch.write("done.txt", "x old one\n")
    let (joined, ends) = try scratch.store().readBytes(joining: [scratch.file("todo.txt"), scratch.file("done.txt")])
    #expect(joined == bytes("call mum\npay rentx old one\n"))
    #expect(ends == [17, 27])
  }

  @Test func aFileThatIsNotThereIsEmptyWhereverItStands() throws {
    let scratch = Scratch()
    scratch.write("done.txt", "x old one\n")
    let store = scratch.store()
    let (first, firstEnds) = try store.readBytes(joining: [scratch.file("todo.txt"), scratch.file("done.txt")])
    #expect(first == bytes("x old one\n") && firstEnds == [0, 10])
    let (last, lastEnds) = try store.readBytes(joining: [scratch.file("done.txt"), scratch.file("gone.txt")])
    #expect(last == bytes("x old one\n") && lastEnds == [10, 10])
  }

  /// Each file is refused as a read of it alone refuses it: a FIFO (never opened, so the
  /// read does not block), a file with conflict markers when the store refuses those.
  @Test func eachFileIsCheckedAsItsOwnReadChecksIt() throws {
    let scratch = Scratch()
    scratch.write("todo.txt", "call mum\n")
    #expect(mkfifo(scratch.file("done.txt"), 0o600) == 0)
    let store = scratch.store()
    #expect(throws: StoreError.self) {
      try store.readBytes(joining: [scratch.file("todo.txt"), scratch.file("done.txt")])
    }
    try FileManager.default.removeItem(atPath: scratch.file("done.txt"))
    scratch.write("done.txt", "<<<<<<< ours\nx a\n=======\nx b\n>>>>>>> theirs\n")
    let refusing = scratch.store()
    refusing.refusesConflictMarkers = true
    #expect(throws: StoreError.self) {
      try refusing.readBytes(joining: [scratch.file("todo.txt"), scratch.file("done.txt")])
    }
    #expect(try store.readBytes(joining: [scratch.file("todo.txt"), scratch.file("done.txt")]).ends == [9, 53])
  }
}

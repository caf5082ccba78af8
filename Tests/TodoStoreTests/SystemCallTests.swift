import Foundation
import Testing
import TodoTxt

@testable import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// The store's own system calls: the swap that puts a new version in place, and the held
/// file closed on another thread once its change is in place.
@Suite struct SystemCallTests {
  /// The swap is made by the kernel call itself, not looked up in the C library (which a
  /// static executable cannot do): on a file system that swaps, the two files trade names.
  @Test func exchangeSwapsWhatTheTwoNamesName() throws {
    let dir = Scratch()
    dir.write("a", "first\n")
    dir.write("b", "second\n")
    #expect(try Posix().exchange(dir.file("a"), dir.file("b")))
    #expect(dir.read("a") == "second\n")
    #expect(dir.read("b") == "first\n")
  }

  /// A missing name is an error, not a silent rename.
  @Test func exchangeWithAMissingFileFails() {
    let dir = Scratch()
    dir.write("a", "only\n")
    #expect(throws: SystemError.self) { try Posix().exchange(dir.file("a"), dir.file("missing")) }
    #expect(dir.read("a") == "only\n")
  }

  /// Whether `fd` is open in this process.
  static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

  /// Once closed on another thread, the held file reads as changed, and its end closes
  /// nothing: a descriptor of the same number opened since stays open.
  @Test func heldFileClosedInBackgroundIsNotClosedTwice() throws {
    let dir = Scratch()
    dir.write("held", "a task\n")
    dir.write("other", "another\n")
    let posix = Posix()
    let fd = try posix.open(dir.file("held"), O_RDONLY)
    let stamp = FileStamp(try posix.fstat(fd))
    var held: HeldFile? = HeldFile(fd: fd, stamp: stamp, leased: false, posix: posix)
    #expect(held?.isUnchanged == true)
    held?.closeInBackground()
    #expect(held?.isUnchanged == false)
    let deadline = Date().addingTimeInterval(5)
    while SystemCallTests.isOpen(fd), Date() < deadline { usleep(1000) }
    #expect(!SystemCallTests.isOpen(fd))
    // The lowest free number is the one just closed, unless a test running beside this one
    // took it meanwhile: then it is waited for until that test lets it go.
    var reused = try posix.open(dir.file("other"), O_RDONLY)
    let reuseDeadline = Date().addingTimeInterval(5)
    while reused != fd, Date() < reuseDeadline {
      posix.close(reused)
      while SystemCallTests.isOpen(fd), Date() < reuseDeadline { usleep(1000) }
      reused = try posix.open(dir.file("other"), O_RDONLY)
    }
    defer { posix.close(reused) }
    #expect(reused == fd)
    held = nil
    #expect(SystemCallTests.isOpen(reused))
    _ = held
  }
}

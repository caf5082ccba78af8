import Foundation
import Testing
import TodoTxt

@testable import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// The newline counts that let `add` skip reading a large file.
@Suite struct LineCountTests {
  /// The plainest count: every LF, and every LF right after a CR.
  static func naive(_ bytes: [UInt8]) -> (newlines: Int, crlf: Int) {
    var newlines = 0
    var pairs = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      newlines += 1
      if index > 0, bytes[index - 1] == 0x0D { pairs += 1 }
    }
    return (newlines, pairs)
  }

  @Test func tallyMatchesAByteByByteCount() {
    var state: UInt64 = 12345
    let alphabet: [UInt8] = [0x0A, 0x0D, 0x61, 0x20, 0x8A, 0x0B, 0x09]
    for length in [0, 1, 2, 7, 8, 9, 31, 32, 33, 255, 2016, 2048, 8064, 8065, 20_000] {
      for _ in 0..<8 {
        let bytes = (0..<length).map { _ -> UInt8 in
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return alphabet[Int(state >> 33) % alphabet.count]
        }
        let counted = bytes.withUnsafeBufferPointer { LineCount.tally($0) }
        let expected = LineCountTests.naive(bytes)
        #expect(counted.newlines == expected.newlines && counted.crlf == expected.crlf, "length \(length)")
      }
    }
    // Every byte a newline: the per-lane counters are at their fullest.
    let newlines = [UInt8](repeating: 0x0A, count: 1 << 16)
    #expect(newlines.withUnsafeBufferPointer { LineCount.tally($0) } == (1 << 16, 0))
  }

  /// A file large enough to be counted in two parts, with a CRLF cut by the middle.
  @Test func twoPartsAgreeWithTheList() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString)").path
    defer { unlink(path) }
    var bytes: [UInt8] = []
    let size = 17 << 20
    var line = 0
    while bytes.count < size {
      line += 1
      bytes += Array("task \(line) +Kitchen".utf8) + (line % 3 == 0 ? [0x0D, 0x0A] : [0x0A])
    }
    // Put a CR at the last byte of the first half and an LF at the first of the second.
    let half = bytes.count / 2
    bytes[half - 1] = 0x0D
    bytes[half] = 0x0A
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    let counts = try #require(LineCount.count(fd, size: bytes.count))
    let expected = LineCountTests.naive(bytes)
    #expect(counts.crlf == expected.crlf)
    #expect(counts.lf == expected.newlines - expected.crlf)
    let (lf, crlf) = TodoList(bytes: bytes).lineEndingCounts
    #expect(counts == LineCount(lf: lf, crlf: crlf))
  }

  /// The counting pass finds a conflict exactly when the whole-file check does: markers at
  /// the start, across the middle of two parts, across a megabyte read, with CR LF, at the
  /// very end; and not for marker-like lines that are not markers, or a closing line first.
  @Test func theCountingPassFindsConflictsAsTheWholeFileCheckDoes() throws {
    var base: [UInt8] = []
    var line = 0
    while base.count < 17 << 20 {
      line += 1
      base += Array("task \(line) +Kitchen -> soon <b>\n".utf8)
    }
    func placed(_ text: String, at fraction: Double) -> [UInt8] {
      var at = Int(Double(base.count) * fraction)
      while at > 0, base[at - 1] != 0x0A { at -= 1 }
      return Array(base[..<at]) + Array(text.utf8) + Array(base[at...])
    }
    var cases: [(String, [UInt8])] = [
      ("none", base),
      ("at the start", Array("<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n".utf8) + base),
      ("across the parts", placed("<<<<<<< ours\na\n=======\n", at: 0.49) + []),
      ("crlf at the end", base + Array("<<<<<<<\r\na\r\n=======\r\n>>>>>>>\r\n".utf8)),
      ("no closing", placed("<<<<<<< ours\n", at: 0.3)),
      ("closing first", placed(">>>>>>> theirs\n", at: 0.2)),
      ("eight signs", placed("<<<<<<<< x\n", at: 0.1) + Array(">>>>>>>>\n".utf8)),
    ]
    cases[2].1 = cases[2].1 + Array(">>>>>>> theirs\n".utf8)
    // An opening line that starts at the first byte of the second megabyte read.
    var split = base
    let cut = (1 << 20) - 1
    var start = cut
    while split[start - 1] != 0x0A { start -= 1 }
    split.insert(contentsOf: Array(String(repeating: "x", count: cut - start).utf8) + [0x0A], at: start)
    split.insert(contentsOf: Array("<<<<<<< ours\n".utf8), at: cut + 1)
    cases.append(("across a read", split + Array(">>>>>>>\n".utf8)))
    for (label, bytes) in cases {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("markers-\(UUID().uuidString)").path
      defer { unlink(path) }
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      let fd = open(path, O_RDONLY)
      defer { close(fd) }
      let counted = try #require(LineCount.counted(fd, size: bytes.count), "\(label)")
      #expect(counted.hasConflict == TodoStore.hasConflictMarkers(bytes), "\(label)")
      #expect(counted.counts.lines == bytes.filter { $0 == 0x0A }.count, "\(label)")
    }
    #expect(TodoStore.hasConflictMarkers(cases[2].1) && TodoStore.hasConflictMarkers(split + Array(">>>>>>>\n".utf8)))
    #expect(!TodoStore.hasConflictMarkers(cases[5].1) && !TodoStore.hasConflictMarkers(cases[6].1))
  }
}

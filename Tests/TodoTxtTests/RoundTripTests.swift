import Foundation
import Testing
import TodoTxt
import TodoTestSupport

/// The files in `Fixtures/`, read as bytes. The folder is excluded from the target and found
/// next to this source file, so no bundle is involved.
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static var names: [String] {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return all.filter { $0.hasSuffix(".txt") }.sorted()
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }
}

/// A file split into lines by hand, to check the list's view of it against.
struct Split: Equatable {
  var hasMark = false
  var lines: [[UInt8]] = []
  var endings: [LineEnding] = []

  init(_ file: [UInt8]) {
    var rest = file[...]
    if rest.starts(with: TodoList.byteOrderMark) {
      hasMark = true
      rest = rest.dropFirst(3)
    }
    while !rest.isEmpty {
      guard let newline = rest.firstIndex(of: 0x0A) else {
        lines.append(Array(rest))
        endings.append(.none)
        break
      }
      var line = rest[..<newline]
      if line.last == 0x0D {
        line = line.dropLast()
        endings.append(.crlf)
      } else {
        endings.append(.lf)
      }
      lines.append(Array(line))
      rest = rest[(newline + 1)...]
    }
  }

  init(_ list: TodoList) {
    hasMark = list.hasByteOrderMark
    lines = list.map { Array($0.bytes) }
    endings = list.indices.map { list.lineEnding(at: $0) }
  }

  /// The file's bytes with line `index` replaced.
  func serialized(replacing index: Int? = nil, with replacement: [UInt8] = []) -> [UInt8] {
    var out = hasMark ? TodoList.byteOrderMark : []
    for (i, line) in lines.enumerated() {
      out += i == index ? replacement : line
      out += endings[i].bytes
    }
    return out
  }
}

@Suite("Round trip")
struct RoundTripTests {
  @Test("the fixture folder holds every awkward file")
  func fixturesPresent() throws {
    #expect(Fixtures.names.count >= 13)
    // Guard against a checkout that converted line endings or dropped the marks.
    let bom = try Fixtures.bytes("bom-crlf.txt")
    #expect(bom.starts(with: TodoList.byteOrderMark))
    #expect(Split(bom).endings.allSatisfy { $0 == .crlf })
    let mixed = Split(try Fixtures.bytes("mixed-endings.txt"))
    #expect(Set(mixed.endings.map(\.rawValue)) == Set([LineEnding.lf, .crlf, .none].map(\.rawValue)))
    #expect(try Fixtures.bytes("invalid-utf8.txt").contains(0xFF))
  }

  @Test("serialize(parse(x)) == x, with the lines and endings as in the file", arguments: Fixtures.names)
  func roundTrip(_ name: String) throws {
    let file = try Fixtures.bytes(name)
    let list = TodoList(bytes: file)
    #expect(list.serialized() == file)
    #expect(Split(list) == Split(file))
    #expect(TodoList(bytes: list.serialized()) == list)
  }

  @Test("editing one line of a fixture leaves every other byte alone", arguments: Fixtures.names)
  func editEachLine(_ name: String) throws {
    let file = try Fixtures.bytes(name)
    let split = Split(file)
    for index in split.lines.indices {
      var list = TodoList(bytes: file)
      var task = list[index]
      task.appendText("+added")
      list.replace(at: index, with: task)
      let line = split.lines[index]
      let separator: [UInt8] = line.isEmpty || [0x20, 0x09, 0x0D].contains(line.last) ? [] : [0x20]
      #expect(list.serialized() == split.serialized(replacing: index, with: line + separator + utf8("+added")))
    }
  }

  @Test("a line of 1 MB survives reading, writing and an edit")
  func megabyteLine() {
    // Built here rather than checked in, to keep the repository small.
    var generator = SplitMix64(seed: 1)
    let words = ["word", "+proj", "@ctx", "due:2026-01-02", "2026-02-30", "\t", "  ", "é", "http://x.y/z"]
    var line = utf8("2026-01-01 ")
    while line.count < 1 << 20 {
      line += utf8(words[Int(generator.next() % UInt64(words.count))]) + [0x20]
    }
    let file = utf8("before\r\n") + line + utf8("\r\nafter\n") + line
    var list = TodoList(bytes: file)
    #expect(list.count == 4)
    #expect(list.serialized() == file)
    #expect(list[1].creationDate == day("2026-01-01"))
    #expect(list[1].projects == ["proj"])
    var task = list[1]
    task.setPriority(Priority("A"))
    list.replace(at: 1, with: task)
    #expect(list.serialized() == utf8("before\r\n(A) ") + line + utf8("\r\nafter\n") + line)
  }
}

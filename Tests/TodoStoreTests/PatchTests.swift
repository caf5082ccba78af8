import Testing
import TodoTestSupport
import TodoTxt

@testable import TodoStore

/// `Patch.apply`, which reads the file's lines where they lie and writes the result as it
/// makes it, against the way it was first written (every line copied out, the result made
/// from the copies), kept here as the reference: the same bytes, the same patch as applied,
/// the same conflict, on seeded files with CRLF, a byte order mark, no final newline, repeated
/// lines, and files another program changed meanwhile.
@Suite struct PatchTests {
  static func randomList(_ random: inout SplitMix64) -> [UInt8] {
    let words = ["call mum", "buy milk", "x 2009-02-01 paid", "(A) rent", "same", "same", "", "   "]
    var text: [UInt8] = Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0 ? TodoList.byteOrderMark : []
    let count = Int.random(in: 0..<40, using: &random)
    for index in 0..<count {
      text += Array(words.randomElement(using: &random)!.utf8)
      if Bool.random(using: &random) { text += Array(" \(index % 5)".utf8) }
      let last = index == count - 1
      switch Int.random(in: 0..<6, using: &random) {
      case 0: text += [0x0D, 0x0A]
      case 1 where last: break
      default: text.append(0x0A)
      }
    }
    return text
  }

  /// Random edits of the list, as commands make them.
  static func edit(_ list: inout TodoList, _ random: inout SplitMix64) {
    for _ in 0..<Int.random(in: 1..<6, using: &random) {
      switch Int.random(in: 0..<5, using: &random) {
      case 0: _ = list.append(Task(parsing: "added \(Int.random(in: 0..<9, using: &random))"))
      case 1 where !list.isEmpty: list.replace(at: Int.random(in: 0..<list.count, using: &random), with: Task(parsing: "changed"))
      case 2 where !list.isEmpty: _ = list.remove(at: Int.random(in: 0..<list.count, using: &random))
      case 3: list.insert(Task(parsing: "inserted"), at: Int.random(in: 0...list.count, using: &random))
      case 4 where list.count > 1: list.move(from: Int.random(in: 0..<list.count, using: &random), to: Int.random(in: 0..<list.count, using: &random))
      default: break
      }
    }
  }

  /// The same result as the reference, but where the reference looked for a line that no
  /// file has (an empty last line without an ending, see ``Patch/withoutVanishedLastLine(_:oldCount:)``)
  /// and failed: there the result is checked against `expected`, when the file is known.
  func same(_ patch: Patch, _ bytes: [UInt8], restoring: Bool, expected: [UInt8]? = nil, _ label: String) {
    let new = Result { () throws(PatchConflict) in try patch.apply(to: bytes, restoring: restoring) }
    let old = Result { () throws(PatchConflict) in try patch.referenceApply(to: bytes, restoring: restoring) }
    switch (new, old) {
    case (.success(let a), .success(let b)):
      #expect(a.bytes == b.bytes, "\(label)")
      #expect(a.applied == b.applied, "\(label)")
    case (.failure(let a), .failure(let b)): #expect(a == b, "\(label)")
    case (.success(let a), .failure(let b)) where b.was.isEmpty && b.line == patch.oldCount:
      if let expected { #expect(a.bytes == expected, "\(label): the vanished line") }
    default: Issue.record("\(label): \(new) against \(old)")
    }
  }

  @Test(arguments: 1...8 as ClosedRange<UInt64>)
  func appliesAsTheLineByLineReferenceDoes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for round in 0..<150 {
      let original = PatchTests.randomList(&random)
      var edited = TodoList(bytes: original)
      PatchTests.edit(&edited, &random)
      let patch = Patch(edits: edited)
      let after = edited.serialized()
      // Another program's edits meanwhile: of other lines, or of the lines the patch takes.
      var drifted = TodoList(bytes: original)
      PatchTests.edit(&drifted, &random)
      var driftedAfter = TodoList(bytes: after)
      PatchTests.edit(&driftedAfter, &random)
      let label = "seed \(seed), round \(round)"
      same(patch, original, restoring: false, label + ": as made")
      same(patch, drifted.serialized(), restoring: false, label + ": on a changed file")
      same(patch.inverted, after, restoring: true, expected: original, label + ": undone")
      // Undoing a change on the file it made gives back the file it was made from.
      #expect((try? patch.inverted.apply(to: after, restoring: true).bytes) == original, "\(label): undone")
      same(patch.inverted, driftedAfter.serialized(), restoring: true, label + ": undone on a changed file")
      same(patch, after, restoring: false, label + ": applied twice")
    }
  }

  @Test func aPatchAppliedToTheFileItWasMadeFromGivesTheEditedList() throws {
    var list = TodoList(bytes: Array("\u{FEFF}a\r\nb\nlast".utf8))
    list.replace(at: 1, with: Task(parsing: "B"))
    _ = list.append(Task(parsing: "d"))
    let patch = Patch(edits: list)
    #expect(try patch.apply(to: Array("\u{FEFF}a\r\nb\nlast".utf8)).bytes == list.serialized())
    #expect(try patch.inverted.apply(to: list.serialized(), restoring: true).bytes == Array("\u{FEFF}a\r\nb\nlast".utf8))
  }
}

/// The first way of applying a patch: every line of the file copied out first.
extension Patch {
  func referenceApply(to bytes: [UInt8], restoring: Bool = false) throws(PatchConflict) -> (bytes: [UInt8], applied: Patch) {
    let file = TodoList(bytes: bytes)
    let lines = Patch.lines(of: file, 0..<file.count)
    var out: [PatchLine] = []
    out.reserveCapacity(lines.count + addedCount)
    var applied: [Hunk] = []
    var cursor = 0
    var shift = 0
    for hunk in hunks {
      let expected = min(max(cursor, hunk.oldStart + shift), lines.count)
      let at: Int
      if !hunk.old.isEmpty {
        guard let found = Patch.referenceFind(hunk.old, in: lines, from: cursor, near: expected) else {
          throw Patch.referenceConflict(
            hunk, lines: lines, at: Patch.referenceLocate(hunk, in: lines, from: cursor, near: expected))
        }
        at = found
      } else if hunk.anchor == nil {
        at = cursor
      } else if hunk.oldStart >= oldCount, !restoring || lines.last?.bytes == hunk.anchor || lines.isEmpty {
        at = lines.count
      } else if let anchor = hunk.anchor,
        let found = Patch.referenceFind(
          [PatchLine(bytes: anchor, ending: .lf)], in: lines, from: max(cursor - 1, 0),
          near: expected - 1)
      {
        at = max(found + 1, cursor)
      } else {
        at = hunk.oldStart >= oldCount ? lines.count : expected
      }
      out += lines[cursor..<at]
      applied.append(
        Hunk(
          oldStart: at, newStart: out.count, old: Array(lines[at..<(at + hunk.old.count)]),
          new: hunk.new,
          anchor: at > 0 ? lines[at - 1].bytes : nil,
          following: at + hunk.old.count < lines.count ? lines[at + hunk.old.count].bytes : nil))
      out += hunk.new
      cursor = at + hunk.old.count
      shift = at - hunk.oldStart
    }
    out += lines[cursor...]
    // Every line but the last ends with a newline, whatever the hunks brought along.
    if out.count > 1 {
      for index in 0..<(out.count - 1) where out[index].ending == .none {
        out[index].ending = file.preferredLineEnding
      }
    }
    var result: [UInt8] = file.hasByteOrderMark ? TodoList.byteOrderMark : []
    result.reserveCapacity(bytes.count + 64)
    for line in out { result += line.bytes + line.ending.bytes }
    return (result, Patch(hunks: applied, oldCount: lines.count, newCount: out.count))
  }

  /// The start of the run `block` in `lines` at or after `from`, nearest to `near`.
  static func referenceFind(_ block: [PatchLine], in lines: [PatchLine], from: Int, near: Int) -> Int? {
    nearest(from: from, last: lines.count - block.count, near: near) { start in
      for (offset, line) in block.enumerated() where lines[start + offset].bytes != line.bytes {
        return false
      }
      return true
    }
  }

  /// Where the run of a hunk that is no longer there would stand: after its unchanged line
  /// before, or before its unchanged line after, when either is still there.
  static func referenceLocate(_ hunk: Hunk, in lines: [PatchLine], from: Int, near expected: Int) -> Int {
    if let anchor = hunk.anchor,
      let found = referenceFind(
        [PatchLine(bytes: anchor, ending: .lf)], in: lines, from: max(from - 1, 0),
        near: expected - 1)
    {
      return found + 1
    }
    if let following = hunk.following,
      let found = referenceFind(
        [PatchLine(bytes: following, ending: .lf)], in: lines, from: from,
        near: expected + hunk.old.count),
      found - hunk.old.count >= from
    {
      return found - hunk.old.count
    }
    // Both neighbours changed too: the nearby line most like the first line of the run.
    guard let first = hunk.old.first?.bytes else { return expected }
    func shared(_ line: [UInt8]) -> Int { zip(line, first).prefix { $0 == $1 }.count }
    let nearby = max(from, expected - 3)...max(from, min(expected + 3, lines.count - 1))
    let best = nearby.filter { $0 < lines.count }.max {
      shared(lines[$0].bytes) < shared(lines[$1].bytes)
    }
    if let best, shared(lines[best].bytes) > 0 { return best }
    return expected
  }

  /// The first line of the hunk's run that is not where it was, as it was and as it is.
  static func referenceConflict(_ hunk: Hunk, lines: [PatchLine], at expected: Int) -> PatchConflict {
    for (offset, line) in hunk.old.enumerated() {
      let position = expected + offset
      let next = offset + 1 < hunk.old.count ? hunk.old[offset + 1].bytes : hunk.following
      guard position < lines.count, lines[position].bytes != line.bytes else {
        if position < lines.count { continue }
        return PatchConflict(line: hunk.oldStart + offset + 1, was: line.bytes, now: nil)
      }
      let now = lines[position].bytes
      return PatchConflict(
        line: hunk.oldStart + offset + 1, was: line.bytes, now: now == next ? nil : now)
    }
    return PatchConflict(line: hunk.oldStart + 1, was: hunk.old.first?.bytes ?? [], now: nil)
  }
}

import Foundation
import Testing

/// `move` of one task out of a 2,000,000-line todo.txt into another file, killed at each step
/// of its write (before each rename, in the temporary file's and the journal's first write,
/// at the first fsync, before the journal is removed): the next command finishes or forgets
/// the change, and the task is in exactly one of the two files, every other line as it was.
@Suite(.serialized) struct KilledMoveTests {
  /// Where the run is killed (a `TODO_FAULT` value), and whether the move is then finished
  /// (the journal was complete) or forgotten.
  static let points: [(fault: String, finished: Bool)] = [
    ("write:KILL@1:.todo.txt.new", false),
    ("write:KILL@1:journal.new", false),
    ("fsync:KILL@1", false),
    // The journal's copy beside todo.txt, then its primary beside other.txt, then the files.
    ("rename:KILL@1", false),
    ("rename:KILL@2", false),
    ("rename:KILL@3", true),
    ("rename:KILL@4", true),
    // Both files in place, the journal not yet removed (lock's two removals of leftovers
    // and the staging's two come first).
    ("unlink:KILL@5:journal", true),
  ]

  @Test func moveKilledAtEveryStepOfTwoMillionLinesLosesNothing() throws {
    let count = 2_000_000
    let number = 1_000_000
    let original = Data(UntrustedStateTests.bigList(count))
    let task = "x 2009-02-01 task \(number) +p @c"
    let found = try #require(original.range(of: Data(("\n" + task + "\n").utf8)))
    let start = found.lowerBound + 1
    let end = found.upperBound - 1
    let other = Data("other one\nother two\n".utf8)
    // The two ways a moved task's line may leave todo.txt: emptied (line numbers kept) or
    // removed.
    let emptied = original.subdata(in: 0..<start) + original.subdata(in: end..<original.count)
    let removed = original.subdata(in: 0..<start) + original.subdata(in: end + 1..<original.count)
    let otherAfter = other + Data((task + "\n").utf8)
    let box = try Sandbox()
    var kills = 0
    for point in KilledMoveTests.points {
      try original.write(to: URL(fileURLWithPath: box.path("todo.txt")))
      try other.write(to: URL(fileURLWithPath: box.path("other.txt")))
      let run = try box.todo("-f", "mv", String(number), "other.txt", environment: ["TODO_FAULT": point.fault])
      #expect(run.status != 0, "\(point.fault) was not reached: \(run.stderr)")
      if run.status != 0 { kills += 1 }
      // Reading todo.txt finishes or forgets the change on both files.
      let next = try box.todo("lf", "todo.txt", "nothing-matches-this")
      #expect(next.status == 0, "after \(point.fault): \(next.stderr)")
      let todo = try Data(contentsOf: URL(fileURLWithPath: box.path("todo.txt")))
      let moved = try Data(contentsOf: URL(fileURLWithPath: box.path("other.txt")))
      let isOld = todo == original && moved == other
      let isNew = (todo == emptied || todo == removed) && moved == otherAfter
      #expect(isOld != isNew, "after \(point.fault): the task is in \(isOld ? "both" : "neither") or a line changed")
      #expect(point.finished ? isNew : isOld, "after \(point.fault): the move was \(isNew ? "finished" : "forgotten")")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.home.path).filter {
        $0.hasSuffix(".journal")
      }
      #expect(leftovers.isEmpty, "after \(point.fault): \(leftovers)")
    }
    #expect(kills == KilledMoveTests.points.count)
  }
}

import Foundation
import Testing

/// `todo resolve`: the way out of a merge conflict that needs no editor. Each expected file
/// below is worked out from the crafted markers by hand.
@Suite struct ResolveCommandTests {
  static let twoConflicts = """
    buy milk
    <<<<<<< ours
    (A) plan trip
    =======
    (B) plan trip
    >>>>>>> theirs
    call mom
    <<<<<<< ours
    =======
    x 2009-02-12 water plants
    >>>>>>> theirs

    """

  @Test func aloneItListsEachConflictWithBothSidesAcrossBothFiles() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ResolveCommandTests.twoConflicts)
    // git's diff3 style: the common version's lines sit between ||||||| and =======.
    try box.write("done.txt", "<<<<<<< HEAD\nx 2009-02-10 a\n||||||| base\n=======\nx 2009-02-11 b\n>>>>>>> origin/main\n")
    let run = try box.todo("resolve")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout == """
        1: todo.txt line 2
          ours:    (A) plan trip
          theirs:  (B) plan trip
        2: todo.txt line 8
          ours:    (no line: deleted on this side)
          theirs:  x 2009-02-12 water plants
        3: done.txt line 1
          ours:    x 2009-02-10 a
          theirs:  x 2009-02-11 b
        Keep a side with 'resolve ours', 'resolve theirs' or 'resolve both', followed by the numbers to settle only those.

        """)
  }

  @Test func aSideKeepsItsLinesAndDropsTheMarkersAndTheOtherSide() throws {
    for (side, expected) in [
      ("ours", "buy milk\n(A) plan trip\ncall mom\n"),
      ("theirs", "buy milk\n(B) plan trip\ncall mom\nx 2009-02-12 water plants\n"),
      ("both", "buy milk\n(A) plan trip\n(B) plan trip\ncall mom\nx 2009-02-12 water plants\n"),
    ] {
      let box = try Sandbox()
      try box.write("todo.txt", ResolveCommandTests.twoConflicts)
      let run = try box.todo("resolve", side)
      #expect(run.status == 0, "\(side): \(run.stderr)")
      #expect(run.stdout.hasPrefix("Settled 2 conflicts"), "\(side): \(run.stdout)")
      #expect(box.read("todo.txt") == expected, "\(side)")
      // Settled lists are lists again for every command.
      #expect(try box.todo("ls").status == 0)
    }
  }

  @Test func numbersSettleOnlyThoseAndUndoBringsTheMarkersBack() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ResolveCommandTests.twoConflicts)
    try box.write("done.txt", "<<<<<<< ours\nx 2009-02-10 a\n=======\nx 2009-02-11 b\n>>>>>>> theirs\n")
    let run = try box.todo("resolve", "theirs", "1", "3")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Settled 2 conflicts, keeping theirs; 1 left (see 'resolve').\n")
    #expect(
      box.read("todo.txt")
        == "buy milk\n(B) plan trip\ncall mom\n<<<<<<< ours\n=======\nx 2009-02-12 water plants\n>>>>>>> theirs\n")
    #expect(box.read("done.txt") == "x 2009-02-11 b\n")
    // One change of both files, undone at once.
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt") == ResolveCommandTests.twoConflicts)
    #expect(box.read("done.txt") == "<<<<<<< ours\nx 2009-02-10 a\n=======\nx 2009-02-11 b\n>>>>>>> theirs\n")
  }

  @Test func crLfListsKeepTheirEndings() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\r\n<<<<<<< ours\r\n(A) b\r\n=======\r\n(C) b\r\n>>>>>>> theirs\r\nc\r\n")
    #expect(try box.todo("resolve", "theirs").status == 0)
    #expect(box.read("todo.txt") == "a\r\n(C) b\r\nc\r\n")
  }

  @Test func wrongWordsAndNumbersAreRefusedAndTouchNothing() throws {
    let box = try Sandbox()
    try box.write("todo.txt", ResolveCommandTests.twoConflicts)
    for (arguments, message) in [
      (["resolve", "theirs", "3"], "todo: resolve: no conflict 3 (there are 2)"),
      (["resolve", "theirs", "1", "x"], "todo: resolve: 'x' is not a conflict number"),
      (["resolve", "theirs", "0"], "todo: resolve: '0' is not a conflict number"),
      (["resolve", "theirs", "-1"], nil),
      (["resolve", "mine"], nil),
    ] as [([String], String?)] {
      let run = try box.run("todo", arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
      if let message { #expect(run.stderr == message + "\n", "\(arguments)") }
      #expect(box.read("todo.txt") == ResolveCommandTests.twoConflicts, "\(arguments)")
    }
    // A misspelled side names the sides there are.
    #expect(try box.todo("resolve", "mine").stderr.contains("ours, theirs, both"))
  }

  @Test func markersOutOfPlaceAreLeftToAnEditor() throws {
    for text in [
      "a\n<<<<<<< ours\n(A) b\n>>>>>>> theirs\n",  // no =======
      "a\n<<<<<<< ours\n(A) b\n=======\n(B) b\n",  // never closed
      "<<<<<<< ours\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n",  // opened twice
    ] {
      let box = try Sandbox()
      try box.write("todo.txt", text)
      for arguments in [["resolve"], ["resolve", "ours"]] {
        let run = try box.run("todo", arguments)
        #expect(run.status == 1, "\(text) \(arguments)")
        #expect(run.stderr.contains("todo.txt:") && run.stderr.contains("out of place"), "\(run.stderr)")
        #expect(box.read("todo.txt") == text)
      }
    }
  }

  @Test func withoutConflictsListingSaysSoAndSettlingIsAnError() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\n=======\nb\n")
    let listed = try box.todo("resolve")
    #expect(listed.status == 0)
    #expect(listed.stdout == "No merge conflicts in todo.txt or done.txt.\n")
    let settled = try box.todo("resolve", "ours")
    #expect(settled.status == 1)
    #expect(settled.stderr == "todo: resolve: no merge conflicts in todo.txt or done.txt\n")
    #expect(box.read("todo.txt") == "a\n=======\nb\n")
  }

  @Test func hostileTaskTextInAConflictReachesNoTerminalRaw() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "<<<<<<< ours\n(A) pay \u{1B}]52;c;aGk=\u{07}rent \u{9B}31m\n=======\n(B) pay rent\n>>>>>>> theirs\n")
    let text = try box.onTerminal(["resolve"])
    let output = Array(text.utf8)
    for sequence: [UInt8] in [[0x1B], [0x07], [0xC2, 0x9B]] {
      #expect(!output.indices.contains { output[$0...].starts(with: sequence) }, "\(sequence) reached the terminal")
    }
    #expect(text.contains("(A) pay ^[]52;c;aGk=^Grent"), "\(text)")
  }

  /// A lone byte 0x9B (no part of a UTF-8 character) is CSI to a terminal reading 8-bit
  /// controls: it is shown as its value; a UTF-8 character holding the same byte is kept.
  @Test func aLoneEightBitControlReachesNoTerminalRaw() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt",
      bytes: Array("<<<<<<< ours\n(A) pay ".utf8) + [0x9B] + Array("31m rent \u{2192}\n=======\n(B) pay rent\n>>>>>>> theirs\n".utf8))
    let text = try box.onTerminal(["resolve"])
    #expect(text.contains("(A) pay <0x9B>31m rent \u{2192}"), "\(text)")
    let output = Array(text.utf8)
    #expect(!output.indices.contains { output[$0] == 0x9B && ($0 == 0 || output[$0 - 1] < 0x80) })
  }

  /// The whole way, with real git: a conflict from sync, settled without an editor, and the
  /// next sync finishes the merge on both machines.
  @Test(arguments: [SyncPropertyTests.Way.sync, .pull])
  func aSyncConflictIsSettledAndTheNextSyncFinishesIt(way: SyncPropertyTests.Way) throws {
    let net = try Network()
    let (laptop, phone) = (net.laptop, net.phone)
    try laptop.write("list/todo.txt", "(C) plan trip\nbuy milk\n")
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("pri", "1", "A").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    #expect(try phone.todo("pri", "1", "B").status == 0)
    #expect(try SyncSafetyTests.merge(phone, way).status != 0)
    let listed = try phone.todo("resolve")
    #expect(listed.status == 0)
    #expect(listed.stdout.contains("(B) plan trip") && listed.stdout.contains("(A) plan trip"))
    #expect(try phone.todo("ls").status == 1)
    // The phone's side is ours: keep the laptop's (A).
    let settled = try phone.todo("resolve", "theirs")
    #expect(settled.status == 0, "\(settled.stderr)")
    #expect(SyncSafetyTests.tasks(phone) == ["(A) plan trip", "buy milk"])
    if way == .pull {
      _ = try SyncSafetyTests.gitStatus(phone, ["commit", "-q", "-a", "-m", "resolved"])
    }
    #expect(try phone.todo("sync").status == 0)
    #expect(try laptop.todo("sync").status == 0)
    for box in [laptop, phone] {
      #expect(SyncSafetyTests.tasks(box) == ["(A) plan trip", "buy milk"])
    }
  }
}

/// A large list (past the size from which an append reads only the file's end) is refused
/// to `add` while it holds a conflict, however the markers got there: written by git, or put
/// back by an undo of `resolve`.
@Suite struct LargeConflictTests {
  /// About 2.4 MB, past the 1 MiB from which counts are remembered.
  static let tasks = (1...60_000).map { "task \($0) +big @home with a few more words\n" }.joined()

  @Test func addToALargeListWithAConflictIsRefused() throws {
    let box = try Sandbox()
    let conflicted = LargeConflictTests.tasks + "<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n"
    // Written from outside (git's merge), after the tool remembered the file's counts.
    try box.write("todo.txt", LargeConflictTests.tasks)
    #expect(try box.todo("add", "before").status == 0)
    try box.write("todo.txt", conflicted)
    let refused = try box.todo("add", "during")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("merge conflict"), "\(refused.stderr)")
    #expect(box.read("todo.txt") == conflicted)

    // Settled, then unsettled again by undo: the tool wrote the markers itself.
    #expect(try box.todo("resolve", "ours").status == 0)
    #expect(try box.todo("add", "settled").status == 0)
    #expect(try box.todo("undo").status == 0)
    #expect(try box.todo("undo").status == 0)
    #expect(box.read("todo.txt") == conflicted)
    let again = try box.todo("add", "during again")
    #expect(again.status == 1)
    #expect(box.read("todo.txt") == conflicted)
  }
}

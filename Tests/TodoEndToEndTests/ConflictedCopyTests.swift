import Foundation
import Testing

/// `conflicts` never drops work: the base is a version both files descend from, found from
/// this machine's undo log whichever of the two files is this machine's.
@Suite("Conflicted copies")
struct ConflictedCopyTests {
  static func tasks(_ box: Sandbox) -> [String] {
    box.read("todo.txt").split(separator: "\n").map(String.init)
  }

  @Test func tasksAddedHereAfterTheCopyLeftAreKept() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    try box.write(
      "todo (conflicted copy 2026-12-01).txt", "2009-02-13 Call mom\nOrder new glasses\n")
    #expect(try box.todo("add", "Book dentist").status == 0)
    #expect(try box.todo("add", "Renew library card").status == 0)
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == [
        "2009-02-13 Call mom", "Order new glasses", "2009-02-13 Book dentist",
        "2009-02-13 Renew library card",
      ])
  }

  @Test func everyCopyOfThreeKeepsItsTask() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    #expect(try box.todo("add", "Book dentist").status == 0)
    try box.write("todo (conflicted copy 2026-12-01).txt", "2009-02-13 Call mom\nfrom one\n")
    try box.write("todo (Sam's conflicted copy 2026-12-01).txt", "2009-02-13 Call mom\nfrom two\n")
    try box.write(
      "todo.sync-conflict-20261201-101500-ABCDEFG.txt", "2009-02-13 Call mom\nfrom three\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == [
        "2009-02-13 Call mom", "2009-02-13 Book dentist", "from one", "from two", "from three",
      ])
    #expect(ConflictedCopyTests.tasks(box).count == 5)
  }

  /// Three copies, two of them sharing a task (D3), one adding another (D4): each copy is
  /// merged against a version it descends from, never one already holding another copy's
  /// lines, so no copy's task reads as deleted by the next. The same for done.txt.
  @Test(arguments: ["todo", "done"])
  func threeCopiesLoseNoTaskOfAnother(_ stem: String) throws {
    let box = try Sandbox()
    let (one, two) = stem == "todo" ? ("D1", "D2") : ("x 2026-11-30 D1", "x 2026-11-30 D2")
    let line = { (name: String) in stem == "todo" ? name : "x 2026-11-30 " + name }
    if stem == "todo" {
      #expect(try box.todo("-T", "add", one).status == 0)
      #expect(try box.todo("-T", "add", two).status == 0)
    } else {
      try box.write("todo.txt", "\(one)\n\(two)\n")
      #expect(try box.todo("archive").status == 0)
    }
    #expect(box.read("\(stem).txt") == "\(one)\n\(two)\n")
    for (time, added) in [("100000-AAAAAAA", ["D4"]), ("110000-BBBBBBB", ["D3"]), ("120000-CCCCCCC", ["D3", "D5"])] {
      let text = ([one, two] + added.map(line)).map { $0 + "\n" }.joined()
      try box.write("\(stem).sync-conflict-20261201-\(time).txt", text)
    }
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    let lines = box.read("\(stem).txt").split(separator: "\n").map(String.init)
    #expect(Set(lines) == Set([one, two] + ["D4", "D3", "D5"].map(line)), "\(lines)")
    #expect(lines.count == 5, "\(lines)")
  }

  @Test func onTheMachineWhoseFileWasRenamedBothMachinesEditsAreKept() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    #expect(try box.todo("add", "Water plants").status == 0)
    #expect(try box.todo("add", "Book dentist").status == 0)
    #expect(try box.todo("do", "2").status == 0)
    // The syncing service moved this machine's todo.txt to the copy and put the other
    // machine's version (made from the first two tasks: one done there, one added) in place.
    let here = box.read("todo.txt")
    try box.write("todo.sync-conflict-20261201-101500-ABCDEFG.txt", here)
    try box.write(
      "todo.txt", "x 2009-02-13 2009-02-13 Call mom\n2009-02-13 Water plants\nOrder new glasses\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    let tasks = ConflictedCopyTests.tasks(box)
    #expect(tasks.count == 4, "\(tasks)")
    #expect(tasks.contains("x 2009-02-13 2009-02-13 Call mom"))
    #expect(tasks.contains { $0.hasPrefix("x ") && $0.hasSuffix("Water plants") })
    #expect(tasks.contains("2009-02-13 Book dentist"))
    #expect(tasks.contains("Order new glasses"))
  }

  @Test func aLogThatDescribesNeitherFileKeepsEveryTask() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    // An editor replaced the file since: the log no longer describes it, nor the copy.
    try box.write("todo.txt", "Pay rent\nFeed cat\n")
    try box.write("todo (conflicted copy 2026-12-01).txt", "Feed cat\nBuy stamps\n")
    #expect(try box.todo("conflicts").status == 0)
    #expect(Set(ConflictedCopyTests.tasks(box)) == ["Pay rent", "Feed cat", "Buy stamps"])
  }

  @Test func aTaskTheOtherMachineDeletedStaysDeletedWhenTheLogIsWhole() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    #expect(try box.todo("add", "Water plants").status == 0)
    #expect(try box.todo("pri", "1", "A").status == 0)
    // The copy left here after the priority (it has it), so with 'Water plants': the other
    // machine deleted that task and added one of its own.
    try box.write("todo (conflicted copy 2026-12-01).txt", "(A) 2009-02-13 Call mom\nOrder new glasses\n")
    #expect(try box.todo("add", "Book dentist").status == 0)
    #expect(try box.todo("conflicts").status == 0)
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == ["(A) 2009-02-13 Call mom", "Order new glasses", "2009-02-13 Book dentist"])
  }

  /// Both machines have a task added before the copy left; the other machine then changes
  /// or deletes it while this one completes another. The version with the task is the
  /// common one, even though a version without it accounts for the copy as well: the change
  /// is theirs, never a second task beside the first, and the deletion stays.
  @Test(arguments: [
    ["append", "4", "on the balcony"], ["prepend", "4", "Outside:"], ["replace", "4", "Water all plants"],
    ["pri", "4", "A"], ["-f", "del", "4"],
  ])
  func aTaskBothMachinesHadIsChangedOnceByTheOther(_ change: [String]) throws {
    let here = try Sandbox()
    let there = try Sandbox()
    for box in [here, there] {
      try box.write("todo.txt", "Call mom\nPay rent\n")
      #expect(try box.todo("add", "Fix bike").status == 0)
      #expect(try box.todo("add", "Water plants").status == 0)
    }
    #expect(try here.todo("do", "1").status == 0)
    #expect(try there.run("todo", change).status == 0)
    // The syncing service kept this machine's file and made the other's a copy.
    try here.write("todo (Sam's conflicted copy 2026-12-01).txt", there.read("todo.txt"))
    let run = try here.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    let expected = ConflictedCopyTests.tasks(there).map { $0 == "Call mom" ? "x 2009-02-13 Call mom" : $0 }
    #expect(ConflictedCopyTests.tasks(here) == expected, "\(change)")
  }

  /// On the machine whose file the syncing service renamed to a copy (the other machine's
  /// version took its place), with a second copy from a third machine: the log describes
  /// neither list file that third copy meets, but it describes this machine's copy, and the
  /// third copy is merged against a version of that one. Whichever copy is merged first.
  @Test(arguments: [
    ("todo (Sam's conflicted copy 2026-12-01).txt", "todo (Kim's conflicted copy 2026-12-01).txt"),
    ("todo (Kim's conflicted copy 2026-12-01).txt", "todo (Sam's conflicted copy 2026-12-01).txt"),
  ])
  func onTheMachineWhoseFileLostAThirdMachinesCopyMergesToo(_ own: String, _ third: String) throws {
    let here = try Sandbox()
    let winner = try Sandbox()
    let thirdMachine = try Sandbox()
    for box in [here, winner, thirdMachine] {
      try box.write("todo.txt", "Call mom\nPay rent\n")
      #expect(try box.todo("add", "Buy milk @store").status == 0)
      #expect(try box.todo("add", "Fix bike").status == 0)
    }
    #expect(try winner.todo("do", "1").status == 0)
    #expect(try thirdMachine.todo("add", "Water plants").status == 0)
    #expect(try here.todo("append", "3", "and eggs").status == 0)
    try here.write(own, here.read("todo.txt"))
    try here.write("todo.txt", winner.read("todo.txt"))
    try here.write(third, thirdMachine.read("todo.txt"))
    let run = try here.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      ConflictedCopyTests.tasks(here) == [
        "x 2009-02-13 Call mom", "Pay rent", "2009-02-13 Buy milk @store and eggs", "2009-02-13 Fix bike",
        "2009-02-13 Water plants",
      ])
  }

  /// Without a version the log vouches for, a task edited on one side is a new task to the
  /// merge, and both are kept: each such pair is named on standard error, one line each,
  /// and the exit status says the result needs a look. Pairs already shown as conflicts,
  /// and tasks that are not alike, are not named.
  @Test func tasksKeptTwiceWithoutACommonVersionAreNamed() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "Water plants\nCall mom\nBuy milk @store\nPay rent\n")
    try box.write(
      "todo.sync-conflict-20261201-101500-ABCDEFG.txt",
      "Water plants on the balcony\nCall mom\nBuy milk @store and eggs\nFeed cat\n")
    let run = try box.todo("conflicts")
    #expect(run.status == 1)
    #expect(
      run.stderr == """
        todo: todo.txt keeps both 'Water plants' and 'Water plants on the balcony', probably one task changed on both sides (no common version to tell); delete the one you do not want
        todo: todo.txt keeps both 'Buy milk @store' and 'Buy milk @store and eggs', probably one task changed on both sides (no common version to tell); delete the one you do not want

        """)
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == [
        "Water plants", "Water plants on the balcony", "Call mom", "Buy milk @store", "Buy milk @store and eggs",
        "Pay rent", "Feed cat",
      ])
    #expect(box.exists(".todo-conflicts/todo.sync-conflict-20261201-101500-ABCDEFG.txt"))
  }

  @Test func aTaskAddedHereByAnEditorIsKept() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    try box.write("todo (conflicted copy 2026-12-01).txt", "2009-02-13 Call mom\nOrder new glasses\n")
    // Written by an editor, so the undo log never saw it come.
    try box.write("todo.txt", box.read("todo.txt") + "Fix the bike\n")
    #expect(try box.todo("add", "Book dentist").status == 0)
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == [
        "2009-02-13 Call mom", "Order new glasses", "Fix the bike", "2009-02-13 Book dentist",
      ])
  }

  @Test func aTaskAddedHereBeforeTheOldestKeptChangeIsKept() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "Call mom").status == 0)
    try box.write("todo (conflicted copy 2026-12-01).txt", "2009-02-13 Call mom\nOrder new glasses\n")
    #expect(try box.todo("add", "Book dentist").status == 0)
    // A hundred changes since: the log keeps the last hundred, so it no longer reaches back
    // to the version the copy left from.
    let fillers = (1...100).map { "filler \($0)" }
    for filler in fillers { #expect(try box.todo("add", filler).status == 0) }
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Set(ConflictedCopyTests.tasks(box))
        == Set(["2009-02-13 Call mom", "Order new glasses", "2009-02-13 Book dentist"] + fillers.map { "2009-02-13 " + $0 }))
  }

  @Test func aTaskTheFileHadBeforeTheFirstLoggedChangeIsKept() throws {
    let box = try Sandbox()
    // Written before the tool ever changed the file; the copy is older still, or never had it.
    try box.write("todo.txt", "old one\nwritten by an editor\nold two\n")
    try box.write("todo (conflicted copy 2026-12-01).txt", "old one\nold two\ntheirs new\n")
    #expect(try box.todo("add", "Y").status == 0)
    let run = try box.todo("conflicts")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      Set(ConflictedCopyTests.tasks(box)) == ["old one", "written by an editor", "old two", "2009-02-13 Y", "theirs new"])
  }
}

/// A conflicted copy waiting beside the list is mentioned by `ls` (on standard error, so the
/// listing stays as it is) and by `doctor`, with what to run.
@Suite struct WaitingCopyTests {
  @Test func lsAndDoctorSayACopyIsWaiting() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "call mom\n")
    let quiet = try box.todo("ls")
    // Piped, the listing's summary is on standard error, and nothing else is.
    #expect(quiet.stderr == "--\nTODO: 1 of 1 tasks shown\n")
    let copy = "todo.sync-conflict-20261201-101500-ABCDEFG.txt"
    try box.write(copy, "call mom\nbuy milk\n")
    let ls = try box.todo("ls")
    #expect(ls.status == 0)
    #expect(ls.stdout == quiet.stdout)
    #expect(
      ls.stderr
        == "--\nTODO: 1 of 1 tasks shown\ntodo: '\(copy)' is a conflicted copy beside the list, left by a sync service; 'todo conflicts' merges them\n")
    let doctor = try box.todo("doctor")
    #expect(doctor.status == 1)
    #expect(doctor.stdout.contains("\(copy): a conflicted copy a sync service left; 'todo conflicts' merges it"), "\(doctor.stdout)")
    #expect(try box.todo("conflicts").status == 0)
    #expect(try box.todo("ls").stderr == "--\nTODO: 2 of 2 tasks shown\n")
  }
}

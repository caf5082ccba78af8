import Testing

/// `merge BASE OURS THEIRS`: two versions of a list merged task by task into OURS.
@Suite struct MergeCommandTests {
  /// Writes the three versions and merges them; returns the run and OURS after it.
  static func merge(
    base: String, ours: String, theirs: String, options: [String] = []
  ) throws -> (run: CommandFixture.Run, result: String) {
    let list = try CommandFixture(todo: nil)
    try list.write("base.txt", base)
    try list.write("ours.txt", ours)
    try list.write("theirs.txt", theirs)
    let run = list.run("todo", ["merge"] + options + [list.path("base.txt"), list.path("ours.txt"), list.path("theirs.txt")])
    return (run, list.read("ours.txt"))
  }

  @Test func changesOnEachSideAreBothKept() throws {
    let (run, result) = try MergeCommandTests.merge(
      base: "Call mom\nBuy milk\n", ours: "(A) Call mom\nBuy milk\n", theirs: "Call mom\nBuy milk\nPay rent\n")
    #expect(run.status == 0)
    #expect(run.combined == "")
    #expect(result == "(A) Call mom\nBuy milk\nPay rent\n")
  }

  @Test func doneOnOneSideAndEditedOnTheOther() throws {
    let (run, result) = try MergeCommandTests.merge(
      base: "Buy milk\n", ours: "x 2009-02-13 Buy milk\n", theirs: "Buy milk +shop\n")
    #expect(run.status == 0)
    #expect(result == "x 2009-02-13 Buy milk +shop\n")
  }

  @Test func deletedOnOneSideAndUntouchedOnTheOtherGoes() throws {
    let (run, result) = try MergeCommandTests.merge(base: "a\nb\nc\n", ours: "a\nc\n", theirs: "a\nb\nc\n")
    #expect(run.status == 0)
    #expect(result == "a\nc\n")
  }

  @Test func addedOnBothSidesIsKeptOnce() throws {
    let (_, result) = try MergeCommandTests.merge(base: "a\n", ours: "a\nPay rent\n", theirs: "a\nPay rent\n")
    #expect(result == "a\nPay rent\n")
  }

  @Test func aPriorityChangedBothWaysIsAConflictWithBothVersions() throws {
    let (run, result) = try MergeCommandTests.merge(base: "(B) Buy milk\n", ours: "(A) Buy milk\n", theirs: "(C) Buy milk\n")
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("todo: 1 task changed on both sides in "))
    #expect(result == "<<<<<<< ours\n(A) Buy milk\n=======\n(C) Buy milk\n>>>>>>> theirs\n")
  }

  @Test func unionKeepsEveryLineOnce() throws {
    let (run, result) = try MergeCommandTests.merge(
      base: "x 2009-01-01 old\n", ours: "x 2009-01-01 old\nx 2009-02-12 a\n", theirs: "x 2009-01-01 old\nx 2009-02-13 b\n",
      options: ["--union"])
    #expect(run.status == 0)
    #expect(result == "x 2009-01-01 old\nx 2009-02-12 a\nx 2009-02-13 b\n")
  }

  @Test func aMissingVersionOrArgumentChangesNothing() throws {
    let list = try CommandFixture(todo: nil)
    try list.write("ours.txt", "a\n")
    list.todo("merge", list.path("base.txt"), list.path("ours.txt"), list.path("theirs.txt"))
      .expectOneLineError(containing: "todo: cannot read ")
    #expect(list.todo("merge", list.path("ours.txt"), list.path("ours.txt")).status == 1)
    #expect(list.read("ours.txt") == "a\n")
    #expect(list.sh("merge", list.path("ours.txt"), list.path("ours.txt"), list.path("ours.txt")).status == 1)
  }
}

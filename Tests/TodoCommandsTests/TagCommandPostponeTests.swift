import Testing

/// `postpone` (declared in TagCommand.swift): due dates moved by a duration or to a date.
@Suite struct TagCommandPostponeTests {
  @Test func anOverdueTaskMovesFromTodayAndItsThresholdKeepsTheGap() throws {
    let list = try CommandFixture(todo: "Pay rent due:2009-02-10 t:2009-02-08\n")
    let run = list.todo("postpone", "1", "3d")
    #expect(run.status == 0)
    #expect(run.stdout == "1 Pay rent due:2009-02-16 t:2009-02-14\nTODO: 1 postponed to 2009-02-16.\n")
    #expect(list.read("todo.txt") == "Pay rent due:2009-02-16 t:2009-02-14\n")
  }

  @Test func aFutureDueDateMovesFromItself() throws {
    let list = try CommandFixture(todo: "Buy milk due:2009-02-20\n")
    #expect(list.todo("postpone", "1", "1w").status == 0)
    #expect(list.read("todo.txt") == "Buy milk due:2009-02-27\n")
  }

  @Test func aDateBecomesTheDueDateAndOnlyAThresholdMovesAlone() throws {
    let list = try CommandFixture(todo: "Call mom\nRead t:2009-02-15\n")
    #expect(list.todo("postpone", "1", "tomorrow").status == 0)
    #expect(list.todo("postpone", "2", "2d").status == 0)
    #expect(list.read("todo.txt") == "Call mom due:2009-02-14\nRead t:2009-02-17\n")
  }

  @Test func refusesWhatIsNeitherDurationNorDate() throws {
    let list = try CommandFixture(todo: "Call mom\n")
    list.todo("postpone", "1", "soon").expectOneLineError(containing: "'soon' is neither a duration")
    list.todo("postpone", "2", "1d").expectOneLineError(containing: "TODO: No task 2.")
    list.todo("postpone", "1", "1d\u{1B}").expectOneLineError(containing: "control character U+001B")
    #expect(list.read("todo.txt") == "Call mom\n")
  }

  /// A task given twice is moved twice, and each move is shown as it left the task; the
  /// others are shown as written.
  @Test func aTaskGivenTwiceIsShownAfterEachMove() throws {
    let list = try CommandFixture(todo: "a due:2009-02-20\nb due:2009-02-20\n")
    let run = list.todo("postpone", "1", "2", "1", "1d")
    #expect(run.status == 0)
    #expect(
      run.stdout == "1 a due:2009-02-21\nTODO: 1 postponed to 2009-02-21.\n2 b due:2009-02-21\nTODO: 2 postponed to 2009-02-21.\n"
        + "1 a due:2009-02-22\nTODO: 1 postponed to 2009-02-22.\n")
    #expect(list.read("todo.txt") == "a due:2009-02-22\nb due:2009-02-21\n")
  }
}

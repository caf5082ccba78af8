import Foundation
import Glibc
import Testing
import TodoTxt
@testable import TodoView

/// Each key of the view, driven in-process on a real list in a temporary folder: what the
/// file holds afterwards, and what the screen shows.
@Suite struct ViewSessionTests {
  static let list = """
    (B) 2009-02-01 Call mom @phone
    2009-02-02 Buy milk +shop @store
    x 2009-02-10 2009-02-03 File taxes
    (A) 2009-02-04 Water plants due:2009-02-14

    """

  @Test func arrowsAndVimKeysMoveTheSelectionAndTheScreenMarksIt() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    #expect(view.session.rows == [0, 1, 3])
    #expect(view.selectedLine == "(B) 2009-02-01 Call mom @phone")
    view.press(.character("j"), .down)
    #expect(view.selectedLine == "(A) 2009-02-04 Water plants due:2009-02-14")
    view.press(.down)
    #expect(view.selectedLine == "(A) 2009-02-04 Water plants due:2009-02-14", "the last task stays selected")
    view.press(.character("g"))
    #expect(view.session.selected == 0)
    view.press(.character("G"), .character("k"), .up)
    #expect(view.session.selected == 0)
    let screen = view.screen()
    #expect(screen.count == 12)
    #expect(screen.allSatisfy { $0.count == 80 })
    #expect(screen[0].hasPrefix("todo · 3 of 4 · order: manual"))
    #expect(screen[1].hasPrefix("> 1 (B) 2009-02-01 Call mom @phone"))
    #expect(screen[2].hasPrefix("  2     2009-02-02 Buy milk +shop @store"))
    #expect(screen[3].hasPrefix("  4 (A) 2009-02-04 Water plants due:2009-02-14 (tomorrow)"))
  }

  @Test func xCompletesTheTaskAndReopensADoneOne() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.down, .character("x"))
    #expect(view.todo.contains("x 2009-02-13 2009-02-02 Buy milk +shop @store\n"))
    #expect(view.session.rows == [0, 3], "a done task leaves the list")
    #expect(view.session.message.contains("marked as done"))
    view.press(.tab)
    #expect(view.session.rows == [0, 1, 2, 3])
    view.press(.character("g"), .down, .down, .character("x"))
    #expect(view.todo.contains("\n2009-02-03 File taxes\n"))
  }

  @Test func completingARecurringTaskAddsItsNextOccurrence() throws {
    let view = try ViewFixture(todo: "2009-02-01 Water plants rec:1w due:2009-02-13\n")
    view.press(.character("x"))
    #expect(view.todo.contains("x 2009-02-13 2009-02-01 Water plants rec:1w due:2009-02-13"))
    #expect(view.todo.contains("Water plants rec:1w due:2009-02-20"))
    #expect(view.session.rows.count == 1)
  }

  @Test func aAddsATaskWithCompletionOfProjectsAndContexts() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type("a")
    view.type("Get bread +sh", then: .tab)
    guard case .prompt(.add, let editor) = view.session.state else {
      Issue.record("no add prompt")
      return
    }
    #expect(editor.text == "Get bread +shop ")
    view.type("@st", then: .tab, .enter)
    #expect(view.todo.hasSuffix("2009-02-13 Get bread +shop @store\n"))
    #expect(view.selectedLine == "2009-02-13 Get bread +shop @store", "the new task is selected")
    #expect(view.session.state == .list)
  }

  @Test func escapeLeavesAPromptAndAnEmptyAddAddsNothing() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type("aNever mind", then: .escape)
    view.type("a", then: .enter)
    #expect(view.todo == ViewSessionTests.list)
  }

  @Test func eEditsTheTextInPlace() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("e"), .control("u"))
    view.type("(B) 2009-02-01 Call mom and dad @phone", then: .enter)
    #expect(view.todo.hasPrefix("(B) 2009-02-01 Call mom and dad @phone\n2009-02-02 Buy milk"))
    #expect(view.selectedLine == "(B) 2009-02-01 Call mom and dad @phone")
  }

  @Test func anEditWhoseTaskChangedOnDiskMeanwhileIsAskedAboutNotLost() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("e"), .end)
    view.type(" tonight")
    // Another program changes the same task while the person types.
    try view.writeFromOutside(ViewSessionTests.list.replacingOccurrences(of: "Call mom", with: "Call mom back"))
    view.press(.enter)
    guard case .conflict(_, let yours, let theirs) = view.session.state else {
      Issue.record("no conflict shown: \(view.session.state)")
      return
    }
    #expect(yours == "(B) 2009-02-01 Call mom @phone tonight")
    #expect(theirs.isEmpty, "which line the task became cannot be told")
    #expect(view.screen().last!.hasPrefix("(y/n) task 1 changed or went on disk while you edited"))
    #expect(view.todo.contains("Call mom back @phone\n"), "nothing written before the person says")
    view.press(.character("y"))
    #expect(view.todo.hasPrefix("(B) 2009-02-01 Call mom back @phone\n"), "the other program's version stays")
    #expect(view.todo.hasSuffix("(B) 2009-02-01 Call mom @phone tonight\n"), "the person's text is added")
  }

  @Test func anEditOfATaskThatOnlyMovedOnDiskGoesToItsNewPlace() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.down, .character("e"), .end)
    view.type(" and eggs")
    try view.writeFromOutside("2009-02-12 New first task\n" + ViewSessionTests.list)
    view.press(.enter)
    #expect(view.session.state == .list)
    #expect(view.todo.contains("\n2009-02-02 Buy milk +shop @store and eggs\n"))
    #expect(view.todo.hasPrefix("2009-02-12 New first task\n"))
  }

  @Test func dDeletesOnlyAfterYes() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("d"))
    #expect(view.screen().last!.hasPrefix("delete task 1 '(B) 2009-02-01 Call mom @phone'? (y/n)"))
    view.press(.character("n"))
    #expect(view.todo == ViewSessionTests.list)
    view.press(.character("d"), .character("y"))
    #expect(!view.todo.contains("Call mom"))
    #expect(view.todo.contains("Buy milk"))
  }

  @Test func pCyclesThePriorityAndPTakesALetterOrAWord() throws {
    let view = try ViewFixture(todo: "2009-02-01 Call mom\n")
    view.press(.character("p"))
    #expect(view.todo == "(A) 2009-02-01 Call mom\n")
    view.press(.character("p"))
    #expect(view.todo == "(B) 2009-02-01 Call mom\n")
    view.press(.character("p"), .character("p"))
    #expect(view.todo == "2009-02-01 Call mom\n")
    view.press(.character("P"))
    view.type("high", then: .enter)
    #expect(view.todo == "(A) 2009-02-01 Call mom\n")
    view.press(.character("P"))
    view.type("d", then: .enter)
    #expect(view.todo == "(D) 2009-02-01 Call mom\n")
    view.press(.character("P"))
    view.type("urgent!", then: .enter)
    #expect(view.todo == "(D) 2009-02-01 Call mom\n")
    #expect(view.session.messageIsError)
    #expect(view.session.message.contains("urgent!"))
  }

  @Test func tSetsTheDueDateFromDateWordsAndEmptyRemovesIt() throws {
    let view = try ViewFixture(todo: "2009-02-01 Call mom\n")
    view.press(.character("t"))
    view.type("tomorrow", then: .enter)
    #expect(view.todo == "2009-02-01 Call mom due:2009-02-14\n")
    view.press(.character("t"), .control("u"))
    view.type("next friday", then: .enter)
    #expect(view.todo == "2009-02-01 Call mom due:2009-02-20\n")
    view.press(.character("t"), .control("u"), .enter)
    #expect(view.todo == "2009-02-01 Call mom\n")
  }

  @Test func shiftJAndKMoveTheTaskInTheFile() throws {
    let view = try ViewFixture(todo: "a\nb\nc\n")
    view.press(.character("J"))
    #expect(view.todo == "b\na\nc\n")
    #expect(view.selectedLine == "a")
    view.press(.character("J"))
    #expect(view.todo == "b\nc\na\n")
    view.press(.character("J"))
    #expect(view.todo == "b\nc\na\n")
    #expect(view.session.message == "already the last task")
    view.press(.character("K"), .character("K"))
    #expect(view.todo == "a\nb\nc\n")
  }

  @Test func sCyclesTheOrder() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("s"))
    #expect(view.session.order == .priority)
    #expect(view.session.rows == [3, 0, 1])
    #expect(view.selectedLine == "(B) 2009-02-01 Call mom @phone", "the selection stays on its task")
    view.press(.character("s"))
    #expect(view.session.order == .due)
    #expect(view.session.rows.first == 3)
    for _ in 0..<4 { view.press(.character("s")) }
    #expect(view.session.order == .manual)
  }

  @Test func slashFiltersAsYouTypeAndEscapeClears() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type("/@sto")
    #expect(view.session.rows == [] || view.session.rows == [1])
    view.type("re")
    #expect(view.session.rows == [1])
    view.press(.enter)
    #expect(view.session.filterText == "@store")
    #expect(view.screen()[0].contains("filter: @store"))
    view.press(.escape)
    #expect(view.session.rows == [0, 1, 3])
    view.type("/pri:A or +shop", then: .enter)
    #expect(view.session.rows == [1, 3])
    view.type("/", then: .escape)
    #expect(view.session.rows == [0, 1, 3])
  }

  @Test func aHalfWrittenQueryKeepsTheRowsAndSaysWhy() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type("/(pri:A or")
    #expect(view.session.messageIsError)
    #expect(view.session.rows == [0, 1, 3])
  }

  @Test func vCyclesTheSavedViews() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list, environment: ["TODO_VIEW_calls": "@phone"])
    view.press(.character("v"))
    #expect(view.session.viewName == "calls")
    #expect(view.session.rows == [0])
    view.press(.character("v"))
    #expect(view.session.viewName == nil)
    #expect(view.session.rows == [0, 1, 3])
  }

  @Test func vWithoutViewsSaysHowToSaveOne() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("v"))
    #expect(view.session.messageIsError)
    #expect(view.session.message.contains("todo view --add"))
  }

  @Test func uUndoesAndCtrlRRedoes() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("x"))
    #expect(view.todo.hasPrefix("x 2009-02-13 (B)") || view.todo.hasPrefix("x 2009-02-13 2009-02-01 Call mom"))
    view.press(.character("u"))
    #expect(view.todo == ViewSessionTests.list)
    view.press(.control("r"))
    #expect(view.todo != ViewSessionTests.list)
    #expect(view.todo.contains("x 2009-02-13"))
  }

  @Test func anOutsideEditKeepsTheSelectionOnTheSameTask() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.down)
    #expect(view.selectedLine == "2009-02-02 Buy milk +shop @store")
    try view.writeFromOutside("2009-02-12 Added elsewhere\n2009-02-12 And another\n" + ViewSessionTests.list)
    #expect(view.session.reloadFromDisk())
    #expect(view.selectedLine == "2009-02-02 Buy milk +shop @store")
    #expect(view.session.message.contains("changed on disk"))
  }

  @Test func aCommandOnATaskChangedOnDiskIsRefusedNotAppliedToAnother() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    // The view has not read the change yet: its first row still says "Call mom".
    try view.writeFromOutside("2009-02-12 Something else entirely\n" + ViewSessionTests.list.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n")
    view.press(.character("x"))
    #expect(!view.todo.contains("x 2009-02-13 2009-02-12 Something else"))
    #expect(view.session.messageIsError)
  }

  @Test func enterOpensTheDetailsWithNoteDependenciesRecurrenceAndAttachments() throws {
    let view = try ViewFixture(todo: """
      2009-02-01 Plan trip id:trip rec:+1w due:2009-02-15 note:plan.txt att:map.png
      2009-02-02 Book hotel p:trip

      """)
    try FileManager.default.createDirectory(at: view.directory.appendingPathComponent("notes"), withIntermediateDirectories: true)
    try Data("Check the ferry times\nand the weather".utf8).write(to: view.directory.appendingPathComponent("notes/plan.txt"))
    view.press(.enter)
    let screen = view.screen(width: 80, height: 40).joined(separator: "\n")
    #expect(screen.contains("Due         2009-02-15 (in 2 days)"))
    #expect(screen.contains("Repeats     every 1w from the due date"))
    #expect(screen.contains("Next        2009-02-22, 2009-03-01, 2009-03-08"))
    #expect(screen.contains("Waited on by tasks 2"))
    #expect(screen.contains("Check the ferry times"))
    #expect(screen.contains("and the weather"))
    #expect(screen.contains("map.png"))
    view.press(.enter, .down, .enter)
    let second = view.screen(width: 120, height: 20).joined(separator: "\n")
    #expect(second.contains("Waits for   1"))
  }

  @Test func theMouseSelectsOpensAndScrolls() throws {
    let view = try ViewFixture(todo: (1...30).map { "task \($0)" }.joined(separator: "\n") + "\n")
    view.session.pageHeight = 10
    view.session.handle(.mouse(MouseEvent(kind: .press, row: 4, column: 5)), time: 1)
    #expect(view.selectedLine == "task 3")
    #expect(!view.session.showsDetails)
    view.session.handle(.mouse(MouseEvent(kind: .press, row: 4, column: 5)), time: 1.2)
    #expect(view.session.showsDetails, "a double click opens the details")
    view.session.handle(.mouse(MouseEvent(kind: .wheelDown, row: 4, column: 5)), time: 3)
    #expect(view.selectedLine == "task 6")
    view.session.handle(.mouse(MouseEvent(kind: .press, row: 40, column: 5)), time: 5)
    #expect(view.selectedLine == "task 6", "a click below the rows selects nothing")
  }

  @Test func pagingKeysMoveAScreenAndTheScreenFollowsTheSelection() throws {
    let view = try ViewFixture(todo: (1...100).map { "task \($0)" }.joined(separator: "\n") + "\n")
    view.session.pageHeight = 10
    view.press(.pageDown)
    #expect(view.selectedLine == "task 11")
    view.press(.character("G"))
    #expect(view.session.top == 90)
    #expect(view.screen(height: 12)[10].hasPrefix("> 100     task 100"))
    view.press(.pageUp)
    #expect(view.selectedLine == "task 90")
  }

  @Test func colonAndEAndOHandTheTerminalToACommand() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type(":", then: .character("l"), .character("s"), .enter)
    #expect(view.session.suspension == .commandLine("ls"))
    view.session.resume(after: nil)
    view.press(.character("E"))
    #expect(view.session.suspension == .run(words: ["edit", "1"], shown: [1: Array("(B) 2009-02-01 Call mom @phone".utf8)]))
    view.session.resume(after: nil)
    view.press(.character("o"))
    #expect(view.session.suspension == .run(words: ["open", "1"], shown: [1: Array("(B) 2009-02-01 Call mom @phone".utf8)]))
  }

  @Test func ctrlZStopsTheViewAndItComesBack() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.control("z"))
    #expect(view.session.suspension == .stop)
    #expect(!view.session.isFinished)
    view.session.resume(after: nil)
    #expect(view.session.suspension == nil)
    view.press(.character("j"))
    #expect(view.selectedLine == "2009-02-02 Buy milk +shop @store")
  }

  @Test func colonQLeavesAsInAnEditor() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.type(":q", then: .enter)
    #expect(view.session.isFinished)
    #expect(view.session.suspension == nil)
  }

  @Test func anUnboundKeySaysSoAndQuitEnds() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list)
    view.press(.character("Z"))
    #expect(view.session.messageIsError)
    #expect(view.session.message.hasPrefix("Z: no such key"))
    view.press(.character("?"))
    #expect(view.screen(height: 40).joined().contains("complete the task, or reopen a done one"))
    view.press(.character("q"))
    #expect(view.session.state == .list, "a key closes the help")
    #expect(!view.session.isFinished)
    view.press(.character("q"))
    #expect(view.session.isFinished)
  }

  @Test func keysCanBeReboundFromTheConfiguration() throws {
    let view = try ViewFixture(todo: ViewSessionTests.list, keys: "complete=c redo=ctrl-y")
    view.press(.character("c"))
    #expect(view.todo.contains("x 2009-02-13"))
    view.press(.character("u"), .control("y"))
    #expect(view.todo.contains("x 2009-02-13"))
  }
}

/// Rows made off the loop: the prompt answers at once, the rows follow, and an answer to a
/// request that was overtaken is dropped.
@Suite struct RowWorkerTests {
  @Test func aFilterTypedOnALargeListIsMadeByTheWorkerAndOnlyTheNewestCounts() throws {
    let tasks = (1...20_000).map { "2009-02-01 task \($0)" + ($0 % 1000 == 0 ? " +rare" : "") }
    let view = try ViewFixture(todo: tasks.joined(separator: "\n") + "\n")
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    defer {
      close(descriptors[0])
      close(descriptors[1])
    }
    view.session.worker = RowWorker(wakeUp: descriptors[1])
    view.type("/+ra")
    #expect(view.session.isWorking)
    guard case .prompt(.filter, let editor) = view.session.state else {
      Issue.record("no filter prompt")
      return
    }
    #expect(editor.text == "+ra", "every key reached the prompt without waiting for rows")
    view.type("re")
    var received = 0
    while view.session.isWorking {
      var byte: UInt8 = 0
      #expect(read(descriptors[0], &byte, 1) == 1)
      while let (request, rows) = view.session.worker!.take() {
        view.session.receive(rows, for: request)
        received += 1
      }
    }
    #expect(received >= 1)
    #expect(view.session.rows == (1...20).map { $0 * 1000 - 1 })
    #expect(view.selectedLine == "2009-02-01 task 1000 +rare")
  }
}

/// The screen's rows are exactly as wide as the window whatever the text: wide characters,
/// combining marks, right-to-left text, controls, invalid UTF-8.
@Suite struct ScreenRendererTests {
  @Test(arguments: [40, 41, 80, 300])
  func everyRowIsExactlyTheWindowsWidth(_ width: Int) throws {
    let view = try ViewFixture(todo: """
      2009-02-01 漢字の仕事をする 漢字の仕事をする 漢字の仕事をする 漢字の仕事をする +日本
      2009-02-02 Cafe\u{301} e\u{301}te\u{301} with combining marks and a long tail of words to cut
      2009-02-03 שלום עולם right to left text שלום עולם שלום עולם שלום עולם
      2009-02-04 Bell \u{07} escape \u{1B}[31m red \u{9B} C1

      """)
    for showsDetails in [false, true] {
      if showsDetails { view.press(.enter) }
      let frame = ScreenRenderer(settings: view.session.settings, today: view.session.today)
        .render(view.session, width: width, height: 20)
      for line in frame.lines {
        #expect(TerminalTextWidth.columns(line) == width, "\(String(decoding: line, as: UTF8.self))")
        #expect(!line.contains(0x07))
        #expect(!String(decoding: line, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
      }
    }
  }

  @Test func aCutLineEndsInAnEllipsisAndAWideCharacterNeverCrossesTheEdge() {
    let cut = ScreenRenderer.fit(Array("漢字漢字漢字".utf8), width: 5, colour: false)
    #expect(String(decoding: cut, as: UTF8.self) == "漢字…")
    let exact = ScreenRenderer.fit(Array("漢字".utf8), width: 4, colour: false)
    #expect(String(decoding: exact, as: UTF8.self) == "漢字")
    let odd = ScreenRenderer.fit(Array("a漢字".utf8), width: 4, colour: false)
    #expect(String(decoding: odd, as: UTF8.self) == "a漢…")
  }
}

/// What an attack on the view found, kept as tests: pastes, Alt, tiny windows.
@Suite struct ViewAttackTests {
  @Test func aPasteWithLineBreaksIsOneTaskNotKeys() throws {
    let view = try ViewFixture(todo: "one\ntwo\nthree\n")
    var decoder = KeyDecoder()
    let keys = decoder.feed(Array("a\u{1B}[200~buy milk\nxdy\u{1B}[201~".utf8) + [0x0D])
    #expect(keys == [.character("a"), .paste("buy milk\nxdy"), .enter])
    for key in keys { view.session.handle(key) }
    #expect(view.todo == "one\ntwo\nthree\n2009-02-13 buy milk xdy\n")
  }

  @Test func aKeyActsOnlyOnTheTaskDrawnSelected() throws {
    let view = try ViewFixture(todo: "alpha\nbeta\n")
    view.session.drew()
    // The selected task changes on disk and another comes first: the selection can no longer
    // follow its task and lands on one the person has not seen selected yet.
    try view.writeFromOutside("intruder\nalpha changed\nbeta\n")
    #expect(view.session.reloadFromDisk())
    #expect(view.selectedLine == "intruder")
    view.press(.character("x"))
    #expect(view.todo == "intruder\nalpha changed\nbeta\n")
    #expect(view.session.messageIsError)
    #expect(view.session.message.contains("look again"))
    view.session.drew()
    view.press(.character("x"))
    #expect(view.todo == "x 2009-02-13 intruder\nalpha changed\nbeta\n")
  }

  @Test func anEmptyReadWhileAWriterTruncatesKeepsTheList() throws {
    let view = try ViewFixture(todo: "alpha\nbeta\n")
    view.press(.down)
    try view.writeFromOutside("")
    #expect(!view.session.reloadFromDisk())
    try view.writeFromOutside("intruder\nalpha\nbeta\n")
    #expect(view.session.reloadFromDisk())
    #expect(view.selectedLine == "beta")
  }

  @Test func aPasteIntoTheListRunsNothing() throws {
    let view = try ViewFixture(todo: "one\n")
    view.press(.paste("xdy"))
    #expect(view.todo == "one\n")
    #expect(view.session.messageIsError)
  }

  @Test func altWithACharacterInAPromptKeepsTheTextAndRunsNothing() throws {
    let view = try ViewFixture(todo: "one\n")
    var decoder = KeyDecoder()
    view.type("afoo bar")
    for key in decoder.feed(Array("\u{1B}x".utf8)) { view.session.handle(key) }
    guard case .prompt(.add, let editor) = view.session.state else {
      Issue.record("the prompt closed")
      return
    }
    #expect(editor.text == "foo bar")
    #expect(view.todo == "one\n")
  }

  @Test(arguments: [(10, 3), (1, 1), (40, 4), (20, 2)])
  func theDetailsInATinyWindowDrawWithoutCrashing(_ size: (Int, Int)) throws {
    let view = try ViewFixture(todo: "one note:n.txt\ntwo\n")
    view.press(.enter)
    let frame = ScreenRenderer(settings: view.session.settings, today: view.session.today)
      .render(view.session, width: size.0, height: size.1)
    #expect(!frame.lines.isEmpty)
  }

  @Test func tabsInAPromptAreDrawnAsSpaces() throws {
    let view = try ViewFixture(todo: "a\tb\tc\n")
    view.press(.character("e"))
    let last = try #require(view.screen(width: 40, height: 10).last)
    #expect(last.count == 40)
    #expect(!last.contains("\t"))
  }
}

import Foundation
import Testing

/// `todo ui` in a real terminal (tmux): every key as a person presses it, what the screen
/// shows, what the files hold, and the terminal given back as it was on every way out.
@Suite(.serialized) struct FullScreenViewTests {
  static let list = """
    (B) 2009-02-01 Call mom @phone
    2009-02-02 Buy milk +shop @store
    x 2009-02-10 2009-02-03 File taxes
    (A) 2009-02-04 Water plants due:2009-02-14

    """

  func open(_ list: String = FullScreenViewTests.list, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:])
    throws -> (Sandbox, TmuxScreen)
  {
    let box = try Sandbox()
    try box.write("todo.txt", list)
    let screen = try TmuxScreen(box, columns: columns, rows: rows, environment: environment)
    try screen.waitFor("order: manual")
    return (box, screen)
  }

  @Test func qQuitsAndTheTerminalIsAsItWas() throws {
    let (box, screen) = try open()
    let shown = try screen.screen()
    #expect(shown[0].hasPrefix("todo · 3 of 4 · order: manual"))
    #expect(shown[1].hasPrefix("> 1 (B) 2009-02-01 Call mom @phone"))
    #expect(shown[3].hasPrefix("  4 (A) 2009-02-04 Water plants due:2009-02-14 (tomorrow)"))
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
    #expect(screen.terminalRestored)
    #expect(box.read("todo.txt") == FullScreenViewTests.list)
  }

  @Test func ctrlCQuitsAndSigtermRestoresTheTerminal() throws {
    let (_, first) = try open()
    try first.press("C-c")
    #expect(try first.exitStatus() == 0)
    #expect(first.terminalRestored)

    let (_, second) = try open()
    let pid = try #require(try second.viewProcess())
    kill(pid, SIGTERM)
    let status = try second.exitStatus()
    #expect(status == 128 + SIGTERM)
    #expect(second.terminalRestored)
    let after = try second.screen()
    #expect(!after.joined().contains("order: manual"), "the alternate screen was left")
  }

  /// Ctrl-Z in a shell with job control stops the view with the terminal given back (the
  /// shell sees a stopped job, 128 + SIGTSTP, and its settings as they were); without job
  /// control the view stays and answers keys.
  @Test func ctrlZStopsTheViewWithTheTerminalGivenBack() throws {
    let box = try Sandbox()
    try box.write("todo.txt", FullScreenViewTests.list)
    let screen = try TmuxScreen(box, jobControl: true)
    try screen.waitFor("order: manual")
    let pid = try #require(try screen.viewProcess())
    try screen.press("C-z")
    #expect(try screen.exitStatus() == 128 + SIGTSTP)
    #expect(screen.terminalRestored)
    let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    #expect(state.split(separator: ")").last?.split(separator: " ").first == "T", "\(state)")
    kill(pid, SIGKILL)

    let (_, plain) = try open()
    try plain.press("C-z")
    try plain.press("j")
    try plain.waitFor("> 2     2009-02-02 Buy milk")
    try plain.press("q")
    #expect(try plain.exitStatus() == 0)
    #expect(plain.terminalRestored)
  }

  @Test func movingCompletingAndUndoing() throws {
    let (box, screen) = try open()
    try screen.press("j", "Down")
    try screen.waitFor("> 4 (A)")
    try screen.press("k", "x")
    try screen.waitFor("marked as done")
    #expect(box.read("todo.txt").contains("x 2009-02-13 2009-02-02 Buy milk +shop @store\n"))
    try screen.press("u")
    try screen.waitUntil("the task back") { $0.joined(separator: "\n").contains("  2     2009-02-02 Buy milk") || $0.joined(separator: "\n").contains("> 2     2009-02-02 Buy milk") }
    #expect(box.read("todo.txt") == FullScreenViewTests.list)
    try screen.press("C-r")
    try screen.waitUntil("the redo") { _ in box.read("todo.txt").contains("x 2009-02-13 2009-02-02 Buy milk") }
    try screen.press("Tab")
    try screen.waitFor("done shown")
    try screen.waitFor("x   2009-02-10 File taxes")
    try screen.press("g", "G")
    try screen.waitFor("> 4 (A)")
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
  }

  @Test func addingEditingAndDeletingAtThePrompt() throws {
    let (box, screen) = try open()
    try screen.press("a")
    try screen.waitFor("add:")
    try screen.type("Get bread +sh")
    try screen.press("Tab")
    try screen.waitFor("add: Get bread +shop")
    try screen.press("Enter")
    try screen.waitFor("> 5     2009-02-13 Get bread +shop")
    #expect(box.read("todo.txt").hasSuffix("2009-02-13 Get bread +shop\n"))
    try screen.press("e", "End")
    try screen.type(" and butter")
    try screen.press("Enter")
    try screen.waitFor("Get bread +shop and butter")
    try screen.press("d")
    try screen.waitFor("? (y/n)")
    try screen.press("n")
    try screen.waitFor("nothing deleted")
    try screen.press("d", "y")
    try screen.waitUntil("the task deleted") { _ in !box.read("todo.txt").contains("Get bread") }
    try screen.press("q")
  }

  @Test func priorityDueDateAndOrder() throws {
    let (box, screen) = try open("2009-02-01 Call mom\n2009-02-02 Buy milk\n")
    try screen.press("p")
    try screen.waitFor("> 1 (A) 2009-02-01 Call mom")
    try screen.press("P")
    try screen.type("low")
    try screen.press("Enter")
    try screen.waitFor("> 1 (C) 2009-02-01 Call mom")
    try screen.press("t")
    try screen.type("tomorrow")
    try screen.press("Enter")
    try screen.waitFor("due:2009-02-14 (tomorrow)")
    #expect(box.read("todo.txt") == "(C) 2009-02-01 Call mom due:2009-02-14\n2009-02-02 Buy milk\n")
    try screen.press("J")
    try screen.waitUntil("the move") { _ in box.read("todo.txt").hasPrefix("2009-02-02 Buy milk\n") }
    try screen.press("K")
    try screen.waitUntil("the move back") { _ in box.read("todo.txt").hasPrefix("(C) 2009-02-01 Call mom") }
    try screen.press("s")
    try screen.waitFor("order: priority")
    try screen.press("q")
  }

  @Test func filteringAsYouTypeAndClearing() throws {
    let (_, screen) = try open()
    try screen.press("/")
    try screen.type("@store")
    let filtered = try screen.waitFor("1 of 4")
    #expect(filtered.contains { $0.contains("Buy milk") })
    #expect(!filtered.contains { $0.contains("Call mom") })
    try screen.press("Escape")
    try screen.waitFor("3 of 4")
    try screen.press("q")
  }

  @Test func theDetailsShowTheNoteAndTheHelpListsTheKeys() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "2009-02-01 Plan trip id:trip note:plan.txt\n2009-02-02 Book hotel p:trip\n")
    try box.write("notes/plan.txt", "Check the ferry times\n")
    let screen = try TmuxScreen(box, columns: 120, rows: 24)
    try screen.waitFor("order: manual")
    try screen.press("Enter")
    try screen.waitFor("Check the ferry times")
    try screen.waitFor("Waited on by tasks 2")
    try screen.press("Enter", "?")
    try screen.waitFor("cycle the priority")
    try screen.press("q", "q")
    #expect(try screen.exitStatus() == 0)
  }

  @Test func anOutsideChangeAppearsAndTheSelectionStays() throws {
    let (box, screen) = try open()
    try screen.press("j")
    try screen.waitFor("> 2     2009-02-02 Buy milk")
    // Another program adds two tasks at the top while the view is open.
    try box.write("new.txt", "2009-02-12 First\n2009-02-12 Second\n" + box.read("todo.txt"))
    #expect(rename(box.path("new.txt"), box.path("todo.txt")) == 0)
    try screen.waitFor("changed on disk")
    try screen.waitFor("> 4     2009-02-02 Buy milk")
    try box.todo("add", "From another window")
    try screen.waitFor("From another window")
    try screen.press("q")
  }

  @Test func aResizeRedrawsAndFortyColumnsFit() throws {
    let (_, screen) = try open(columns: 100, rows: 20)
    try screen.resize(columns: 40, rows: 12)
    let narrow = try screen.waitUntil("a 40-column screen") { $0.first?.hasSuffix("? keys") == true && $0.first!.count <= 40 }
    #expect(narrow.allSatisfy { $0.count <= 40 })
    #expect(narrow.contains { $0.hasPrefix("> 1 (B) 2009-02-01 Call mom") })
    #expect(narrow.contains { $0.hasPrefix("  4 (A) 2009-02-04 Water plants") && $0.hasSuffix("…") && $0.count == 40 })
    try screen.press("Enter")
    try screen.waitFor("Status      open")
    try screen.resize(columns: 100, rows: 20)
    try screen.waitUntil("a wide screen") { $0.first.map { $0.count > 60 } ?? false }
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
  }

  @Test func noColorDrawsNoColours() throws {
    let (_, colourful) = try open()
    let coloured = try colourful.screen(colours: true).joined()
    #expect(coloured.contains("\u{1B}["))
    try colourful.press("q")
    let (_, plain) = try open(environment: ["NO_COLOR": "1"])
    let shown = try plain.screen(colours: true).joined()
    #expect(!shown.contains("\u{1B}["), "no colour, no reverse video")
    #expect(shown.contains("> 1 (B)"), "the selection is still marked")
    try plain.press("q")
  }

  @Test func controlCharactersInTasksAreShownNotObeyed() throws {
    let (_, screen) = try open("Evil \u{1B}]0;title\u{07} \u{1B}[2J task\n")
    let shown = try screen.screen()
    #expect(shown[1].contains("Evil ^[]0;title^G ^[[2J task"))
    try screen.press("q")
  }

  @Test func aCommandLineRunsAsInTheShellAndTheEditorEditsTheTask() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "2009-02-01 Call mom\n")
    try box.write("bin/fake-editor", "#!/bin/sh\nsed -i 's/Call mom/Call mom and dad/' \"$1\"\n")
    chmod(box.path("bin/fake-editor"), 0o755)
    let screen = try TmuxScreen(box, environment: ["EDITOR": box.path("bin/fake-editor"), "VISUAL": ""])
    try screen.waitFor("order: manual")
    try screen.press(":")
    try screen.type("add Second task")
    try screen.press("Enter")
    try screen.waitFor("press Enter to return")
    try screen.press("Enter")
    try screen.waitFor("2009-02-13 Second task")
    try screen.press("g", "E")
    try screen.waitFor("Call mom and dad")
    #expect(box.read("todo.txt").hasPrefix("2009-02-01 Call mom and dad\n"))
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
    #expect(screen.terminalRestored)
  }

  @Test func pagingSavedViewsAndOpening() throws {
    let box = try Sandbox()
    try box.write("todo.txt", (1...60).map { "2009-02-01 task \($0)" + ($0 == 42 ? " @phone att:ticket.pdf" : "") }.joined(separator: "\n") + "\n")
    try box.write("attachments/ticket.pdf", "%PDF")
    try box.write("bin/fake-opener", "#!/bin/sh\necho \"$1\" > opened.txt\n")
    chmod(box.path("bin/fake-opener"), 0o755)
    let screen = try TmuxScreen(
      box, columns: 80, rows: 12, environment: ["TODO_VIEW_calls": "@phone", "TODO_OPEN": box.path("bin/fake-opener")])
    try screen.waitFor("order: manual")
    try screen.press("PageDown")
    try screen.waitFor("> 11     2009-02-01 task 11")
    try screen.press("PageUp")
    try screen.waitFor(">  1     2009-02-01 task 1")
    try screen.press("v")
    try screen.waitFor("view: calls")
    try screen.waitFor("> 42     2009-02-01 task 42 @phone")
    try screen.press("o")
    try screen.waitUntil("the opener to run") { _ in box.read("opened.txt").hasSuffix("attachments/ticket.pdf\n") }
    try screen.waitFor("view: calls")
    try screen.press("v")
    try screen.waitFor("60 of 60")
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
  }

  @Test func aCrashGivesTheTerminalBack() throws {
    let (_, screen) = try open()
    let pid = try #require(try screen.viewProcess())
    kill(pid, SIGSEGV)
    #expect(try screen.exitStatus() == 128 + SIGSEGV)
    #expect(screen.terminalRestored)
  }

  @Test func todoWithoutAnActionOpensTheViewWithTodoUI() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "2009-02-01 Call mom\n")
    let screen = try TmuxScreen(box, [], environment: ["TODO_UI": "1"])
    try screen.waitFor("order: manual")
    try screen.press("q")
    #expect(try screen.exitStatus() == 0)
  }

  @Test func aBadKeyBindingStopsTheViewWithOneLine() throws {
    let box = try Sandbox()
    let screen = try TmuxScreen(box, environment: ["TODO_UI_KEYS": "complete=c fly=z"])
    #expect(try screen.exitStatus() == 1)
    #expect(screen.terminalRestored)
    let shown = try screen.screen().joined(separator: "\n")
    #expect(shown.contains("TODO_UI_KEYS: 'fly=z': no action 'fly'"))
  }

  @Test func withoutATerminalUiSaysSo() throws {
    let box = try Sandbox()
    let run = try box.todo("ui")
    #expect(run.status == 1)
    #expect(run.stderr == "todo: ui needs a terminal for input and output\n")
  }

}

/// Pictures attached to a task, drawn in the details pane with characters (what a terminal
/// without a graphics protocol shows), through the store's attachments folder.
@Suite(.serialized) struct FullScreenViewPictureTests {
  static let picture = try! Data(
    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/red-over-blue.png"))

  func open(environment: [String: String]) throws -> (Sandbox, TmuxScreen) {
    let box = try Sandbox()
    try box.write("todo.txt", "2009-02-01 Fix the bike att:bike.png\n2009-02-02 Broken picture att:bad.png\n")
    try box.write("attachments/bike.png", bytes: [UInt8](FullScreenViewPictureTests.picture))
    try box.write("attachments/bad.png", "\u{89}PNG\r\n\u{1A}\nnot really")
    let screen = try TmuxScreen(box, columns: 120, rows: 30, environment: environment)
    try screen.waitFor("order: manual")
    return (box, screen)
  }

  @Test func aPictureIsDrawnInColouredHalfBlocks() throws {
    let (_, screen) = try open(environment: ["TODO_UI_IMAGES": "symbols", "COLORTERM": "truecolor"])
    try screen.press("Enter")
    let shown = try screen.waitFor("▀")
    #expect(shown.filter { $0.contains("▀") }.count >= 2)
    let coloured = try screen.screen(colours: true).joined(separator: "\n")
    // Red above blue: the top half of each block red, the bottom half blue.
    #expect(coloured.contains("38;2;255;0;0"))
    #expect(coloured.contains("48;2;0;0;255") || coloured.contains("38;2;0;0;255"))
    try screen.press("j")
    try screen.waitFor("(picture: bad.png")
    try screen.press("q")
  }

  @Test func withoutColoursAPictureIsShadesOfGrey() throws {
    let (_, screen) = try open(environment: ["TODO_UI_IMAGES": "symbols", "NO_COLOR": "1"])
    try screen.press("Enter")
    let shown = try screen.waitUntil("shade characters") { $0.joined().contains { "░▒▓█".contains($0) } }
    #expect(!shown.joined().contains("▀"))
    let raw = try screen.screen(colours: true).joined()
    #expect(!raw.contains("\u{1B}["))
    try screen.press("q")
  }

  @Test func aBadImageSettingStopsTheViewNamingIt() throws {
    let box = try Sandbox()
    let screen = try TmuxScreen(box, environment: ["TODO_UI_IMAGES": "pictures"])
    #expect(try screen.exitStatus() == 1)
    #expect(screen.terminalRestored)
    let shown = try screen.screen().joined(separator: "\n")
    #expect(shown.contains("TODO_UI_IMAGES"))
    #expect(shown.contains("pictures"))
  }
}

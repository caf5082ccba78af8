import Foundation
import Testing

/// `high`, `medium` and `low` name the priorities A, B and C wherever a priority is taken
/// under the name todo, and completion and help offer them; todo.sh's name keeps its letters.
@Suite struct PriorityWordsTests {
  static let list = "call mom\npay rent\nfix sink\n"

  @Test func priTakesWordsAndNamesAWrongOne() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PriorityWordsTests.list)
    #expect(try box.todo("pri", "1", "High", "2", "med", "3", "l").status == 0)
    #expect(box.read("todo.txt") == "(A) call mom\n(B) pay rent\n(C) fix sink\n")
    let wrong = try box.todo("pri", "1", "hi")
    #expect(wrong.status == 1)
    #expect(wrong.stderr == "todo: 'hi' is not a priority: a letter from A to Z, or high, medium or low (h, m, l)\n")
    let missing = try box.todo("pri", "1")
    #expect(
      missing.stderr
        == "usage: todo pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY is a letter from A to Z, or high, medium or low (h, m, l).\n")
    #expect(box.read("todo.txt") == "(A) call mom\n(B) pay rent\n(C) fix sink\n")
  }

  @Test func listpriQueriesTagAndImportTakeWords() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) call mom\n(B) pay rent\n(C) fix sink\n(D) high hopes\n")
    #expect(try box.todo("lsp", "high").stdout == "1 (A) call mom\n")
    #expect(try box.todo("lsp", "high-medium").stdout == "1 (A) call mom\n2 (B) pay rent\n")
    #expect(try box.todo("ls", "-q", "pri:low").stdout == "3 (C) fix sink\n")
    // A single letter is the letter, in a query as in todo.sh's lsp.
    #expect(try box.todo("lsp", "d").stdout == "4 (D) high hopes\n")
    #expect(try box.todo("tag", "4", "pri", "medium").status == 0)
    let imported = try box.todo("import", input: #"{"text": "book flights", "priority": "High"}"# + "\n")
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(box.read("todo.txt") == "(A) call mom\n(B) pay rent\n(C) fix sink\n(D) high hopes pri:B\n(A) 2009-02-13 book flights\n")
  }

  @Test func completionAndHelpOfferTheWords() throws {
    let box = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box, "todo pri 1 ").suffix(3) == ["high", "medium", "low"])
    #expect(try CompletionTests.bash(box, "todo pri 1 me") == ["medium"])
    #expect(try CompletionTests.bash(box, "todo tag 1 pri h") == ["high"])
    #expect(try CompletionTests.bash(box, "todo lsp lo") == ["low"])
    #expect(try box.todo("help", "lsp").stdout.contains("PRIORITIES may also be high, medium or low"))
    #expect(try box.todo("lsp", "--help").stdout.contains("PRIORITIES may also be high, medium or low"))
  }

  /// Under the name todo.sh a priority is a letter: the words are refused with todo.sh's usage,
  /// and its help says nothing of them.
  @Test func todoShKeepsItsLetters() throws {
    let box = try Sandbox()
    try box.write("todo.txt", PriorityWordsTests.list)
    let run = try box.sh("pri", "1", "high")
    #expect(run.status == 1)
    #expect(run.stderr == "usage: todo.sh pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z.\n")
    #expect(box.read("todo.txt") == PriorityWordsTests.list)
    #expect(!(try box.sh("help", "lsp").stdout.contains("high")))
  }
}

import Testing
import TodoTxt

/// Each edit rewrites only the bytes it names: the expected lines below differ from the
/// input in the edited field and nowhere else.
@Suite("Task editing")
struct TaskEditingTests {
  /// Applies `edit` to `line` and returns the resulting line.
  private func edited(_ line: String, _ edit: (inout Task) -> Void) -> String {
    var task = Task(parsing: line)
    edit(&task)
    return task.line
  }

  @Test(
    "setPriority inserts, replaces or removes the priority where it stands",
    arguments: [
      ("foo", "A", "(A) foo"),
      ("2020-01-01 foo", "A", "(A) 2020-01-01 foo"),
      ("(A) foo", "B", "(B) foo"),
      ("(A) foo", nil, "foo"),
      ("(A)  two spaces", nil, " two spaces"),
      ("foo", nil, "foo"),
      ("x (A) 2020-01-05 foo", "B", "x (B) 2020-01-05 foo"),
      ("x (A) 2020-01-05 foo", nil, "x 2020-01-05 foo"),
      ("x 2020-01-05 (A) foo", "C", "x 2020-01-05 (C) foo"),
      ("x 2020-01-05 (A) foo", nil, "x 2020-01-05 foo"),
      ("x 2020-01-05 foo", "B", "x 2020-01-05 foo pri:B"),
      ("x 2020-01-05 foo pri:A", "B", "x 2020-01-05 foo pri:B"),
      ("x 2020-01-05 foo pri:A", nil, "x 2020-01-05 foo"),
    ] as [(String, String?, String)])
  func setPriority(_ line: String, _ letter: String?, _ expected: String) {
    let result = edited(line) { $0.setPriority(letter.flatMap { Priority($0) }) }
    #expect(result == expected)
  }

  @Test(
    "complete puts x and the date in front and nothing else moves",
    arguments: [
      ("foo +p", "x 2026-01-05 foo +p"),
      ("2026-01-01 foo", "x 2026-01-05 2026-01-01 foo"),
      ("(B) 2026-01-01 foo", "x 2026-01-05 2026-01-01 foo pri:B"),
      ("(B) foo  ", "x 2026-01-05 foo   pri:B"),
      ("(A) 2026-01-01", "x 2026-01-05 2026-01-01 pri:A"),
      ("x 2020-01-01 already", "x 2020-01-01 already"),
    ])
  func complete(_ line: String, _ expected: String) {
    let task = Task(parsing: edited(line) { $0.complete(on: day("2026-01-05")) })
    #expect(task.line == expected)
    #expect(task.isCompleted)
  }

  @Test(
    "reopen removes x and the completion date and restores the priority",
    arguments: [
      ("x 2026-01-05 2026-01-01 foo", "2026-01-01 foo"),
      ("x 2026-01-05 2026-01-01", "2026-01-01"),
      ("x 2026-01-05 foo", "foo"),
      ("x done", "done"),
      ("x 2026-01-05 foo pri:B bar", "(B) foo bar"),
      ("x (C) foo", "(C) foo"),
      ("open task", "open task"),
    ])
  func reopen(_ line: String, _ expected: String) {
    let result = edited(line) { $0.reopen() }
    #expect(result == expected)
  }

  @Test("complete then reopen gives back the line")
  func completeReopen() {
    for line in ["(A) 2026-01-01 call +mom @phone due:2026-01-09", "plain", "(Z) last"] {
      var task = Task(parsing: line)
      task.complete(on: day("2026-01-05"))
      task.reopen()
      #expect(task.line == line)
    }
  }

  @Test(
    "setTag changes the first value in place or appends the tag",
    arguments: [
      ("a due:2026-01-01 b", "a due:2026-02-02 b"),
      ("a due:x b due:y", "a due:2026-02-02 b due:y"),
      ("a", "a due:2026-02-02"),
      ("a\t", "a\tdue:2026-02-02"),
      ("", "due:2026-02-02"),
      ("a Due:1", "a Due:1 due:2026-02-02"),
    ])
  func setTag(_ line: String, _ expected: String) {
    let result = edited(line) { $0.setTag("due", "2026-02-02") }
    #expect(result == expected)
  }

  @Test(
    "removeTag removes every such tag with one run of whitespace",
    arguments: [
      ("a due:x b", "a b"),
      ("(A) due:x b", "(A) b"),
      ("a  due:x", "a"),
      ("a k:1 b k:2", "a b"),
      ("due:x", ""),
    ])
  func removeTag(_ line: String, _ expected: String) {
    var task = Task(parsing: line)
    let removed = task.removeTag(line.contains("k:") ? "k" : "due")
    #expect(removed)
    #expect(task.line == expected)
  }

  @Test("removeTag reports when there was nothing to remove")
  func removeMissingTag() {
    var task = Task(parsing: "a b:c")
    let removed = task.removeTag("due")
    #expect(!removed)
    #expect(task.line == "a b:c")
  }

  @Test(
    "appendText adds one space unless the line is empty or ends in whitespace",
    arguments: [("foo", "foo bar"), ("", "bar"), ("foo ", "foo bar"), ("(A) 2026-01-01", "(A) 2026-01-01 bar")])
  func appendText(_ line: String, _ expected: String) {
    let result = edited(line) { $0.appendText("bar") }
    #expect(result == expected)
  }

  @Test(
    "prependText goes after the head and never runs into a date",
    arguments: [
      ("(A) 2026-01-01 foo", "(A) 2026-01-01 bar foo"),
      ("(A) 2026-01-01", "(A) 2026-01-01 bar"),
      ("x 2026-01-05", "x 2026-01-05 bar"),
      ("x 2026-01-05 2026-01-01 foo", "x 2026-01-05 2026-01-01 bar foo"),
      ("(A) ", "(A) bar"),
      ("", "bar"),
      ("foo", "bar foo"),
    ])
  func prependText(_ line: String, _ expected: String) {
    let result = edited(line) { $0.prependText("bar") }
    #expect(result == expected)
  }

  @Test(
    "replaceBody keeps the head",
    arguments: [
      ("(A) 2026-01-01 old text", "(A) 2026-01-01 new"),
      ("(A) 2026-01-01", "(A) 2026-01-01 new"),
      ("x 2026-01-05 old", "x 2026-01-05 new"),
      ("old", "new"),
    ])
  func replaceBody(_ line: String, _ expected: String) {
    let result = edited(line) { $0.replaceBody("new") }
    #expect(result == expected)
  }

  @Test(
    "setCreationDate puts the date where the head keeps it",
    arguments: [
      ("(A) foo", "(A) 2026-01-02 foo"),
      ("foo", "2026-01-02 foo"),
      ("", "2026-01-02"),
      ("(A) ", "(A) 2026-01-02"),
      ("(A) 2020-01-01 foo", "(A) 2026-01-02 foo"),
      ("x 2026-01-05 foo", "x 2026-01-05 2026-01-02 foo"),
      ("x 2026-01-05", "x 2026-01-05 2026-01-02"),
      ("x 2026-01-05 2020-01-01", "x 2026-01-05 2026-01-02"),
      ("x (A) 2026-01-05 foo", "x (A) 2026-01-05 2026-01-02 foo"),
      ("x 2026-01-05 (A) foo", "x 2026-01-05 (A) 2026-01-02 foo"),
      // With no completion date a lone date would read as one, so nothing changes.
      ("x foo", "x foo"),
    ])
  func setCreationDate(_ line: String, _ expected: String) {
    let task = Task(parsing: edited(line) { $0.setCreationDate(day("2026-01-02")) })
    #expect(task.line == expected)
    if line != "x foo" { #expect(task.creationDate == day("2026-01-02")) }
  }

  @Test(
    "setCreationDate(nil) removes the date and its space",
    arguments: [
      ("(A) 2020-01-01 foo", "(A) foo"),
      ("2020-01-01 foo", "foo"),
      ("x 2026-01-05 2020-01-01 foo", "x 2026-01-05 foo"),
    ])
  func removeCreationDate(_ line: String, _ expected: String) {
    let result = edited(line) { $0.setCreationDate(nil) }
    #expect(result == expected)
  }
}

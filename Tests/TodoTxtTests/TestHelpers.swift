import Testing
import TodoTxt

/// A date written out in a test. Expected dates are never 0001-01-01, so a typo here shows
/// up as a failed expectation rather than a crash.
func day(_ text: String) -> TaskDate { TaskDate(text) ?? .earliest }

/// The bytes of a string, for building files and comparing lines.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The expected reading of a line's head and body.
struct Reading: Sendable, CustomTestStringConvertible {
  var line: String
  var completed = false
  var completion: String?
  var creation: String?
  var priority: String?
  var body: String

  var testDescription: String { "\"\(line)\"" }

  /// Checks `task` against this reading.
  func check(_ task: Task, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(task.isCompleted == completed, sourceLocation: sourceLocation)
    #expect(task.completionDate == completion.map(day), sourceLocation: sourceLocation)
    #expect(task.creationDate == creation.map(day), sourceLocation: sourceLocation)
    #expect(task.priority == priority.flatMap { Priority($0) }, sourceLocation: sourceLocation)
    #expect(task.text == body, sourceLocation: sourceLocation)
    #expect(task.line == line, sourceLocation: sourceLocation)
  }
}

/// Swift Testing has a `Tag` of its own; in these tests the word means a todo.txt tag.
typealias Tag = TodoTxt.Tag

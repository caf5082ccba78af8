import Testing
import TodoTxt

@Suite("TodoList")
struct TodoListTests {
  private func appending(_ text: String, _ line: String = "new") -> String {
    var list = TodoList(parsing: text)
    list.append(Task(parsing: line))
    return list.text
  }

  @Test(
    "append never joins lines and uses the file's line ending",
    arguments: [
      ("a\nb", "a\nb\nnew\n"), ("a\nb\n", "a\nb\nnew\n"), ("a\r\nb", "a\r\nb\r\nnew\r\n"),
      ("a\r\nb\r\n", "a\r\nb\r\nnew\r\n"), ("a\r\nb\r\nc\n", "a\r\nb\r\nc\nnew\r\n"),
      // Equal counts fall back to LF.
      ("a\r\nb\n", "a\r\nb\nnew\n"), ("", "new\n"), ("only", "only\nnew\n"), ("\n", "\nnew\n"),
    ])
  func append(_ text: String, _ expected: String) {
    #expect(appending(text) == expected)
  }

  @Test("append returns the new task number and the file's mark stays in front")
  func appendNumber() {
    var list = TodoList(bytes: TodoList.byteOrderMark)
    #expect(list.isEmpty)
    #expect(list.append(Task(parsing: "one")) == 1)
    #expect(list.append(Task(parsing: "two")) == 2)
    #expect(list.serialized() == TodoList.byteOrderMark + utf8("one\ntwo\n"))
  }

  @Test("insert places a line before the given index with the preferred ending")
  func insert() {
    var list = TodoList(parsing: "a\r\nc\r\n")
    list.insert(Task(parsing: "b"), at: 1)
    list.insert(Task(parsing: "0"), at: 0)
    #expect(list.text == "0\r\na\r\nb\r\nc\r\n")
  }

  @Test(
    "remove keeps a missing final newline",
    arguments: [
      ("a\nb\nc", 2, "c", "a\nb"), ("a\nb\nc", 1, "b", "a\nc"), ("a\nb\nc", 0, "a", "b\nc"),
      ("a\nb\n", 1, "b", "a\n"), ("a\r\nb", 1, "b", "a"), ("a\r\nb", 0, "a", "b"), ("a", 0, "a", ""),
    ])
  func remove(_ text: String, _ index: Int, _ removedLine: String, _ expected: String) {
    var list = TodoList(parsing: text)
    let removed = list.remove(at: index)
    #expect(removed.line == removedLine)
    #expect(list.text == expected)
  }

  @Test(
    "removeAll keeps a missing final newline",
    arguments: [
      ("a\nb\nc", "c", "a\nb"), ("a\nb\nc", "b", "a\nc"), ("a\nb\nc\n", "c", "a\nb\n"), ("a\nb", "ab", ""),
      ("x 1\na\r\nx 2", "x", "a"),
    ])
  func removeAll(_ text: String, _ letters: String, _ expected: String) {
    var list = TodoList(parsing: text)
    list.removeAll { task in letters.contains(where: { task.line.hasPrefix(String($0)) }) }
    #expect(list.text == expected)
  }

  @Test("move keeps each line's text and the file's final newline or lack of it")
  func move() {
    var noFinal = TodoList(parsing: "a\nb\nc")
    noFinal.move(from: 0, to: 2)
    #expect(noFinal.text == "b\nc\na")
    var final = TodoList(parsing: "a\nb\nc\n")
    final.move(from: 2, to: 0)
    #expect(final.text == "c\na\nb\n")
  }

  @Test("replace keeps the line's own ending")
  func replace() {
    var list = TodoList(parsing: "a\r\nb\nc")
    let results = [
      list.replace(number: 1, with: Task(parsing: "A")), list.replace(number: 3, with: Task(parsing: "C")),
      list.replace(number: 4, with: Task(parsing: "D")), list.replace(number: 0, with: Task(parsing: "D")),
    ]
    #expect(results == [true, true, false, false])
    #expect(list.text == "A\r\nb\nC")
  }

  @Test("a line read from a list has the same tags and edits as the line parsed alone")
  func tagsOfListLines() {
    let list = TodoList(parsing: "first line +p\nsecond due:2026-01-02 k:v due:x\n")
    let line = "second due:2026-01-02 k:v due:x"
    #expect(list[1].tags == Task(parsing: line).tags)
    #expect(
      list[1].tags == [Tag(key: "due", value: "2026-01-02"), Tag(key: "k", value: "v"), Tag(key: "due", value: "x")])
    #expect(list[1].dueDate == day("2026-01-02"))
    var task = list[1]
    task.removeTag("due")
    task.setTag("k", "w")
    #expect(task.line == "second k:w")
  }

  @Test("task numbers are 1-based line numbers")
  func numbers() {
    let list = TodoList(parsing: "a\n\nc\n")
    #expect(list.task(number: 0) == nil)
    #expect(list.task(number: 1)?.line == "a")
    #expect(list.task(number: 2)?.isBlank == true)
    #expect(list.task(number: 3)?.line == "c")
    #expect(list.task(number: 4) == nil)
  }

  @Test("changes() reports what became of every line read")
  func changes() {
    var list = TodoList(parsing: "a\nb\nc\nd\n")
    #expect(list.changes() == (0..<4).map { .keep(original: $0, current: $0) })
    list.replace(at: 1, with: Task(parsing: "B"))
    list.remove(at: 2)
    list.append(Task(parsing: "e"))
    #expect(
      list.changes() == [
        .keep(original: 0, current: 0), .replace(original: 1, current: 1), .keep(original: 3, current: 2),
        .insert(current: 3), .delete(original: 2),
      ])
  }

  @Test("changes() counts a moved line as deleted and inserted")
  func changesAfterMove() {
    var list = TodoList(parsing: "a\nb\nc\n")
    list.move(from: 2, to: 0)
    #expect(
      list.changes() == [
        .insert(current: 0), .keep(original: 0, current: 1), .keep(original: 1, current: 2), .delete(original: 2),
      ])
  }

  @Test("changes() reports a line whose ending changed as replaced")
  func changesOfEnding() {
    var list = TodoList(parsing: "a\nb")
    list.remove(at: 1)
    #expect(list.changes() == [.replace(original: 0, current: 0), .delete(original: 1)])
    var appended = TodoList(parsing: "a\nb")
    appended.append(Task(parsing: "c"))
    #expect(
      appended.changes() == [.keep(original: 0, current: 0), .replace(original: 1, current: 1), .insert(current: 2)])
  }

  /// A list assembled from runs of a list's lines and new lines: written as the lines say,
  /// a line without an ending given one when a line follows it, the byte order mark kept,
  /// and its changes from the list read as those runs (kept lines are the list's own).
  @Test("assembled lists keep their runs, end every line but the last, and know their changes")
  func assembled() {
    let base = TodoList(bytes: Array("\u{FEFF}a\r\nb\nc".utf8))
    let list = base.assembled { lines in
      lines.keep(0..<1)
      lines.add(Array("new".utf8), ending: .lf)
      lines.keep(2..<3)
      lines.add(Array("end".utf8), ending: .none)
    }
    // c had no ending and gets the file's preferred one (LF and CRLF tie: LF).
    #expect(list.serialized() == Array("\u{FEFF}a\r\nnew\nc\nend".utf8))
    #expect(list.count == 4 && list.originalCount == 3)
    #expect(list.changes(from: base).count > 0)
    #expect(base.assembled { $0.keep(0..<base.count) }.serialized() == base.serialized())
    let empty = TodoList(bytes: [])
    #expect(empty.assembled { $0.add(Array("only".utf8), ending: .none) }.serialized() == Array("only".utf8))
  }
}

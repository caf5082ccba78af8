import Foundation
import Testing

/// Every message `import` gives for an object it cannot take, word for word: one line on
/// standard error, exit status 1, and the list as it was. The messages name the member and
/// what it should hold, so that a script writing objects by hand can be fixed from them.
@Suite struct ImportMessageTests {
  static let refusedCases: [(json: String, message: String)] = [
    (#"5"#, #"task 1: expected an object"#),
    (#""text""#, #"task 1: expected an object"#),
    (#"[1]"#, #"task 1: expected an object"#),
    (#"{"text":"a"} 7"#, #"task 2: expected an object"#),
    (#"{}"#, #"task 1: needs "text" (a string)"#),
    (#"{"text":null}"#, #"task 1: needs "text" (a string)"#),
    (#"{"text":3}"#, #"task 1: needs "text" (a string)"#),
    (#"{"text":["a"]}"#, #"task 1: needs "text" (a string)"#),
    (#"{"text":"   "}"#, #"task 1: "text" is empty"#),
    (#"{"text":"a","done":"yes"}"#, #"task 1: "done" should be true or false"#),
    (#"{"text":"a","done":1}"#, #"task 1: "done" should be true or false"#),
    (#"{"text":"a","priority":1}"#, #"task 1: "priority" should be a string or null"#),
    (#"{"text":"a","priority":"AA"}"#, #"task 1: "priority" should be a letter A to Z, or high, medium or low"#),
    (#"{"text":"a","created":1}"#, #"task 1: "created" should be a string or null"#),
    (#"{"text":"a","completed":[]}"#, #"task 1: "completed" should be a string or null"#),
    (#"{"text":"a","due":{}}"#, #"task 1: "due" should be a string or null"#),
    (#"{"text":"a","threshold":true}"#, #"task 1: "threshold" should be a string or null"#),
    (#"{"text":"a","due":"bogus"}"#, #"task 1: "due" is not a date: bogus"#),
    (#"{"text":"a","created":"2009-02-30"}"#, #"task 1: "created" is not a date: 2009-02-30"#),
    (#"{"text":"a","projects":"x"}"#, #"task 1: "projects" should be an array of strings"#),
    (#"{"text":"a","projects":[1]}"#, #"task 1: "projects" should hold strings"#),
    (#"{"text":"a","projects":["ok",null]}"#, #"task 1: "projects" should hold strings"#),
    (#"{"text":"a","projects":["a b"]}"#, #"task 1: 'a b' in "projects" cannot be a name (no spaces)"#),
    (#"{"text":"a","projects":["+"]}"#, #"task 1: '' in "projects" cannot be a name (no spaces)"#),
    (#"{"text":"a","contexts":{}}"#, #"task 1: "contexts" should be an array of strings"#),
    (#"{"text":"a","contexts":[true]}"#, #"task 1: "contexts" should hold strings"#),
    (#"{"text":"a","tags":"x"}"#, #"task 1: "tags" should be an array or an object"#),
    (#"{"text":"a","tags":3}"#, #"task 1: "tags" should be an array or an object"#),
    (#"{"text":"a","tags":{"a":1}}"#, #"task 1: tag values should be strings"#),
    (#"{"text":"a","tags":{"a":null}}"#, #"task 1: tag values should be strings"#),
    (#"{"text":"a","tags":[1]}"#, #"task 1: a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[null]}"#, #"task 1: a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[{"key":"a"}]}"#, #"task 1: a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[{"key":"a","value":1}]}"#, #"task 1: a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[["a"]]}"#, #"task 1: a tag should be [key, value]"#),
    (#"{"text":"a","tags":[[]]}"#, #"task 1: a tag should be [key, value]"#),
    (#"{"text":"a","tags":[["a",1]]}"#, #"task 1: a tag should be [key, value]"#),
    (#"{"text":"a","tags":[["a","b","c"]]}"#, #"task 1: a tag should be [key, value]"#),
    (#"{"text":"a","tags":[{"key":"a b","value":"c"}]}"#, #"task 1: 'a b:c' cannot be a tag (no spaces or colons)"#),
    (#"{"text":"a","tags":{"k":"//x"}}"#, #"task 1: 'k://x' cannot be a tag (no spaces or colons)"#),
    (#"{"text":"a"}{"text":"b","due":5}"#, #"task 2: "due" should be a string or null"#),
    (#"{"text" "a"}"#, #"line 1, column 9: expected ':'"#),
    (#"{"text":"a",}"#, #"line 1, column 13: expected a member name in quotes"#),
    (#"{"text":"a\q"}"#, #"line 1, column 12: unknown escape '\q'"#),
    // Input is read line by line, so a string left open ends at a line break.
    (#"{"text":"a"#, #"line 1, column 11: control character in a string (write it as \u00XX)"#),
    (#"{"text":"a","line":01x}"#, #"line 1, column 22: expected ',' or '}'"#),
    (#"[{"text":"a"} {"text":"b"}]"#, #"line 1, column 15: expected ',' or ']'"#),
    (#"{"text":nul}"#, #"line 1, column 9: expected a JSON value"#),
    (String(repeating: "[", count: 100_000), #"line 1, column 65: nested too deeply"#),
    // Which of two values of one name was meant is not known: refused, not the first taken.
    (#"{"text":"a","text":"b","created":null}"#, #"line 1, column 13: 'text' is given twice in one object"#),
    (#"{"text":"a","tags":{"k":"1","j":"3","k":"2"}}"#, #"line 1, column 37: 'k' is given twice in one object"#),
    // Half a surrogate pair and bytes that are not UTF-8 are no text: refused, not U+FFFD.
    (#"{"text":"a\ud800"}"#, #"line 1, column 11: lone surrogate '\ud800' (half of a pair, not a character)"#),
    (#"{"text":"\udc00b"}"#, #"line 1, column 10: lone surrogate '\udc00' (half of a pair, not a character)"#),
    (String(repeating: #"{"a":"#, count: 70), #"line 1, column 321: nested too deeply"#),
  ]

  @Test(arguments: refusedCases)
  func refusedWithOneLine(_ json: String, _ message: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\n")
    let run = try box.todo("import", input: json)
    #expect(run.status == 1)
    #expect(run.stderr == "todo: import: " + message + "\n")
    #expect(run.stdout.isEmpty)
    #expect(box.read("todo.txt") == "one\n")
  }

  /// Members import does not use, and null where a member may be left out, are taken.
  static let takenCases: [(json: String, line: String)] = [
    (#"{"text":"a","done":null,"priority":null,"due":null,"threshold":null}"#, "2009-02-13 a"),
    (#"{"text":"a","tags":null,"projects":null,"contexts":null}"#, "2009-02-13 a"),
    (#"{"text":"a","line":"x","hash":5,"file":null,"raw":[],"other":{"deep":[1,2]}}"#, "2009-02-13 a"),
    (#"{"text":"a","line":1.5e3}"#, "2009-02-13 a"),
    (#"{"text":"a","done":true,"completed":null}"#, "x 2009-02-13 a"),
    (#"{"text":"a","done":false,"completed":"2009-02-01"}"#, "x 2009-02-01 2009-02-13 a"),
    (#"{"text":"a","priority":"b","done":true}"#, "x 2009-02-13 2009-02-13 a pri:B"),
    (#"{"text":" two  words ","created":null,"priority":"c"}"#, "(C) two  words"),
    (#"{"text":"a\r\nb","created":"yesterday"}"#, "2009-02-12 a  b"),
    (#"{"text":"a +p","projects":["p","+q"],"contexts":["@c"],"created":null}"#, "a +p +q @c"),
    (#"{"text":"a k:1","tags":[{"key":"k","value":"1"},["k","2"]],"created":null}"#, "a k:1 k:2"),
    (#"{"text":"a due:2009-03-01","due":"2009-04-01","threshold":"mon","created":null}"#, "a due:2009-03-01 t:2009-02-16"),
    (#"{"text":"\ud83d\ude00 \u00e9\/","created":null}"#, "😀 é/"),
  ]

  @Test(arguments: takenCases)
  func taken(_ json: String, _ line: String) throws {
    let box = try Sandbox()
    let run = try box.todo("import", input: json)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read("todo.txt") == line + "\n")
  }

  /// A 10 MB string where a letter belongs is refused in one line that does not repeat it.
  @Test func hugeStringInAMember() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one\n")
    let huge = String(repeating: "x", count: 10_000_000)
    let run = try box.todo("import", input: #"{"text":"a","priority":""# + huge + #""}"#)
    #expect(run.status == 1)
    #expect(run.stderr == "todo: import: task 1: \"priority\" should be a letter A to Z, or high, medium or low\n")
    #expect(box.read("todo.txt") == "one\n")
  }
}

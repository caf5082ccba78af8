import Foundation
import Testing

/// `--format json|jsonl|ical|TEMPLATE` and `import`, checked with real parsers where there
/// are any, with the clock at 2009-02-13.
@Suite struct OutputFormatTests {
  static let awkward: [UInt8] =
    Array("(A) 2009-01-01 Call \"Mom\" +family @phone due:2009-02-12 t:2009-02-01 rec:+1m\n".utf8)
    + Array("x 2009-02-10 2009-02-01 Back\\slash, semi; done +Kitchen pri:C\n".utf8)
    + Array("Tab\there bell".utf8) + [0x07] + Array(" and bad ".utf8) + [0xFF, 0xFE] + Array(" bytes\n".utf8)
    + Array("\n".utf8)
    + Array("Unicode café ✓ \u{2028} line sep p:3 p:4\n".utf8)

  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", bytes: OutputFormatTests.awkward)
    return box
  }

  func json(_ text: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [[String: Any]])
  }

  @Test func jsonIsValidAndComplete() throws {
    let box = try box()
    let run = try box.todo("ls", "--all", "--format", "json")
    #expect(run.status == 0)
    let tasks = try json(run.stdout)
    #expect(tasks.count == 4)
    // Without --all the done task on line 2 is not listed, in every format.
    let open = try json(try box.todo("ls", "--format", "json").stdout)
    #expect(open.compactMap { $0["line"] as? Int } == [1, 3, 5])
    let first = try #require(tasks.first { $0["line"] as? Int == 1 })
    #expect(first["file"] as? String == "todo.txt")
    #expect(first["raw"] as? String == "(A) 2009-01-01 Call \"Mom\" +family @phone due:2009-02-12 t:2009-02-01 rec:+1m")
    #expect(first["done"] as? Bool == false)
    #expect(first["priority"] as? String == "A")
    #expect(first["created"] as? String == "2009-01-01")
    #expect(first["completed"] is NSNull)
    #expect(first["due"] as? String == "2009-02-12")
    #expect(first["threshold"] as? String == "2009-02-01")
    #expect(first["projects"] as? [String] == ["family"])
    #expect(first["contexts"] as? [String] == ["phone"])
    let tags = try #require(first["tags"] as? [[String: String]])
    #expect(tags == [["key": "due", "value": "2009-02-12"], ["key": "t", "value": "2009-02-01"], ["key": "rec", "value": "+1m"]])
    #expect(first["text"] as? String == "Call \"Mom\" +family @phone due:2009-02-12 t:2009-02-01 rec:+1m")
    #expect((first["hash"] as? String)?.count == 16)
    let done = try #require(tasks.first { $0["line"] as? Int == 2 })
    #expect(done["done"] as? Bool == true)
    #expect(done["priority"] as? String == "C")
    #expect(done["completed"] as? String == "2009-02-10")
    let odd = try #require(tasks.first { $0["line"] as? Int == 3 })
    #expect(odd["raw"] as? String == "Tab\there bell\u{07} and bad \u{FFFD}\u{FFFD} bytes")
    // Control characters are escaped in the text, not written raw.
    #expect(!run.stdout.utf8.contains(0x07))
    #expect(run.stdout.contains("\\u0007"))
    #expect(run.stdout.contains("\\u2028"))
  }

  @Test func hashNamesTheTaskForIfMatch() throws {
    let box = try box()
    let tasks = try json(try box.todo("find", "+family", "--format", "json").stdout)
    let hash = try #require(tasks.first?["hash"] as? String)
    #expect(try box.todo("--if-match", hash, "pri", "1", "B").status == 0)
  }

  /// The bytes of `--format json` as todo(1) documents them: member order, escapes (control
  /// characters, DEL and U+2028/U+2029 as `\uXXXX`, C1 controls as they are, bad bytes as
  /// U+FFFD). The expected files were written by the hand-made writer this output replaced.
  @Test func jsonBytesAreStable() throws {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    let box = try box()
    let awkward = try Data(contentsOf: fixtures.appendingPathComponent("awkward.json"))
    #expect(try box.todo("lsa", "--format", "json").stdout == String(decoding: awkward, as: UTF8.self))
    let escapes = try Data(contentsOf: fixtures.appendingPathComponent("json-escapes.txt"))
    try box.write("todo.txt", bytes: [UInt8](escapes))
    let expected = try Data(contentsOf: fixtures.appendingPathComponent("json-escapes.jsonl"))
    let run = try box.todo("ls", "--format", "jsonl")
    #expect(run.stdout == String(decoding: expected, as: UTF8.self))
    #expect(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) is [String: Any])
  }

  @Test func jsonLinesHaveOneObjectPerLine() throws {
    let box = try box()
    let lines = try box.todo("ls", "--all", "--format", "jsonl").stdout.split(separator: "\n")
    #expect(lines.count == 4)
    for line in lines {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
    #expect(try box.todo("ls", "--format", "json", "-q", "+nothing").stdout == "[\n]\n")
  }

  @Test func iCalendarFollowsTheLineRules() throws {
    let box = try box()
    let run = try box.todo("lsa", "--format", "ical")
    let text = run.stdout
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    let bytes = Array(text.utf8)
    // Every line ends in CRLF and no line is longer than 75 octets.
    var lineLength = 0
    for (index, byte) in bytes.enumerated() {
      if byte == 0x0A {
        #expect(index > 0 && bytes[index - 1] == 0x0D)
        #expect(lineLength - 1 <= 75)
        lineLength = 0
      } else {
        lineLength += 1
      }
    }
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    #expect(unfolded.contains("SUMMARY:Call \"Mom\" +family @phone\r\n"))
    #expect(unfolded.contains("DUE;VALUE=DATE:20090212\r\n"))
    #expect(unfolded.contains("DTSTART;VALUE=DATE:20090201\r\n"))
    #expect(unfolded.contains("PRIORITY:1\r\n"))
    #expect(unfolded.contains("RRULE:FREQ=MONTHLY;INTERVAL=1\r\n"))
    #expect(unfolded.contains("CATEGORIES:+family,@phone\r\n"))
    #expect(unfolded.contains("STATUS:COMPLETED\r\nCOMPLETED:20090210T000000Z\r\n"))
    #expect(unfolded.contains("SUMMARY:Back\\\\slash\\, semi\\; done +Kitchen\r\n"))
    #expect(unfolded.contains("SUMMARY:Tab here bell and bad \u{FFFD}\u{FFFD} bytes\r\n"))
    #expect(text.components(separatedBy: "BEGIN:VTODO").count == 5)
    // The identity of a task follows its text: completing it keeps its UID.
    func uid(_ output: String) -> String? {
      output.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }
    }
    let before = uid(try box.todo("find", "+family", "--format", "ical").stdout)
    try box.todo("do", "1")
    #expect(uid(try box.todo("find", "+family", "done", "--format", "ical").stdout) == before)
  }

  @Test func templates() throws {
    let box = try box()
    let run = try box.todo("ls", "--all", "--format", "{n}|{priority}|{due}|{projects}|{tag:rec}|{{x}}", "-q", "has:project")
    #expect(run.stdout == "1|A|2009-02-12|+family|+1m|{x}\n2|C||+Kitchen||{x}\n")
    let bad = try box.todo("ls", "--format", "{n} {nope}")
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("todo: unknown field {nope} in --format"))
    #expect(
      try box.todo("ls", "--format", "yaml").stderr
        == "todo: option '--format' does not take 'yaml'; it takes text, json, jsonl, ical, a template such as '{n} {text}'\n")
    // A format's name in any case, as the reports take it.
    #expect(try box.todo("ls", "--format", "JSON").stdout == (try box.todo("ls", "--format", "json")).stdout)
  }

  @Test func importRoundTrip() throws {
    let box = try box()
    let exported = try box.todo("lsa", "--format", "json").stdout
    let other = try Sandbox()
    let run = try other.todo("import", input: exported)
    #expect(run.status == 0)
    let original = box.read("todo.txt").split(separator: "\n").map(String.init).sorted()
    let imported = other.read("todo.txt").split(separator: "\n").map(String.init).sorted()
    // Invalid UTF-8 cannot travel through JSON; everything else comes back byte for byte.
    #expect(imported == original)
    #expect(imported.count == 4)
    #expect(imported.contains("(A) 2009-01-01 Call \"Mom\" +family @phone due:2009-02-12 t:2009-02-01 rec:+1m"))
    #expect(imported.contains("x 2009-02-10 2009-02-01 Back\\slash, semi; done +Kitchen pri:C"))
    #expect(imported.contains("Unicode café ✓ \u{2028} line sep p:3 p:4"))
  }

  @Test func importFromFields() throws {
    let box = try Sandbox()
    let input = """
      {"text": "Plan trip", "priority": "b", "due": "fri", "projects": ["+Travel"], "contexts": ["home"], \
      "tags": {"est": "3"}}
      {"text": "Filed", "done": true, "created": null}
      {"text": "Typed \\u00e9 \\ud83d\\ude00", "created": "2009-01-01", "tags": [["id", "9"]]}

      """
    let run = try box.todo("import", input: input)
    #expect(run.status == 0)
    #expect(
      box.read("todo.txt") == """
        (B) 2009-02-13 Plan trip +Travel @home due:2009-02-20 est:3
        x 2009-02-13 Filed
        2009-01-01 Typed é 😀 id:9

        """)
    #expect(try box.todo("add", "--json", input: "[{\"text\": \"via add\", \"created\": null}]").status == 0)
    #expect(box.read("todo.txt").hasSuffix("\nvia add\n"))
    let bad = try box.todo("import", input: "{\"text\": \"ok\"}\n{\"text\" \"missing colon\"}\n")
    #expect(bad.status == 1)
    #expect(bad.stderr == "todo: import: line 2, column 9: expected ':'\n")
    let noText = try box.todo("import", input: "{\"priority\": \"A\"}")
    #expect(noText.stderr == "todo: import: task 1: needs \"text\" (a string)\n")
    // Nothing was added by the failed imports.
    #expect(box.read("todo.txt").split(separator: "\n").count == 4)
  }
}

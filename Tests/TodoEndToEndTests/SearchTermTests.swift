import Foundation
import Testing

/// Search terms under the name `todo` are words of the task's text: not grep patterns, never
/// the line's number, Unicode case folding, and bytes that are not UTF-8 found as bytes.
/// Under the name `todo.sh` they stay grep's.
@Suite struct SearchTermTests {
  static let file = "alpha\nmeatballs\na.b and [x box\ncaret ^a here\nbuy 3 pears\n"

  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", SearchTermTests.file)
    return box
  }

  @Test func aTermIsTheTextNotTheNumber() throws {
    let box = try box()
    // Line 3 holds no 3 in its text; line 5 does.
    #expect(try box.todo("ls", "3", merged: true).stdout == "5 buy 3 pears\n--\nTODO: 1 of 5 tasks shown\n")
    let all = try box.todo("lsa", "3", merged: true).stdout
    #expect(all.hasPrefix("5 buy 3 pears\n--\n"))
  }

  @Test func regularExpressionCharactersAreLiteral() throws {
    let box = try box()
    #expect(try box.todo("ls", "a.b", merged: true).stdout == "3 a.b and [x box\n--\nTODO: 1 of 5 tasks shown\n")
    #expect(try box.todo("ls", "^a", merged: true).stdout == "4 caret ^a here\n--\nTODO: 1 of 5 tasks shown\n")
    // Not a malformed expression: the characters themselves.
    let bracket = try box.todo("ls", "[x", merged: true)
    #expect(bracket.status == 0)
    #expect(bracket.stdout == "3 a.b and [x box\n--\nTODO: 1 of 5 tasks shown\n")
    #expect(
      try box.todo("ls", "-a.b", merged: true).stdout
        == "1 alpha\n5 buy 3 pears\n4 caret ^a here\n2 meatballs\n--\nTODO: 4 of 5 tasks shown\n")
    // --why gives the same reason the listing used.
    #expect(try box.todo("ls", "--why", "a.b").stdout.contains("excluded by the term 'a.b' (no match)"))
  }

  @Test func todoShKeepsGrep() throws {
    let box = try box()
    #expect(try box.sh("ls", "3").stdout == "3 a.b and [x box\n5 buy 3 pears\n--\nTODO: 2 of 5 tasks shown\n")
    #expect(try box.sh("ls", "a.b").stdout == "3 a.b and [x box\n2 meatballs\n--\nTODO: 2 of 5 tasks shown\n")
  }

  @Test func queryWordsFoldCaseAsTermsDo() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "café crème\nσοφία book\nStraße 5\nCAFÉ noir\n")
    // Sorted byte by byte ignoring ASCII case: É (C3 89) before é (C3 A9).
    let cafe = "4 CAFÉ noir\n1 café crème\n--\nTODO: 2 of 4 tasks shown\n"
    #expect(try box.todo("find", "CAFÉ", merged: true).stdout == cafe)
    #expect(try box.todo("find", "café", merged: true).stdout == cafe)
    #expect(try box.todo("ls", "CAFÉ", merged: true).stdout == cafe)
    #expect(try box.todo("ls", "-q", "CAFÉ", merged: true).stdout == cafe)
    #expect(try box.todo("find", "ΣΟΦΊΑ", merged: true).stdout == "2 σοφία book\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(try box.todo("find", "STRASSE", merged: true).stdout == "3 Straße 5\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(try box.todo("find", "strasse", merged: true).stdout == "3 Straße 5\n--\nTODO: 1 of 4 tasks shown\n")
    #expect(try box.todo("find", "-CAFÉ", merged: true).stdout == "3 Straße 5\n2 σοφία book\n--\nTODO: 2 of 4 tasks shown\n")
  }

  /// Runs `todo ARGS` through bash, so that arguments can be bytes that are not UTF-8.
  func rawRun(_ box: Sandbox, _ words: String) throws -> Sandbox.Run {
    try box.write("bin/raw", "#!/bin/bash\nexec todo \(words)\n")
    chmod(box.path("bin/raw"), 0o755)
    return try box.run("raw", [])
  }

  /// `add $'caf\xe9'` stores the byte E9 as typed, as todo.sh does, not U+FFFD (EF BF BD).
  @Test func taskTextThatIsNotUTF8IsStoredAsTyped() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "")
    #expect(try rawRun(box, "add \"$(printf 'caf\\351')\" au lait").status == 0)
    #expect(try rawRun(box, "append 1 \"$(printf 'x\\377')\"").status == 0)
    #expect(try rawRun(box, "prepend 1 \"$(printf '\\376')\"").status == 0)
    #expect(try rawRun(box, "add \"$(printf 'th\\351')\"").status == 0)
    #expect(try rawRun(box, "replace 2 \"$(printf 'tea \\351')\"").status == 0)
    // Native `add` writes today's date first; the rest of each line is what was typed.
    let stored = box.bytes("todo.txt")
    let date = Array(stored.prefix(11))
    #expect(date.count == 11 && date[4] == UInt8(ascii: "-") && date[10] == 0x20)
    let expected: [UInt8] =
      date + [0xFE] + Array(" caf".utf8) + [0xE9] + Array(" au lait x".utf8) + [0xFF, 0x0A]
      + date + Array("tea ".utf8) + [0xE9, 0x0A]
    #expect(stored == expected)
    // Under todo.sh's name too.
    try box.write("todo.txt", "")
    try box.write("bin/raw-sh", "#!/bin/bash\nexec todo.sh add \"$(printf 'caf\\351')\"\n")
    chmod(box.path("bin/raw-sh"), 0o755)
    let sh = try box.run("raw-sh", [])
    #expect(sh.status == 0, "\(sh.stderr)")
    #expect(box.bytes("todo.txt") == Array("caf".utf8) + [0xE9, 0x0A])
  }

  @Test func aTermThatIsNotUTF8IsItsBytes() throws {
    let box = try Sandbox()
    try box.write("todo.txt", bytes: Array("bad ".utf8) + [0xFF] + Array(" byte\nrepl \u{FFFD} char\nplain\n".utf8))
    let byte = try rawRun(box, "ls \"$(printf '\\377')\"")
    #expect(byte.status == 0)
    #expect(byte.stdout.hasPrefix("1 bad "))
    #expect(byte.stderr == "--\nTODO: 1 of 3 tasks shown\n")
    let excluded = try rawRun(box, "ls \"-$(printf '\\377')\"")
    #expect(excluded.stdout.hasPrefix("3 plain\n2 repl "))
    #expect(excluded.stderr == "--\nTODO: 2 of 3 tasks shown\n")
    // The replacement character itself finds only the line that holds it.
    let replacement = try box.todo("ls", "\u{FFFD}", merged: true)
    #expect(replacement.stdout == "2 repl \u{FFFD} char\n--\nTODO: 1 of 3 tasks shown\n")
  }
}

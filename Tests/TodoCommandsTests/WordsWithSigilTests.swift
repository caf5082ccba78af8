import Testing

/// ``WordsWithSigil`` (`listproj`, `listcon`): the words todo.sh's
/// `grep -o '[^ ]*SIGIL[^ ]\+'` finds, read where they lie in the files.
@Suite struct WordsWithSigilTests {
  /// Tokens split at spaces only (a tab is inside a token), a sigil with nothing after it,
  /// a sigil not first in its token, doubled sigils, no final newline.
  static let todo = "+a @b +\n@ +x+y @c@d\n  ++double  @@w +end+\nlast+ +z\t@tab"

  @Test(arguments: ["todo", "todo.sh"])
  func tokensHoldingTheSigilWithMoreAfterIt(name: String) throws {
    let list = try CommandFixture(todo: Self.todo)
    #expect(list.run(name, ["listproj"]).stdout == "++double\n+a\n+end+\n+x+y\n+z\t@tab\n")
    #expect(list.run(name, ["listcon"]).stdout == "@@w\n@b\n@c@d\n")
    #expect(list.run(name, ["listproj", "double"]).stdout == "++double\n+end+\n")
  }

  /// `TODOTXT_SOURCEVAR` names the files, joined as `cat` joins them (todo.txt has no final
  /// newline, so its last line runs into done.txt's first); a file that is not there adds
  /// nothing and is no error.
  @Test(arguments: ["todo", "todo.sh"])
  func theFilesTheSourceVariableNames(name: String) throws {
    let list = try CommandFixture(todo: "Call +mom", done: "x 2009-02-01 Old +done\n")
    let directory = list.path("")
    try list.write(
      "todo.cfg",
      "export TODO_DIR=\"\(directory)\"\nexport TODO_FILE=\"$TODO_DIR/todo.txt\"\nexport DONE_FILE=\"$TODO_DIR/done.txt\"\n"
        + "export TODOTXT_SOURCEVAR='(\"$TODO_FILE\" /nonexistent/file \"$DONE_FILE\")'\n")
    let run = list.run(name, ["listproj"])
    #expect(run.status == 0)
    #expect(run.stdout == "+done\n+momx\n")
  }

  /// In a UTF-8 locale todo.sh's `[^ ]` matches no byte that is not a character: such a byte
  /// ends the word.
  @Test func underTodoShABadByteEndsTheWordInAUTF8Locale() throws {
    let list = try CommandFixture(todo: nil)
    try list.write("todo.txt", bytes: Array("Buy +caf".utf8) + [0xE9] + Array("x +ok\n".utf8))
    let run = list.sh("listproj", environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
    #expect(run.stdout == "+caf\n+ok\n")
  }
}

import Testing

@testable import TodoCommands

/// The command line's entry: where its errors go under each name.
@Suite struct TodoCLITests {
  /// todo.sh prints its usage on standard output; under the name todo a command line without
  /// an action (or with an empty one) is a mistake, said on standard error, so that a script
  /// reading the output never takes the usage for tasks.
  @Test(arguments: [[], [""], ["--color"]] as [[String]])
  func aMissingActionIsAnErrorOnStandardErrorUnderTheNameTodo(words: [String]) throws {
    let list = try CommandFixture(todo: "call mum\n")
    let native = list.run("todo", words)
    #expect(native.status == 1)
    #expect(native.stdout == "")
    #expect(native.stderr.hasPrefix("Usage: todo [-fhpantvV]"))
    let todoSh = list.run("todo.sh", words.filter { !$0.hasPrefix("--") })
    #expect(todoSh.status == 1)
    #expect(todoSh.stdout.hasPrefix("Usage: todo.sh [-fhpantvV]"))
    #expect(todoSh.stderr == "")
    #expect(list.files == ["call mum\n", ""])
  }

  @Test func anErrorOfACommandGoesToStandardErrorUnderBothNames() throws {
    let list = try CommandFixture(todo: "call mum\n")
    for name in ["todo", "todo.sh"] {
      let run = list.run(name, ["do", "9"])
      #expect(run.status == 1)
      #expect(run.stdout == "")
      #expect(!run.stderr.isEmpty)
    }
  }
}

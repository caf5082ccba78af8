import Testing
import TodoStore

@testable import TodoCommands

/// The sink holds output back while a change is written, for the context that started the
/// change and for every context made from it, while the contexts themselves never change.
@Suite struct OutputSinkTests {
  struct Planted: Error {}

  @Test func aHolderStandsInFrontOnlyWhileItsBodyRuns() throws {
    let console = CapturingConsole()
    let sink = OutputSink(console)
    let holder = CapturingConsole()
    sink.holding(holder) {
      sink.line("held")
      sink.errorLine("warned")
      #expect(sink.destination === holder)
    }
    sink.line("direct")
    #expect(holder.outputText == "held\n")
    #expect(holder.errorText == "warned\n")
    #expect(console.outputText == "direct\n")
    #expect(sink.destination === console)
  }

  @Test func aThrownBodyTakesItsHolderAway() {
    let console = CapturingConsole()
    let sink = OutputSink(console)
    let inner = CapturingConsole()
    #expect(throws: Planted.self) {
      try sink.holding(CapturingConsole()) { () throws(Planted) in
        try sink.holding(inner) { () throws(Planted) in
          sink.line("innermost")
          throw Planted()
        }
      }
    }
    sink.line("after")
    #expect(inner.outputText == "innermost\n")
    #expect(console.outputText == "after\n")
  }

  @Test func aSinkOverASinkIsThatSink() {
    let sink = OutputSink(CapturingConsole())
    #expect(OutputSink.over(sink) === sink)
  }

  @Test func theSinkSaysWhatItsConsoleIsEvenWhileHolding() {
    let console = CapturingConsole(isTerminal: true, columns: 42)
    let sink = OutputSink(console)
    sink.holding(CapturingConsole()) {
      #expect(sink.isTerminal)
      #expect(sink.columns == 42)
    }
  }

  /// A context made from the one that writes a change (other settings, as a listing makes)
  /// writes through the same sink: its confirmation is dropped with the change's when the
  /// write fails, and nothing reaches standard output before the change is written.
  @Test func aDerivedContextsOutputIsHeldWithTheChange() throws {
    let fixture = try CommandFixture(todo: "call mom\n")
    let console = CapturingConsole()
    let context = try fixture.context(console: console)
    let derived = context.with(settings: context.settings)
    #expect(throws: TodoError.self) {
      try context.storing {
        derived.console.line("written: call mom")
        #expect(console.output.isEmpty)
        throw StoreError(.permissionDenied, path: fixture.path("todo.txt"), operation: .write)
      }
    }
    #expect(console.output.isEmpty)
    try context.storing { derived.console.line("written") }
    #expect(console.outputText == "written\n")
  }

  /// A context made for a command carries the command's words; the context it was made from
  /// keeps its own.
  @Test func aContextMadeFromAnotherLeavesItAsItWas() throws {
    let fixture = try CommandFixture(todo: "a\n")
    let context = try fixture.context()
    let parsed = try Invocation.parse(["--sort", "-text"], for: ListCommand.spec, as: "ls")
    var settings = context.settings
    settings["TODO_FILE"] = fixture.path("todo.txt")
    let child = CommandContext(context, settings: settings, invocation: parsed, snapshotCheck: .some { _ throws(TodoError) in throw .usage })
    #expect(child.invocation.value("--sort") == "-text")
    #expect(context.invocation.value("--sort") == nil)
    #expect(context.snapshotCheck == nil)
    #expect(child.console === context.console)
    // The child's check is the store's only while the child runs.
    child.checkingSnapshots {
      #expect(context.store.snapshotCheck != nil)
    }
    #expect(context.store.snapshotCheck == nil)
    #expect(throws: TodoError.usage) { try child.readList(fixture.path("todo.txt")) }
    #expect(try context.readList(fixture.path("todo.txt")).count == 1)
  }
}

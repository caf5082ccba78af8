import Foundation
import Testing

/// The declared command surface, seen from outside: the built binary on real files, the
/// completion scripts in real bash, zsh and fish, and todo(1) against the declarations.
@Suite struct CommandDeclarationTests {
  static let list = "(A) call mom +Family @phone\n2009-02-10 pay rent due:2009-02-20\nbuy milk @store due:2009-02-14\n"

  /// The cases found by trying the tool as a new user: each is an error naming the
  /// problem, with a non-zero exit and todo.txt exactly as it was.
  @Test(arguments: [
    (["ls", "--sortt", "due"], "todo: 'ls' has no option '--sortt'; did you mean '--sort'?"),
    (["ls", "--frmat", "json"], "todo: 'ls' has no option '--frmat'; did you mean '--format'?"),
    (["add", "foo", "--priorty", "high"], "todo: 'add' has no option '--priorty'; did you mean '--priority'?"),
    (["ls", "--sort", "dew"], "todo: option '--sort' does not take 'dew'; it takes created, priority, due, text, completed, line, urgency"),
    (["ls", "--group", "week"], "todo: option '--group' does not take 'week'; it takes project, context, priority, due, contexts, pri, projects"),
    (["do", "--all", "1"], "todo: 'do' has no option '--all'"),
    (["ls", "--f", "json"], "todo: option '--f' is ambiguous: did you mean --format or --force? (see 'todo ls --help')"),
    (["agenda", "--days"], "todo: option '--days' needs a value"),
  ])
  func mistakesAreErrorsThatChangeNothing(arguments: [String], message: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", CommandDeclarationTests.list)
    let run = try box.run("todo", arguments)
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(box.read("todo.txt") == CommandDeclarationTests.list)
  }

  @Test func everyNativeActionAnswersHelpWithItsOwnHelp() throws {
    let box = try Sandbox()
    try box.write("todo.txt", CommandDeclarationTests.list)
    let names = CompletionTests.lines(try box.todo("__complete", "").stdout).map { String($0.prefix { $0 != "\t" }) }
    #expect(names.count > 40)
    for name in names {
      for flag in ["--help", "-h"] {
        let run = try box.todo(name, flag)
        #expect(run.status == 0, "\(name) \(flag): \(run.stderr)")
        #expect(run.stdout.hasPrefix("Usage: todo \(name)"), "\(name) \(flag)")
        #expect(run.stdout.contains("  -h, --help\n"), "\(name) \(flag)")
        #expect(run.stderr == "")
      }
    }
    #expect(box.read("todo.txt") == CommandDeclarationTests.list)
    #expect(!box.exists("done.txt"))
    // Under the name todo.sh, add --help still adds a task called --help, as todo.sh does.
    #expect(try box.sh("add", "--help").status == 0)
    #expect(box.read("todo.txt").hasSuffix("\n--help\n"))
  }

  @Test func helpListsEveryOptionOfTheAction() throws {
    let box = try Sandbox()
    let help = try box.todo("help", "ls").stdout
    for option in ["-a, --all", "--sort KEYS", "--format FORMAT", "--group BY", "-q, --query EXPR", "--why"] {
      #expect(help.contains("      \(option)\n"), "help ls lacks \(option)")
    }
    #expect(help.contains("KEYS: created, priority, due, text, completed, line,\n          urgency."))
    let pri = try box.todo("pri", "--help").stdout
    #expect(pri.contains("-q, --query EXPR"))
    // The words pri takes besides letters are named in its help.
    for word in ["high", "medium", "low"] { #expect(pri.contains(word), "pri --help lacks \(word)") }
    #expect(try !box.sh("help", "ls").stdout.contains("--sort"))
  }

  @Test func aTypedOptionAfterTheTextIsApplied() throws {
    let box = try Sandbox()
    #expect(try box.todo("add", "foo", "--priority", "high").status == 0)
    #expect(try box.todo("add", "--", "bar", "--priority", "high").status == 0)
    let lines = box.read("todo.txt").split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("(A) ") && lines[0].hasSuffix(" foo"))
    #expect(lines[1].hasSuffix(" bar --priority high") && !lines[1].hasPrefix("("))
  }

  // MARK: Completion in the real shells

  @Test func bashCompletesOptionsAfterTheAction() throws {
    let box = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box, "todo ls --so") == ["--sort"])
    #expect(try CompletionTests.bash(box, "todo ls --sort ") == ["created", "priority", "due", "text", "completed", "line", "urgency"])
    #expect(try CompletionTests.bash(box, "todo ls --sort due,p") == ["due,priority"])
    #expect(try CompletionTests.bash(box, "todo ls --format j") == ["json", "jsonl"])
    #expect(try CompletionTests.bash(box, "todo ls --group c") == ["context", "contexts"])
    #expect(try CompletionTests.bash(box, "todo add --priority h") == ["high"])
    #expect(try CompletionTests.bash(box, "todo do -q x ") == ["1", "3"])
  }

  /// Each positional completes as its declaration says: open tasks for do, done ones for
  /// reopen, bare keys for tag's KEY, any path for attach.
  @Test func positionalsCompleteByTheirDeclaredKind() throws {
    let box = try CompletionTests.sandbox()
    try box.write("todo.txt", "(A) call mom +Family @phone\nx 2009-02-12 pay rent est:2\nbuy milk @store due:2009-02-20\n")
    #expect(try CompletionTests.bash(box, "todo do ") == ["1", "3"])
    #expect(try CompletionTests.bash(box, "todo reopen ") == ["2"])
    #expect(try CompletionTests.bash(box, "todo.sh do ") == ["1", "2", "3"])
    #expect(try CompletionTests.bash(box, "todo tag 1 3 e") == ["est"])
    #expect(try CompletionTests.bash(box, "todo tag 1 d") == ["due"])
    #expect(try CompletionTests.bash(box, "todo tag 1 2") == ["2"])
    try box.write("scans/bill.pdf", "%PDF")
    #expect(try CompletionTests.bash(box, "todo attach 1 sca") == ["scans/"])
    #expect(try CompletionTests.bash(box, "todo attach 1 scans/") == ["scans/bill.pdf"])
  }

  @Test func zshAndFishCompleteOptionsAfterTheAction() throws {
    let box = try CompletionTests.sandbox()
    _ = try CompletionTests.run(box, "zsh", ["-f", "-c", "true"])
    #expect(try CompletionTests.zsh(box, "todo ls --gr").map { String($0.prefix { $0 != "\t" }) } == ["--group"])
    #expect(try CompletionTests.zsh(box, "todo ls --group p") == ["project", "priority", "pri", "projects"])
    #expect(try CompletionTests.fish(box, "todo ls --sort c") == ["created", "completed"])
    #expect(try CompletionTests.fish(box, "todo agenda --q").map { String($0.prefix { $0 != "\t" }) } == ["--quiet"])
  }

  // MARK: The manual

  /// todo(1) has, in each command's entry, the list of its options exactly as declared
  /// (written by man/update-options from `todo __dump mdoc`).
  @Test func todo1DocumentsEveryOptionOfEveryCommand() throws {
    let manual = try ManPageTests.manual()
    let box = try Sandbox()
    let dump = try box.todo("__dump", "mdoc").stdout
    let marker = ".\\\" Options of "
    let blocks = dump.components(separatedBy: marker).dropFirst().map { marker + $0 }
    #expect(blocks.count >= 15)
    let lines = manual.components(separatedBy: "\n")
    for block in blocks {
      let name = String(block.dropFirst(marker.count).prefix { $0 != "," })
      #expect(manual.contains(block), "man/todo.1 lacks the options of '\(name)' as declared: run man/update-options")
      // ... and the list is inside the command's own entry.
      guard let at = manual.range(of: block), let entry = lines.firstIndex(where: { $0.hasPrefix(".It Cm \(name) ") || $0 == ".It Cm \(name)" }) else {
        Issue.record("todo.1 has no entry for '\(name)'")
        continue
      }
      let blockLine = manual[..<at.lowerBound].components(separatedBy: "\n").count - 1
      let between = lines[(entry + 1)..<blockLine]
      var depth = 0
      var left = false
      for line in between {
        if line.hasPrefix(".Bl") { depth += 1 }
        if line.hasPrefix(".El") { depth -= 1 }
        if depth < 0 || (depth == 0 && line.hasPrefix(".It")) { left = true }
      }
      #expect(!left, "the options of '\(name)' stand outside its entry in todo.1")
    }
    let json = try box.todo("__dump").stdout
    #expect(json.hasPrefix("{\"program\":\"todo\",\"options\":[{\"names\":[\"-@\"]"))
    #expect(json.contains("],\"commands\":[{\"name\":\"add\""))
    // Each subcommand has its own usage in the manual.
    for (name, usage) in [("add", "Ar NR Ar NR..."), ("rm", "Ar NR Ar NR..."), ("ls", "Oo Ar NR Oc")] {
      #expect(json.contains("{\"name\":\"\(name)\",\"aliases\":[],\"usage\":"))
      #expect(manual.contains("Cm dep \(name) \(usage)"), "todo.1 lacks 'dep \(name)'")
    }
  }

  @Test func subcommandsAreCommandsOfTheirOwn() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a\nb\nc\n")
    let help = try box.todo("dep", "--help")
    #expect(help.status == 0 && help.stdout.contains("\nSubcommands:\n  add NR NR...\n"))
    let addHelp = try box.todo("dep", "add", "-h")
    #expect(addHelp.status == 0 && addHelp.stdout.hasPrefix("Usage: todo dep add NR NR...\n"))
    let typo = try box.todo("dep", "ad", "1", "2")
    #expect(typo.status == 1)
    #expect(typo.stderr == "todo: 'dep' has no subcommand 'ad'; did you mean 'add'? it has add, rm, ls\n")
    let short = try box.todo("dep", "add", "1")
    #expect(short.status == 1 && short.stderr == "usage: todo dep add NR NR...\n")
    #expect(try box.todo("dep", "ls", "--all").stderr.hasPrefix("todo: 'dep ls' has no option '--all'"))
    #expect(box.read("todo.txt") == "a\nb\nc\n")
    #expect(try box.todo("dep", "add", "1", "3").status == 0)
    #expect(box.read("todo.txt") == "a id:1\nb\nc p:1\n")
    let box2 = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box2, "todo dep ") == ["add", "rm", "ls"])
    #expect(try CompletionTests.bash(box2, "todo dep add 1 ") == ["3"])
  }
}

/// Dates on input: under the name todo, a `due:` or `t:` value that is neither a date nor a
/// date word is refused wherever text comes in, and `--verbatim` stores it on purpose.
@Suite struct TypedDateTests {
  static let list = "call mom\n"

  @Test(arguments: [
    ["add", "pay bill due:tomorow"], ["add", "x due:2026-02-30"], ["add", "x t:nextweak"],
    ["addm", "fine due:fri\nbad due:x"], ["addto", "todo.txt", "x due:soonish"],
    ["append", "1", "due:tomorow"], ["prepend", "1", "t:2026-13-01"], ["replace", "1", "call dad due:jan32"],
  ])
  func aValueThatIsNoDateIsRefusedEverywhere(arguments: [String]) throws {
    let box = try Sandbox()
    try box.write("todo.txt", TypedDateTests.list)
    let run = try box.run("todo", arguments)
    #expect(run.status == 1)
    #expect(run.stderr.contains("is not a date; dates are written 2026-05-01, today, tomorrow, fri, next fri"), "\(run.stderr)")
    #expect(box.read("todo.txt") == TypedDateTests.list)
    #expect(!box.exists("done.txt"))
  }

  @Test func importIsCheckedTheSameWay() throws {
    let box = try Sandbox()
    try box.write("todo.txt", TypedDateTests.list)
    let run = try box.todo("import", input: "{\"text\":\"fine due:fri\"}\n{\"text\":\"bad due:bogus\"}\n")
    #expect(run.status == 1)
    #expect(run.stderr.contains("'bogus' is not a date"))
    #expect(box.read("todo.txt") == TypedDateTests.list)
  }

  @Test func verbatimStoresTheTextAsTyped() throws {
    let box = try Sandbox()
    try box.write("todo.txt", TypedDateTests.list)
    #expect(try box.todo("-T", "add", "--verbatim", "someday due:someday t:fri").status == 0)
    #expect(try box.todo("-T", "add", "real due:2009-02-20 t:today").status == 0)
    #expect(box.read("todo.txt") == "call mom\nsomeday due:someday t:fri\nreal due:2009-02-20 t:2009-02-13\n")
    // Under the name todo.sh, text is stored as typed, as todo.sh does.
    #expect(try box.sh("add", "sh due:tomorow").status == 0)
    #expect(box.read("todo.txt").hasSuffix("\nsh due:tomorow\n"))
  }
}

/// A template prints its records only (issue 18, item 11): no `--` and no summary line.
@Suite struct TemplateOutputTests {
  @Test func aTemplatePrintsOnlyItsRecords() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(B) pay rent +home\ncall mom\n")
    let run = try box.todo("ls", "--format", "{n}|{priority}|{text}")
    #expect(run.status == 0)
    #expect(run.stdout == "1|B|pay rent +home\n2||call mom\n")
    let grouped = try box.todo("ls", "--group", "project", "--format", "{n}")
    #expect(!grouped.stdout.contains("tasks shown"))
    #expect(try box.todo("ls", merged: true).stdout.hasSuffix("--\nTODO: 2 of 2 tasks shown\n"))
  }
}

/// A configuration that names no TODO_DIR (issue 18, item 10) keeps the default data directory.
@Suite struct DefaultDirectoryTests {
  @Test(arguments: [".config/todo/config", "todo.cfg"])
  func aConfigurationThatOnlyDefinesAViewKeepsTheDefaultPlace(path: String) throws {
    let box = try Sandbox(config: nil)
    try box.write(path, "export TODO_VIEW_today='due:<=today or pri:A'\n")
    let run = try box.todo("add", "first task")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(box.read(".local/share/todo/todo.txt") == "2009-02-13 first task\n")
    #expect(try box.todo("view", "today").status == 0)
  }
}

/// `ls --group due` (issue 18, item 12): a done task is not filed as overdue.
@Suite struct GroupByDueTests {
  @Test func aDoneTaskIsNotOverdue() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "x 2009-02-12 paid rent due:2009-02-10\ncall bank due:2009-02-10\n")
    let run = try box.todo("lsa", "--group", "due", "--format", "{text}")
    #expect(run.status == 0)
    #expect(run.stdout == "due 2009-02-10 (overdue)\ncall bank due:2009-02-10\n\ndue 2009-02-10 (done)\npaid rent due:2009-02-10\n")
  }
}

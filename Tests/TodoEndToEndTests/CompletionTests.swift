import Foundation
import Testing

/// The completion scripts in the real shells, and the hidden `__complete` they call.
@Suite struct CompletionTests {
  /// The checkout's `Completions/` directory.
  static let completionsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Completions")

  static let scripts = ["bash": "todo.bash", "zsh": "_todo", "fish": "todo.fish"]

  /// A sandbox with tasks in todo.txt and done.txt, a second todo file and an add-on.
  static func sandbox(config: String? = "export TODO_DIR=\"$HOME\"\n") throws -> Sandbox {
    let box = try Sandbox(config: config)
    try box.write("todo.txt", "(A) call mom +Family @phone\n\nbuy milk @store due:2009-02-20\n")
    try box.write("done.txt", "x 2009-02-01 fix bike +Garage @home\n")
    try box.write("someday.txt", "learn piano\n")
    try box.write(".todo/actions/birdseye", "#!/bin/sh\necho bird\n")
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: box.path(".todo/actions/birdseye"))
    return box
  }

  /// Runs an installed program (a shell) in the sandbox, found on the system's PATH.
  static func run(_ box: Sandbox, _ program: String, _ arguments: [String]) throws -> Sandbox.Run {
    let link = box.path("bin/" + program)
    if !FileManager.default.fileExists(atPath: link) {
      let found = ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + program }.first {
        FileManager.default.isExecutableFile(atPath: $0)
      }
      guard let found else {
        Issue.record("\(program) is not installed (.ci/run installs it)")
        return Sandbox.Run(status: -1, stdout: "", stderr: "")
      }
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: found)
    }
    return try box.run(program, arguments)
  }

  static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  // MARK: The scripts

  @Test(arguments: ["bash", "zsh", "fish"])
  func checkedInScriptsAreTheGeneratedOnes(shell: String) throws {
    let box = try Sandbox()
    let generated = try box.todo("completions", shell)
    #expect(generated.status == 0)
    let file = CompletionTests.completionsDirectory.appendingPathComponent(
      CompletionTests.scripts[shell] ?? "")
    let checkedIn = try String(contentsOf: file, encoding: .utf8)
    #expect(
      generated.stdout == checkedIn,
      "run: todo completions \(shell) > Completions/\(file.lastPathComponent)")
  }

  @Test func scriptsParseInTheirShells() throws {
    let box = try Sandbox()
    let directory = CompletionTests.completionsDirectory.path
    #expect(try CompletionTests.run(box, "bash", ["-n", directory + "/todo.bash"]).status == 0)
    #expect(try CompletionTests.run(box, "zsh", ["-n", directory + "/_todo"]).status == 0)
    #expect(
      try CompletionTests.run(box, "fish", ["--no-config", "-n", directory + "/todo.fish"]).status
        == 0)
  }

  @Test func unknownShellIsAUsageError() throws {
    let box = try Sandbox()
    let run = try box.todo("completions", "tcsh")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
  }

  // MARK: __complete

  @Test func completeCommandPrintsValuesAndDescriptions() throws {
    let box = try CompletionTests.sandbox()
    #expect(
      try box.todo("__complete", "do", "").stdout
        == "1\t(A) call mom +Family @phone\n3\tbuy milk @store due:2009-02-20\n")
    #expect(try box.sh("__complete", "add", "+").stdout == "+Family\n+Garage\n")
    #expect(try box.sh("__complete", "ls", "@").stdout == "@home\n@phone\n@store\n")
    #expect(
      try box.todo("__complete", "addto", "").stdout
        == "done.txt\nsomeday.txt\ntodo.cfg\ntodo.txt\n")
    #expect(try box.todo("__complete", "help", "bird").stdout == "birdseye\tadd-on\n")
    #expect(try box.todo("__complete", "add", "due:tom").stdout == "due:tomorrow\t2009-02-14\n")
    #expect(try box.todo("__complete").status == 0)
  }

  @Test func completeCommandFollowsTheConfiguration() throws {
    let box = try CompletionTests.sandbox()
    try box.write("elsewhere/todo.txt", "far away task\n")
    try box.write("other.cfg", "export TODO_DIR=\"$HOME/elsewhere\"\n")
    #expect(
      try box.todo("__complete", "-d", box.path("other.cfg"), "do", "").stdout
        == "1\tfar away task\n")
    #expect(try box.sh("__complete", "--", "do", "").stdout.hasPrefix("1\t(A) call mom"))
    let viaEnvironment = try box.todo(
      "__complete", "do", "", environment: ["TODOTXT_CFG_FILE": box.path("other.cfg")])
    #expect(viaEnvironment.stdout == "1\tfar away task\n")
    #expect(
      try box.sh("-d", box.path("other.cfg"), "__complete", "do", "").stdout == "1\tfar away task\n"
    )
  }

  @Test func completeCommandIsHiddenAndHarmless() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME/fresh\"\n")
    let actions = CompletionTests.lines(try box.sh("__complete", "ad").stdout)
    #expect(actions.map { String($0.prefix { $0 != "\t" }) } == ["add", "addm", "addto"])
    // Completing under the name todo.sh creates none of the files running an action would.
    #expect(!box.exists("fresh"))
    for name in ["todo", "todo.sh"] {
      let help = try box.run(name, ["help"]).stdout + box.run(name, ["shorthelp"]).stdout
      #expect(!help.contains("__complete"))
      #expect(help.contains("listpri"))
    }
    #expect(try box.todo("shorthelp").stdout.contains("completions"))
    #expect(!(try box.sh("shorthelp").stdout.contains("completions")))
    #expect(!(try box.todo("__complet").stderr.contains("__complete'")))
  }

  // MARK: bash

  /// What bash would offer for `line` (the text before the cursor): the script is sourced,
  /// `COMP_LINE`, `COMP_POINT`, `COMP_WORDS` and `COMP_CWORD` are set as bash sets them
  /// (splitting at blanks, ':' and '='), `_todo` runs, and `COMPREPLY` is printed.
  static func bash(_ box: Sandbox, _ line: String) throws -> [String] {
    let script = """
      source "$1"
      COMP_LINE=$2 COMP_POINT=${#2}
      COMP_WORDS=()
      read -ra blanks <<<"$COMP_LINE"
      for word in "${blanks[@]}"; do
        while [[ $word =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
          [[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
          COMP_WORDS+=("${BASH_REMATCH[2]}")
          word=${BASH_REMATCH[3]}
        done
        [[ -n $word ]] && COMP_WORDS+=("$word")
      done
      [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      _todo
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let path = completionsDirectory.appendingPathComponent("todo.bash").path
    let run = try CompletionTests.run(box, "bash", ["--norc", "-c", script, "bash", path, line])
    #expect(run.stderr == "")
    return lines(run.stdout)
  }

  @Test func bashCompletesActionsOptionsAndValues() throws {
    let box = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box, "todo ad") == ["add", "addm", "addto"])
    #expect(try CompletionTests.bash(box, "todo.sh ad") == ["add", "addm", "addto"])
    #expect(try CompletionTests.bash(box, "todo com") == ["command", "completions"])
    #expect(try CompletionTests.bash(box, "todo.sh com") == ["command"])
    #expect(try CompletionTests.bash(box, "todo bi") == ["birdseye"])
    #expect(try CompletionTests.bash(box, "todo -").contains("--plain"))
    #expect(!(try CompletionTests.bash(box, "todo.sh -").contains("--plain")))
    #expect(try CompletionTests.bash(box, "todo -p -").contains("-x"))
    #expect(try CompletionTests.bash(box, "todo --color=n") == ["never"])
    #expect(try CompletionTests.bash(box, "todo -d som") == ["someday.txt"])
    #expect(try CompletionTests.bash(box, "todo completions ") == ["bash", "zsh", "fish"])
  }

  @Test func bashCompletesTaskData() throws {
    let box = try CompletionTests.sandbox()
    #expect(try CompletionTests.bash(box, "todo do ") == ["1", "3"])
    #expect(try CompletionTests.bash(box, "todo --if-match x do ") == ["1", "3"])
    #expect(try CompletionTests.bash(box, "todo --if-match s").isEmpty)
    #expect(try CompletionTests.bash(box, "todo.sh pri 3 ").count == 26)
    #expect(try CompletionTests.bash(box, "todo add call +") == ["+Family", "+Garage"])
    #expect(try CompletionTests.bash(box, "todo.sh ls @s") == ["@store"])
    #expect(try CompletionTests.bash(box, "todo mv 1 s") == ["someday.txt"])
    #expect(try CompletionTests.bash(box, "todo help bird") == ["birdseye"])
    // Bash splits at ':'; the candidates replace only what follows it.
    #expect(try CompletionTests.bash(box, "todo add x du") == ["due:"])
    #expect(try CompletionTests.bash(box, "todo add x due:to") == ["today", "tomorrow"])
    #expect(
      try CompletionTests.bash(box, "todo add x rec:") == [":1d", ":1w", ":1m", ":1y", ":1b"])
  }

  @Test func bashFallsBackToTheActionListWhenTheToolCannotRun() throws {
    let box = try CompletionTests.sandbox(config: nil)  // todo.sh stops without a configuration
    #expect(try box.sh("ls").status == 1)
    #expect(try CompletionTests.bash(box, "todo.sh ad") == ["add", "addm", "addto"])
  }

  // MARK: zsh

  /// What zsh offers for `line`: an interactive zsh in a pseudo-terminal (zpty) runs compinit
  /// with `Completions/` on its fpath, a wrapper around compadd records every match and its
  /// display string, and a key bound to complete-word is pressed after the line. Prints
  /// `value<TAB>description` lines.
  static let zshCapture = #"""
    zmodload zsh/zpty || exit 2
    zpty capture zsh -f -i
    zpty -w capture "LINES=100 COLUMNS=200 PS1='' RPROMPT=''; setopt no_beep"
    zpty -w capture "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
    zpty -w capture "zstyle ':completion:*' list-grouped false"
    zpty -w capture 'compadd() {
      local -a found shown; local i display=
      for ((i = 1; i <= $#; i++)); do
        case ${@[i]} in -O|-A|-D) builtin compadd "$@"; return;; -d) display=${@[i+1]};; esac
      done
      if [[ -n $display ]]; then shown=("${(@P)display}"); builtin compadd -O found -D shown "$@"
      else builtin compadd -O found "$@"; fi
      for ((i = 1; i <= ${#found}; i++)); do print -r -- "<<match>>${found[i]}<<shown>>${shown[i]}"; done
      builtin compadd "$@"
    }'
    zpty -w capture 'zle -C capture-complete complete-word _main_complete'
    zpty -w capture 'capture-widget() { zle capture-complete; print -r -- "<<done>>"; }; zle -N capture-widget'
    zpty -w capture 'bindkey "^T" capture-widget; print -r -- "<<ready>>"'
    zpty -r capture output '*<<ready>>*<<ready>>*' || exit 3
    zpty -w -n capture "$2"$'\x14'
    zpty -r capture output '*<<done>>*' || exit 4
    zpty -d capture
    for entry in ${(f)output//$'\r'/}; do
      [[ $entry == *'<<match>>'* ]] || continue
      entry=${entry#*<<match>>}
      value=${entry%%<<shown>>*} shown=${entry#*<<shown>>}
      if [[ $shown == *' -- '* ]]; then print -r -- "$value"$'\t'"${shown#* -- }"; else print -r -- "$value"; fi
    done
    """#

  static func zsh(_ box: Sandbox, _ line: String) throws -> [String] {
    let run = try CompletionTests.run(
      box, "timeout", ["20", "zsh", "-f", "-c", zshCapture, "zsh", completionsDirectory.path, line])
    #expect(run.status == 0, "zsh capture failed: \(run.stderr)")
    return lines(run.stdout)
  }

  @Test func zshCompletesWithDescriptions() throws {
    let box = try CompletionTests.sandbox()
    _ = try CompletionTests.run(box, "zsh", ["-f", "-c", "true"])  // links zsh into the sandbox
    let actions = try CompletionTests.zsh(box, "todo ad")
    #expect(
      actions.map { $0.split(separator: "\t").first.map(String.init) ?? "" } == [
        "add", "addm", "addto",
      ])
    #expect(actions.allSatisfy { $0.contains("\t") })
    #expect(
      try CompletionTests.zsh(box, "todo do ") == [
        "1\t(A) call mom +Family @phone", "3\tbuy milk @store due:2009-02-20",
      ])
    #expect(
      try CompletionTests.zsh(box, "todo.sh del ") == [
        "1\t(A) call mom +Family @phone", "3\tbuy milk @store due:2009-02-20",
      ])
    #expect(
      try CompletionTests.zsh(box, "todo add x due:to") == [
        "due:today\t2009-02-13", "due:tomorrow\t2009-02-14",
      ])
    #expect(try CompletionTests.zsh(box, "todo add @") == ["@home", "@phone", "@store"])
    #expect(
      try CompletionTests.zsh(box, "todo.sh com").map { String($0.prefix { $0 != "\t" }) } == [
        "command"
      ])
    #expect(
      try CompletionTests.zsh(box, "todo --col").map { String($0.prefix { $0 != "\t" }) }
        == ["--color=always", "--color=auto", "--color=never"])
  }

  // MARK: fish

  static func fish(_ box: Sandbox, _ line: String) throws -> [String] {
    let path = completionsDirectory.appendingPathComponent("todo.fish").path
    let run = try CompletionTests.run(
      box, "fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path, line])
    #expect(run.stderr == "")
    return lines(run.stdout)
  }

  @Test func fishCompletesWithDescriptions() throws {
    let box = try CompletionTests.sandbox()
    #expect(
      try CompletionTests.fish(box, "todo do ") == [
        "1\t(A) call mom +Family @phone", "3\tbuy milk @store due:2009-02-20",
      ])
    #expect(
      try CompletionTests.fish(box, "todo.sh dp ") == [
        "1\t(A) call mom +Family @phone", "3\tbuy milk @store due:2009-02-20",
      ])
    #expect(
      try CompletionTests.fish(box, "todo ad").map { String($0.prefix { $0 != "\t" }) } == [
        "add", "addm", "addto",
      ])
    #expect(try CompletionTests.fish(box, "todo add 'call mom' +") == ["+Family", "+Garage"])
    #expect(try CompletionTests.fish(box, "todo add x due:tom") == ["due:tomorrow\t2009-02-14"])
    #expect(try CompletionTests.fish(box, "todo addto s") == ["someday.txt"])
    #expect(
      try CompletionTests.fish(box, "todo.sh com").map { String($0.prefix { $0 != "\t" }) } == [
        "command"
      ])
    #expect(try CompletionTests.fish(box, "todo -d som") == ["someday.txt"])
  }
}

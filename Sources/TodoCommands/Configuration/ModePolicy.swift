/// Everything the two names do differently, as one value.
///
/// Under the name `todo.sh` the tool is a drop-in for todo.sh: scripts and add-ons depend on
/// its words, exit statuses and quirks. Under the name `todo` the same actions have modern
/// defaults. Code that behaves differently asks one of these fields (never the name), so the
/// differences are listed here once, each with its reason, and a new one has to be named.
package struct ModePolicy: Sendable, Equatable {
  /// The program's own name, as the machine-readable dump and `info` report it.
  package var name: String

  // MARK: The command line

  /// Long options before the action (`--color`, `--if-match`), and options after it parsed
  /// against the command's declaration: an unknown one is an error naming the nearest, `--`
  /// ends them, `ACTION --help` prints the command's help. todo.sh knows only its letters
  /// before the action and passes every later word to the action.
  package var parsesLongOptions: Bool
  /// A mistake in the options, or an unknown action, is named in one line (todo.sh prints
  /// its usage instead, and scripts test for that).
  package var namesMistakes: Bool
  /// Commands todo.sh does not have (`tag`, `postpone`, `note`, `sync` …) exist.
  package var offersNativeCommands: Bool
  /// A command line is checked whole on the snapshot it changes before anything is written
  /// (todo.sh works through a list of task numbers and stops at the bad one, keeping the
  /// changes before it).
  package var validatesWholeLine: Bool
  /// Started on a terminal without an action, the interactive shell opens (todo.sh prints
  /// its usage).
  package var opensShellWithoutAction: Bool

  // MARK: Files and configuration

  /// todo.sh makes the directory and creates todo.txt, done.txt and report.txt on every
  /// run; `todo` creates a file when it first writes it.
  package var createsFilesOnEveryRun: Bool
  /// The configuration must be a regular file and an error in it stops the command; todo.sh
  /// sources whatever is there and carries on.
  package var strictConfiguration: Bool
  /// A list holding unresolved conflict markers is refused by commands that would read the
  /// marker lines as tasks (`todo conflicts`/`todo resolve` pick the sides).
  package var refusesConflictMarkers: Bool
  /// `--color`, and colour only when the output is a terminal that takes it (`NO_COLOR` and
  /// `TERM=dumb` turn it off); todo.sh colours unless `-p` says plain.
  package var colourFollowsTerminal: Bool
  /// Projects and contexts have colours of their own and done tasks are faint; todo.sh
  /// colours only priorities and done tasks.
  package var highlightsProjectsAndContexts: Bool
  /// No configuration file is needed: without one (or one that sets no `TODO_DIR`) the list
  /// lives in `${XDG_DATA_HOME:-~/.local/share}/todo`. todo.sh stops when it finds none.
  package var worksWithoutConfiguration: Bool
  /// `do` moves done tasks to done.txt straight away (`TODOTXT_AUTO_ARCHIVE` unset): todo.sh
  /// does; `todo` leaves them until `archive`, so task numbers stay put.
  package var autoArchivesByDefault: Bool
  /// `add` writes today's date in front of a new task (`TODOTXT_DATE_ON_ADD` unset).
  package var datesNewTasksByDefault: Bool
  /// The first task added to a list nobody configured says where the list lives, and
  /// `--version` prints the paths in use.
  package var explainsWhereTheListLives: Bool

  // MARK: Tasks

  /// Tasks are read by the todo.txt grammar: `(a)` is text, a done task keeps its priority as
  /// a `pri:` tag, a blank line is not a task, `rec:` tasks come back when done, `do` leaves
  /// done tasks in place until `archive`. todo.sh works on the line's bytes.
  package var readsTasksByGrammar: Bool
  /// Words as priorities (`high`, `medium`, `low`) and as dates (`due:fri`, `t:+2w`), resolved
  /// and checked when typed; todo.sh stores what it is given.
  package var resolvesTypedValues: Bool

  // MARK: Listing and output

  /// `ls`, `lsa` and `lsp` take the listing options (`--sort`, `--format`, `--group` …), draw
  /// the readable listing on a terminal, skip blank lines and see lines without a CR or byte
  /// order mark. todo.sh's listing is its pipeline of grep, sed and sort over raw lines.
  package var readableListing: Bool
  /// A search term is a word of the task's text (never its number) and needs no locale;
  /// todo.sh's terms are grep patterns in the user's locale, matched against `NR text`.
  package var wordSearchTerms: Bool
  /// Control characters in task text are shown as `^X` on a terminal, so a task cannot change
  /// the terminal's state; todo.sh writes the bytes.
  package var escapesControlsOnTerminal: Bool
  /// Output longer than the terminal goes through the pager.
  package var pagesLongOutput: Bool
  /// A listing's summary (`--` and `TODO: 2 of 5 tasks shown`) goes to standard error when
  /// standard output is not a terminal, so that `todo ls | wc -l` counts tasks and a script
  /// reads only task lines; todo.sh prints it on standard output, where its scripts expect
  /// it.
  package var summarizesOnErrorWhenPiped: Bool
  /// Help lists each command's options, and what holds only under the name `todo`
  /// (``CommandSpec/nativeDiscussion``); todo.sh's help gives its usage lines only.
  package var describesOptions: Bool
  /// Completion offers only the tasks a command can act on (`do <TAB>`: open tasks, `undo-done
  /// <TAB>`: done ones); todo.sh's completion offers every task.
  package var completesByTaskState: Bool
  /// `report` exits 1 when it prints nothing (todo.sh's last command is a failing test).
  package var quietReportFails: Bool

  /// Under the name `todo`.
  package static let native = ModePolicy(
    name: "todo", parsesLongOptions: true, namesMistakes: true, offersNativeCommands: true, validatesWholeLine: true,
    opensShellWithoutAction: true, createsFilesOnEveryRun: false, strictConfiguration: true,
    refusesConflictMarkers: true, colourFollowsTerminal: true, highlightsProjectsAndContexts: true,
    worksWithoutConfiguration: true, autoArchivesByDefault: false,
    datesNewTasksByDefault: true, explainsWhereTheListLives: true, readsTasksByGrammar: true,
    resolvesTypedValues: true, readableListing: true, wordSearchTerms: true, escapesControlsOnTerminal: true,
    pagesLongOutput: true, summarizesOnErrorWhenPiped: true, describesOptions: true, completesByTaskState: true,
    quietReportFails: false)

  /// Under the name `todo.sh`: todo.sh's behaviour, quirks included.
  package static let todoSh = ModePolicy(
    name: "todo.sh", parsesLongOptions: false, namesMistakes: false, offersNativeCommands: false,
    validatesWholeLine: false, opensShellWithoutAction: false, createsFilesOnEveryRun: true,
    strictConfiguration: false, refusesConflictMarkers: false, colourFollowsTerminal: false,
    highlightsProjectsAndContexts: false, worksWithoutConfiguration: false, autoArchivesByDefault: true, datesNewTasksByDefault: false, explainsWhereTheListLives: false,
    readsTasksByGrammar: false, resolvesTypedValues: false, readableListing: false, wordSearchTerms: false,
    escapesControlsOnTerminal: false, pagesLongOutput: false, summarizesOnErrorWhenPiped: false, describesOptions: false,
    completesByTaskState: false,
    quietReportFails: true)
}

extension Mode {
  /// What this name does differently (see ``ModePolicy``).
  package var policy: ModePolicy { self == .native ? .native : .todoSh }
}

extension Settings {
  /// The policy of the name the tool was started under.
  package var policy: ModePolicy { mode.policy }
}

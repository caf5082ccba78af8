// Times the full-screen view at a list's size: from reading the file to the first screen,
// then what each kind of key costs (handling it and drawing the screen it leaves), as the
// view does them, in-process. Usage: todo-view-bench FILE [COLUMNS ROWS]
//
// The list is copied into a temporary folder first (`x` changes it). Each figure is the
// median of its repetitions, in milliseconds.
@preconcurrency import Glibc
import TodoCommands
import TodoStore
import TodoTxt
import TodoView

func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  fputs("usage: todo-view-bench FILE [COLUMNS ROWS]\n", stderr)
  exit(2)
}
let columns = arguments.count > 3 ? Int(arguments[2]) ?? 100 : 100
let rows = arguments.count > 3 ? Int(arguments[3]) ?? 40 : 40
var template = Array("/tmp/todo-view-bench-XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else { exit(1) }
let folder = String(cString: made)
defer { _ = system("rm -rf '\(folder)'") }
guard system("cp '\(arguments[1])' '\(folder)/todo.txt'") == 0 else { exit(1) }
let environment = [
  "HOME": folder, "TODO_DIR": folder, "PATH": "/usr/bin:/bin", "XDG_STATE_HOME": folder + "/state",
  "TODOTXT_CFG_FILE": folder + "/none.cfg", "TZ": "UTC",
]

let start = now()
let settings = Settings(
  mode: .native,
  variables: ["TODO_FILE": folder + "/todo.txt", "DONE_FILE": folder + "/done.txt", "TODO_DIR": folder, "TODO_SH": "todo"])
let clock = Clock.current(environment: environment)
let store = TodoStore(stateDirectory: folder + "/state/todo")
let document = try TodoDocument(path: folder + "/todo.txt", store: store)
let cache = SessionCache()
let session = ViewSession(
  document: document, settings: settings, today: clock.today, bindings: try KeyBindings()
) { words, shown in
  let console = CapturingConsole()
  cache.shownTasks = shown
  let status = TodoCLI.run(
    arguments: ["todo"] + words, environment: environment, console: console, input: ScriptedInput(""), cache: cache)
  return CommandOutcome(status: status, output: "", errors: String(decoding: console.errors, as: UTF8.self))
}
let renderer = ScreenRenderer(settings: settings, today: clock.today)
session.pageHeight = ScreenRenderer.listHeight(session, width: columns, height: rows)
var frame = renderer.render(session, width: columns, height: rows)
let firstScreen = now() - start

/// Handles `keys` then draws; the milliseconds taken.
@MainActor func time(_ keys: [Key]) -> Double {
  let begin = now()
  for key in keys { session.handle(key) }
  frame = renderer.render(session, width: columns, height: rows)
  return now() - begin
}

var figures: [(String, Double)] = [("first screen", firstScreen)]
figures.append(("j (next task)", median((0..<50).map { _ in time([.character("j")]) })))
figures.append(("G (last task)", median((0..<5).map { _ in time([.character("G")]) + time([.character("g")]) }) / 2))
figures.append(("PgDn", median((0..<20).map { _ in time([.pageDown]) })))
figures.append(("Enter (details)", median((0..<10).map { _ in time([.enter]) })))
_ = time([.enter])
var typing: [Double] = []
_ = time([.character("/")])
for character in "+project1" { typing.append(time([.character(character)])) }
figures.append(("rows of a filter, a key (off the loop)", median(typing)))
_ = time([.escape])
_ = time([.escape])
figures.append(("s: rows by priority (off the loop)", time([.character("s")])))
_ = time([.character("s")])
_ = time([.character("s")])
_ = time([.character("s")])
_ = time([.character("s")])
_ = time([.character("s")])
figures.append(("x (complete: do N, reread)", median((0..<3).map { _ in time([.character("x")]) })))
figures.append(("u (undo, reread)", time([.character("u")])))
for (name, value) in figures {
  let tenths = Int((value * 10).rounded())
  let shown = "\(tenths / 10).\(tenths % 10) ms"
  print(name + String(repeating: " ", count: max(1, 40 - name.count)) + String(repeating: " ", count: max(0, 12 - shown.count)) + shown)
}

import Foundation
import Testing

/// `todo projects` and `todo contexts`: counts worked out by hand (today 2009-02-13), and the
/// todo.sh lists `lsprj`/`lsc` left as they were.
@Suite struct ProjectsCommandTests {
  static let tasks = """
    (A) call mom +Family @phone due:2009-02-10
    buy milk +Home @store due:2009-02-13
    fix sink +Home @home due:2009-02-01
    x 2009-02-11 paid bill +Home @home
    plan +home trip
    hidden +Family h:1
    2009-02-01 +Travel book flight @phone due:2009-02-12 +Travel

    """
  static let done = """
    x 2009-02-01 fix bike +Garage @home
    x 2009-01-20 sweep +Home

    """

  static func sandbox() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", tasks)
    try box.write("done.txt", done)
    return box
  }

  /// Family: open 1 and 6, overdue 1 (due the 10th). Home: open 2 and 3, overdue 3 (2 is due
  /// today), done 4 and sweep. home: its own name. Travel: once though named twice, overdue
  /// (due the 12th). Garage: only done, in done.txt.
  static let rows = [
    "Family": "+Family     2        1     0", "Garage": "+Garage     0        0     1",
    "Home": "+Home       2        1     2", "home": "+home       1        0     0",
    "Travel": "+Travel     1        1     0",
  ]

  static func table(_ names: [String]) -> String {
    (["PROJECT  OPEN  OVERDUE  DONE"] + names.map { rows[$0] ?? "?" }).map { $0 + "\n" }.joined()
  }

  @Test func projectsCountOpenOverdueAndDoneByName() throws {
    let box = try ProjectsCommandTests.sandbox()
    let run = try box.todo("projects")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    // By name, case aside; the two spellings of home, upper case first.
    #expect(run.stdout == ProjectsCommandTests.table(["Family", "Garage", "Home", "home", "Travel"]))
  }

  @Test func sortKeysAndDirections() throws {
    let box = try ProjectsCommandTests.sandbox()
    // Most open first; equal counts by name.
    #expect(
      try box.todo("projects", "--sort", "-open").stdout
        == ProjectsCommandTests.table(["Family", "Home", "home", "Travel", "Garage"]))
    #expect(
      try box.todo("projects", "--sort", "overdue").stdout
        == ProjectsCommandTests.table(["Garage", "home", "Family", "Home", "Travel"]))
    #expect(
      try box.todo("projects", "--sort", "-done,-name").stdout
        == ProjectsCommandTests.table(["Home", "Garage", "Travel", "home", "Family"]))
    #expect(
      try box.todo("projects", "--sort=-name").stdout
        == ProjectsCommandTests.table(["Travel", "home", "Home", "Garage", "Family"]))
  }

  @Test func contextsAsATableAndAsJSON() throws {
    let box = try ProjectsCommandTests.sandbox()
    // phone: 1 and 7, both overdue. store: due today. home: 3 open and overdue; 4 and the
    // bike in done.txt done.
    #expect(
      try box.todo("contexts").stdout == """
        CONTEXT  OPEN  OVERDUE  DONE
        @home       1        1     2
        @phone      2        2     0
        @store      1        0     0

        """)
    #expect(
      try box.todo("contexts", "--format", "json").stdout == """
        [
        {"name":"home","open":1,"overdue":1,"done":2},
        {"name":"phone","open":2,"overdue":2,"done":0},
        {"name":"store","open":1,"overdue":0,"done":0}
        ]

        """)
  }

  @Test func emptyAndMissingFiles() throws {
    let box = try Sandbox()
    #expect(try box.todo("projects").stdout == "PROJECT  OPEN  OVERDUE  DONE\n")
    #expect(try box.todo("projects", "--format", "json").stdout == "[]\n")
    // Without done.txt only todo.txt's done tasks count.
    try box.write("todo.txt", ProjectsCommandTests.tasks)
    let rows = try box.todo("projects", "--sort", "-done").stdout.split(separator: "\n")
    #expect(rows[1] == "+Home       2        1     1")
  }

  @Test func wideCountsAndNamesStayAligned() throws {
    let box = try Sandbox()
    try box.write("todo.txt", String(repeating: "t +a\n", count: 12_345) + "u +a_rather_long_name\n")
    #expect(
      try box.todo("projects").stdout == """
        PROJECT               OPEN  OVERDUE  DONE
        +a                   12345        0     0
        +a_rather_long_name      1        0     0

        """)
  }

  @Test func badOptionsAreRefused() throws {
    let box = try ProjectsCommandTests.sandbox()
    for arguments in [
      ["projects", "--sort", "size"], ["projects", "--format", "xml"], ["contexts", "extra"],
      ["projects", "--sort"], ["contexts", "--all"],
    ] {
      let run = try box.run("todo", arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.stdout == "", "\(arguments)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    #expect(try box.todo("projects", "--sort", "size").stderr.contains("name, open, overdue, done"))
    #expect(try box.sh("projects").status != 0)
  }

  @Test func theTodoShListsAreUnchanged() throws {
    let box = try ProjectsCommandTests.sandbox()
    // Words of todo.txt only, sorted by byte, as todo.sh prints them.
    for run in [try box.todo("lsprj"), try box.sh("lsprj"), try box.todo("listproj")] {
      #expect(run.stdout == "+Family\n+Home\n+Travel\n+home\n")
    }
    for run in [try box.todo("lsc"), try box.sh("listcon")] {
      #expect(run.stdout == "@home\n@phone\n@store\n")
    }
  }
}

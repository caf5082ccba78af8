import Foundation
import Testing

/// The query language through the built binary: `ls -q`, `find`, views, bulk edits and
/// `ls --why`, with the clock at 2009-02-13.
@Suite struct QueryTests {
  static let file = """
    (A) Call Mom +family @phone due:2009-02-12
    (B) Clean +Kitchen @home due:2009-02-20
    Buy milk @store
    x 2009-02-10 2009-02-01 Old thing +Kitchen pri:C
    Later +Kitchen t:2009-03-01
    Secret h:1
    Parent id:7
    Child p:7 @home

    """

  func box() throws -> Sandbox {
    let box = try Sandbox()
    try box.write("todo.txt", QueryTests.file)
    return box
  }

  @Test func listWithAQuery() throws {
    let box = try box()
    let run = try box.todo("ls", "-q", "+Kitchen or @phone", merged: true)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        1 (A) Call Mom +family @phone due:2009-02-12
        2 (B) Clean +Kitchen @home due:2009-02-20
        --
        TODO: 2 of 8 tasks shown

        """)
    // The done task 4 is listed to a query that asks about being done, or with --all.
    #expect(try box.todo("ls", "-q", "+Kitchen done", "--format", "{n}").stdout == "4\n")
    #expect(try box.todo("ls", "-q", "+Kitchen completed:2009-02", "--format", "{n}").stdout == "4\n")
    #expect(try box.todo("ls", "-q", "+Kitchen not open", "--format", "{n}").stdout == "4\n")
    #expect(try box.todo("ls", "--all", "-q", "+Kitchen or @phone", "--format", "{n}").stdout == "1\n2\n5\n4\n")
    // The hiding rules of ls still apply; --all lifts them.
    #expect(try box.todo("ls", "--all", "-q", "+Kitchen open").stdout.contains("5 Later +Kitchen t:2009-03-01"))
  }

  @Test func findTakesTheQueryAsWords() throws {
    let box = try box()
    #expect(try box.todo("find", "due:<today").stdout.hasPrefix("1 (A) Call Mom"))
    #expect(try box.todo("find", "pri>=B", "-@phone", "--format", "{n}").stdout == "2\n")
    #expect(try box.todo("find", "done").stdout.hasPrefix("4 x 2009-02-10"))
    #expect(try box.todo("find", "/^[a-z]+ milk/i").stdout.hasPrefix("3 Buy milk"))
    #expect(try box.todo("find", "milk", "--format", "{n}").stdout.hasPrefix("3\n"))
    // A word ignores case, as a term of ls does.
    #expect(try box.todo("find", "MILK", "--format", "{n}").stdout == "3\n")
    // A template prints its records only: none here.
    #expect(try box.todo("find", "cheese", "--format", "{n}").stdout == "")
  }

  @Test func queryErrorsPointAtTheColumn() throws {
    let box = try box()
    let run = try box.todo("find", "(+Kitchen or @home")
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "todo: query error at 19: expected ')'\n  (+Kitchen or @home\n                    ^\n")
    #expect(try box.todo("ls", "-q", "due:<someday").stderr.hasPrefix("todo: query error at 6: 'someday' is not a date"))
  }

  @Test func todoShModeKeepsItsTerms() throws {
    let box = try box()
    // Under the name todo.sh, -q is a search term like any other (it hides lines with a q).
    let run = try box.sh("ls", "-q", "Kitchen")
    #expect(run.stderr == "")
    #expect(run.stdout.contains("2 (B) Clean +Kitchen @home due:2009-02-20"))
    #expect(try box.sh("find", "x").status != 0)
  }

  @Test func views() throws {
    let box = try Sandbox(
      config: "export TODO_DIR=\"$HOME\"\nTODO_VIEW_today='due:<=today or pri:A'\nTODO_VIEW_kitchen='+Kitchen'\n")
    try box.write("todo.txt", QueryTests.file)
    #expect(try box.todo("view").stdout == "kitchen  +Kitchen\ntoday    due:<=today or pri:A\n")
    #expect(try box.todo("view", "today", merged: true).stdout == "1 (A) Call Mom +family @phone due:2009-02-12\n--\nTODO: 1 of 8 tasks shown\n")
    #expect(try box.todo("view", "kitchen", "open", "--format", "{n}").stdout == "2\n")
    // A view lists open tasks unless its query asks about being done: a done task keeps its
    // priority as pri:A, and still stays out of `today`.
    try box.write("todo.txt", QueryTests.file + "x 2009-02-12 Filed taxes pri:A\n")
    #expect(try box.todo("view", "today", "--format", "{n}").stdout == "1\n")
    #expect(try box.todo("view", "today", "--all", "--format", "{n}").stdout == "1\n9\n")
    let missing = try box.todo("view", "nope")
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("todo: no view 'nope'"))
    #expect(try box.todo("__complete", "view", "").stdout.contains("kitchen"))
  }

  @Test func groupedListing() throws {
    let box = try box()
    let run = try box.todo("ls", "--group", "project", "-q", "+Kitchen or +family", merged: true)
    #expect(
      run.stdout == """
        +family
        1 (A) Call Mom +family @phone due:2009-02-12

        +Kitchen
        2 (B) Clean +Kitchen @home due:2009-02-20
        --
        TODO: 2 of 8 tasks shown

        """)
    let due = try box.todo("ls", "--group", "due", "-q", "has:due").stdout
    #expect(due.hasPrefix("due 2009-02-12 (overdue)\n1 (A) Call Mom"))
    #expect(due.contains("\n\ndue 2009-02-20\n2 (B) Clean"))
    #expect(try box.todo("ls", "--group", "size").stderr.contains("--group"))
  }

  @Test func whyExplainsEveryTask() throws {
    let box = try box()
    let out = try box.todo("ls", "--why", "-q", "open -@store").stdout
    #expect(out.contains("1 (A) Call Mom +family @phone due:2009-02-12\n    shown 1st: sorted by the whole line ignoring case"))
    // A task waiting for an open task is left out of ls (dep), and --why says so.
    #expect(out.contains("7 Parent id:7\n    hidden: blocked by task 8 (--all shows it)"))
    #expect(out.contains("3 Buy milk @store\n    excluded by the query: not @store does not hold"))
    #expect(out.contains("4 x 2009-02-10 2009-02-01 Old thing +Kitchen pri:C\n    excluded by the query: open does not hold"))
    #expect(out.contains("5 Later +Kitchen t:2009-03-01\n    hidden until its threshold t:2009-03-01, 16 days ahead"))
    #expect(out.contains("6 Secret h:1\n    hidden by h:1"))
    // Without a query about being done, a done task is left out as done.
    let plain = try box.todo("ls", "--why").stdout
    #expect(plain.contains("4 x 2009-02-10 2009-02-01 Old thing +Kitchen pri:C\n    done: it stays in the file until archive"))
    let terms = try box.todo("ls", "--why", "--sort", "due", "milk").stdout
    #expect(terms.contains("3 Buy milk @store\n    shown 1st: sorted by due none, then line number"))
    // Tasks 1, 2 and 8 lack the word and have no reason of their own: said once.
    #expect(terms.contains("\n3 tasks excluded by the term 'milk' (no match): 1-2, 8\n"))
  }

  @Test func bulkEditsAskFirst() throws {
    let box = try box()
    // More than one task: the tasks are shown and the answer is read.
    let declined = try box.todo("do", "-q", "+Kitchen open", input: "n")
    #expect(declined.status == 1)
    #expect(declined.stdout == "2 (B) Clean +Kitchen @home due:2009-02-20\n5 Later +Kitchen t:2009-03-01\n\n")
    #expect(declined.stderr == "todo: nothing changed\n")
    #expect(box.read("todo.txt") == QueryTests.file)
    let accepted = try box.todo("do", "-q", "+Kitchen open", input: "y")
    #expect(accepted.status == 0)
    #expect(box.read("todo.txt").contains("x 2009-02-13 Later +Kitchen t:2009-03-01\n"))
    #expect(box.read("todo.txt").contains("x 2009-02-13 Clean +Kitchen @home due:2009-02-20 pri:B\n"))
    // One change: one undo puts both back.
    try box.todo("undo")
    #expect(box.read("todo.txt") == QueryTests.file)
  }

  @Test func bulkEditsWithForce() throws {
    let box = try box()
    #expect(try box.todo("pri", "-q", "@home", "C", "-f").status == 0)
    #expect(box.read("todo.txt").contains("(C) Clean +Kitchen @home"))
    #expect(box.read("todo.txt").contains("(C) Child p:7 @home"))
    #expect(try box.todo("depri", "-f", "-q", "pri:C open").status == 0)
    #expect(!box.read("todo.txt").contains("(C)"))
    #expect(try box.todo("del", "-q", "h:1").status == 0)
    #expect(!box.read("todo.txt").contains("Secret"))
    let none = try box.todo("do", "-q", "+Nothing")
    #expect(none.status == 1)
    #expect(none.stderr == "todo: no task matches '+Nothing'; nothing changed\n")
  }
}

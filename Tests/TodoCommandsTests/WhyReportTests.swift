import Testing

@testable import TodoCommands

/// `ls --why` and `lsa --why` (``WhyReport``): each task with the reason it is shown where it
/// is or left out, the tasks a search leaves out said once as runs of numbers.
@Suite struct WhyReportTests {
  /// The tasks a term leaves out, over both files of `lsa`, are runs in each file named by
  /// it; a run stops at a blank line and at a line of digits alone, which no listing shows and
  /// the report leaves out.
  @Test func aTermsExclusionsAreRunsOfNumbersInEachFile() throws {
    let list = try CommandFixture(
      todo: "Buy milk\nCall Mom\nFix bike\n   \n12 34\nWater plants\n", done: "x 2009-02-01 Buy bread\nx 2009-02-02 Walk dog\n")
    let run = list.todo("lsa", "--why", "buy")
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("todo.txt:1 Buy milk\n    shown 1st: "), "\(run.stdout)")
    #expect(run.stdout.contains("done.txt:1 x 2009-02-01 Buy bread\n    shown 2nd: "), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("\n4 tasks excluded by the term 'buy' (no match): todo.txt:2-3, todo.txt:6, done.txt:2\n"), "\(run.stdout)")
    #expect(!run.stdout.contains("12 34"))
  }

  /// Runs in one file carry no file name, and an exclusion (`-word`) is a reason of its own.
  @Test func runsInOneFileAreBareNumbers() throws {
    let list = try CommandFixture(todo: "a milk\nb milk\nc\nd milk\ne\nf\ng\n")
    let out = list.todo("ls", "--why", "-milk").stdout
    #expect(out.hasSuffix("\n3 tasks excluded by the term '-milk' (it matches): 1-2, 4\n"), "\(out)")
    #expect(out.hasPrefix("3 c\n    shown 1st: "), "\(out)")
  }

  /// A search that leaves out one task shows that task whole, not a count.
  @Test func oneExcludedTaskIsShownWhole() throws {
    let list = try CommandFixture(todo: "Buy milk\nCall Mom\n")
    let out = list.todo("ls", "--why", "milk").stdout
    #expect(out.hasSuffix("\n2 Call Mom\n    excluded by the term 'milk' (no match)\n"), "\(out)")
  }

  /// A parent whose `id:` an open task names in `p:` is hidden as blocked; listed with
  /// `--all`, it is said to be blocked after its order. A done child blocks nothing.
  @Test func blockedParentsNameTheirOpenChildren() throws {
    let list = try CommandFixture(todo: "Parent id:7\nChild p:7\nOther id:8\nx 2009-02-01 Done child p:8\n")
    let out = list.todo("ls", "--why").stdout
    #expect(out.contains("1 Parent id:7\n    hidden: blocked by task 2 (--all shows it)\n"), "\(out)")
    #expect(out.contains("3 Other id:8\n    shown "), "\(out)")
    #expect(!out.contains("3 Other id:8\n    shown 1st: sorted by the whole line ignoring case, so priority, then creation date, then text (\"Other id:8\"); blocked"))
    let all = list.todo("ls", "--all", "--why").stdout
    #expect(all.contains("1 Parent id:7\n    shown "), "\(all)")
    #expect(all.contains("; blocked by task 2\n"), "\(all)")
  }

  /// Under `--sort urgency` a task's score counts the open tasks waiting for it across the
  /// whole list: a child with one open parent waiting scores the blocks term's 2.0 alone
  /// (no due date, priority or creation date).
  @Test func urgencyCountsTheWaitingTasksOfTheWholeList() throws {
    let list = try CommandFixture(todo: "Parent id:7\nChild p:7\n")
    let out = list.todo("ls", "--why", "--sort", "urgency").stdout
    #expect(out.hasPrefix("2 Child p:7\n    shown 1st: sorted by urgency 2.0, then line number\n"), "\(out)")
  }

  /// The verbose summary counts the lines that are tasks: a blank line is none, a line of
  /// digits is one left out.
  @Test func theSummaryCountsTasksNotBlankLines() throws {
    let list = try CommandFixture(todo: "Buy milk\n\n   \n12 34\nCall Mom\n")
    let run = list.todo("-v", "ls", "--why", "milk")
    #expect(run.combined.contains("1 shown, 2 not shown"), "\(run.combined)")
  }
}

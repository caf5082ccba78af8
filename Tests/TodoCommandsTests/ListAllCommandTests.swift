import Foundation
import Testing

/// `lsa`: todo.txt and done.txt listed together, done.txt's tasks numbered 0.
@Suite struct ListAllCommandTests {
  @Test func todoShListsBothFilesWithThreeCounts() throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\n")
    let run = list.sh("-p", "lsa")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "2 (B) Buy milk\n1 Call mom\n0 x 2009-02-01 Old one\n--\nTODO: 2 of 2 tasks shown\n"
        + "DONE: 1 of 1 tasks shown\ntotal 3 of 3 tasks shown\n")
  }

  @Test func nativeSameListingWithTheSummaryOnStandardError() throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\n")
    let run = list.todo("lsa")
    #expect(run.status == 0)
    #expect(run.stdout == "2 (B) Buy milk\n1 Call mom\n0 x 2009-02-01 Old one\n")
    #expect(run.stderr == "--\nTODO: 2 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 3 of 3 tasks shown\n")
  }

  @Test(arguments: ["todo", "todo.sh"])
  func aTermFiltersBothFiles(name: String) throws {
    let list = try CommandFixture(todo: "Call mom\n(B) Buy milk\n", done: "x 2009-02-01 Old one\nx 2009-02-02 Old milk\n")
    let run = list.run(name, ["-p", "lsa", "milk"])
    #expect(run.stdout.hasPrefix("2 (B) Buy milk\n0 x 2009-02-02 Old milk\n"))
    #expect(run.combined.hasSuffix("TODO: 1 of 2 tasks shown\nDONE: 1 of 2 tasks shown\ntotal 2 of 4 tasks shown\n"))
  }

  /// Under the name todo each file's tasks are listed (CRLF endings and done.txt's byte
  /// order mark dropped, a todo.txt without a final newline ending its last task there);
  /// under the name todo.sh the files are joined as `cat` joins them, so that task runs into
  /// done.txt's first line, byte order mark and CR included (as todo.sh 2.11 lists it).
  @Test func eachFilesTasksUnderTodoTheJoinedBytesUnderTodoSh() throws {
    let list = try CommandFixture(todo: "Call mom\r\n(B) Buy milk", done: "\u{FEFF}x 2009-02-01 Old one\r\n")
    #expect(list.todo("-p", "lsa").stdout == "2 (B) Buy milk\n1 Call mom\n0 x 2009-02-01 Old one\n")
    let joined = list.sh("-p", "lsa")
    #expect(joined.stdout.hasPrefix("2 (B) Buy milk\u{FEFF}x 2009-02-01 Old one\r\n1 Call mom\r\n--\n"))
    #expect(joined.stdout.hasSuffix("TODO: 2 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 3 of 3 tasks shown\n"))
  }

  @Test func nativeRefusesAControlCharacterInATerm() throws {
    let list = try CommandFixture(todo: "Call mom\n", done: "x 2009-02-01 Old one\n")
    list.todo("lsa", "\u{9B}2J").expectOneLineError(containing: "control character U+009B")
  }

  /// The readable layout draws each row's number from the row, not from its text: done.txt's
  /// tasks show 0 in `lsa` and in `lsa --group` alike.
  @Test func doneTasksShowZeroInTheLayoutWhetherGroupedOrNot() throws {
    let list = try CommandFixture(todo: "Call mom +home\n(B) Buy milk +home\n", done: "x 2009-02-01 Old one +home\n")
    let layout = ["TODO_LAYOUT": "readable", "TODOTXT_PLAIN": "1"]
    let plain = list.run("todo", ["lsa"], environment: layout)
    let grouped = list.run("todo", ["lsa", "--group", "project"], environment: layout)
    #expect(plain.status == 0 && grouped.status == 0)
    let doneLine = plain.stdout.split(separator: "\n").first { $0.contains("Old one") }
    #expect(doneLine.map { $0.hasPrefix("0 ") } == true, "\(plain.stdout)")
    #expect(grouped.stdout.split(separator: "\n").contains { $0 == doneLine }, "\(grouped.stdout)")
  }

  /// todo.sh's awk step rebuilds each line from its fields: runs of blanks become one space,
  /// and a line of only blanks is its number alone.
  @Test func theAwkStepRebuildsTheLinesFromTheirFields() throws {
    let list = try CommandFixture(todo: "call  mum\tsoon\n\t\n", done: "x  2009-02-01   old\n")
    let run = list.sh("-p", "lsa")
    #expect(run.stdout.hasPrefix("2\n1 call mum soon\n0 x 2009-02-01 old\n"), "\(run.stdout)")
  }
}

/// `lsa`'s awk step and its order, where a listing that still numbers the files' own lines
/// must give what todo.sh's pipeline of made lines gives.
@Suite struct ListAllOrderTests {
  /// Keys equal but for case are ordered by the whole lines, so by their numbers (done.txt's
  /// 0 first), and among done.txt's lines `B` before `b` (bytes), whatever their order in the
  /// file. With an empty todo.txt done.txt's lines show 0 in one place (awk's `%0d`).
  @Test(arguments: ["todo", "todo.sh"], [
    ("x b\nx B\n", "x b\nx B\n", "0 x B\n0 x b\n1 x b\n2 x B\n--\n"),
    ("", "x 2009-02-01 old  one\n", "0 x 2009-02-01 old one\n--\nTODO: 0 of 0 tasks shown\nDONE: 1 of 1 tasks shown\n"),
  ])
  func equalKeysGoByTheWholeLines(name: String, files: (todo: String, done: String, listed: String)) throws {
    let list = try CommandFixture(todo: files.todo, done: files.done)
    let run = list.run(name, ["-p", "lsa"])
    #expect(run.combined.hasPrefix(files.listed), "\(run.combined)")
  }

  /// todo.sh's grep sees each line as the file has it, before the awk step joins its words:
  /// a term with two blanks finds the line, which is then written with one.
  @Test func aTermSeesTheLineBeforeItsWordsAreJoined() throws {
    let list = try CommandFixture(todo: "call  mum\ncall mum\n", done: "x  old   one\n")
    let run = list.sh("-p", "lsa", "call  mum")
    #expect(run.stdout.hasPrefix("1 call mum\n--\n"), "\(run.stdout)")
    let done = list.sh("-p", "lsa", "old   one")
    #expect(done.stdout.hasPrefix("0 x old one\n--\n"), "\(done.stdout)")
    #expect(done.stdout.hasSuffix("TODO: 0 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 1 of 3 tasks shown\n"))
  }

  /// A user's final filter runs for the counts after it ran for the listing, as in todo.sh,
  /// on each file's lines numbered on their own; the counts are of what it passed.
  @Test func theCountsFinalFilterRunsAfterTheListings() throws {
    let list = try CommandFixture(todo: "call  mum\npay rent\n", done: "x old one\n")
    let filter = ["TODOTXT_FINAL_FILTER": "grep -v rent | tee -a '\(list.path("filtered"))'"]
    let run = list.run("todo", ["-p", "lsa"], environment: filter)
    #expect(run.stdout == "1 call mum\n0 x old one\n", "\(run.stdout)")
    #expect(run.stderr.hasSuffix("TODO: 1 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 2 of 3 tasks shown\n"), "\(run.stderr)")
    // The listing's lines first, then each count's.
    #expect(list.read("filtered") == "1 call mum\n0 x old one\n1 call  mum\n1 x old one\n")
  }

  /// The counts are made before the listing, but grep's complaints while counting are shown
  /// where todo.sh shows them: after the listing, before the summary.
  @Test func whatCountingWritesComesAfterTheListing() throws {
    let list = try CommandFixture(todo: "call mum\n", done: "x call old\n")
    try list.write("todo.txt", bytes: Array("call mum\ncall ".utf8) + [0xFF, 0x0A])
    let run = list.run("todo.sh", ["-p", "lsa", "call"], environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
    let notice = "grep: (standard input): binary file matches\n"
    #expect(
      run.combined
        == notice + "1 call mum\n0 x call old\n" + notice
        + "--\nTODO: 1 of 2 tasks shown\nDONE: 1 of 1 tasks shown\ntotal 2 of 3 tasks shown\n", "\(run.combined)")
  }

  /// Under the name todo the counts are the listing's own rows of each file: the same as
  /// counting each file's tasks that hold every term, on lists made at random (seeded).
  @Test(arguments: [1, 2, 3, 4])
  func nativeCountsAreEachFilesListedTasks(seed: UInt64) throws {
    var random = KeySortTests.Generator(state: seed)
    let words = ["milk", "mum", "+home", "@phone", "rent", "Milk"]
    func line(done: Bool) -> String {
      let count = Int(random.next() % 4)
      let text = (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
      switch random.next() % 8 {
      case 0: return ""
      case 1: return "   "
      default: return (done ? "x 2009-02-01 " : "") + "task " + text
      }
    }
    let todo = (0..<40).map { _ in line(done: false) }
    let done = (0..<25).map { _ in line(done: true) }
    let list = try CommandFixture(todo: todo.joined(separator: "\n") + "\n", done: done.joined(separator: "\n") + "\n")
    for terms in [[], ["milk"], ["-mum"], ["+home", "-rent"], ["nothing"]] {
      // A word matches a whole word of the task, case aside (`Milk` is `milk`).
      func shown(_ line: String) -> Bool {
        let taskWords = Set(line.split(separator: " ").map { $0.lowercased() })
        return terms.allSatisfy { term in
          term.hasPrefix("-") ? !taskWords.contains(String(term.dropFirst())) : taskWords.contains(term)
        }
      }
      // Blank lines are never shown, but each file's total is its lines, as todo.sh counts.
      let tasks = { (lines: [String]) in lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
      let (shownTodo, shownDone) = (tasks(todo).filter(shown).count, tasks(done).filter(shown).count)
      let (todoTasks, doneTasks) = (todo, done)
      let run = list.run("todo", ["-p", "lsa"] + terms)
      #expect(run.status == 0)
      #expect(
        run.stderr.hasSuffix(
          "TODO: \(shownTodo) of \(todoTasks.count) tasks shown\nDONE: \(shownDone) of \(doneTasks.count) tasks shown\n"
            + "total \(shownTodo + shownDone) of \(todoTasks.count + doneTasks.count) tasks shown\n"), "\(terms): \(run.stderr)")
      #expect(run.stdout.split(separator: "\n").count == shownTodo + shownDone, "\(terms): the rows")
    }
  }
}

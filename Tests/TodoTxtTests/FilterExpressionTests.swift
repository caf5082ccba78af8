import Testing
import TodoTxt

/// The query language: what each form selects, with a fixed today, and where errors point.
@Suite struct FilterExpressionTests {
  let today = day("2026-11-18")  // a Wednesday

  func selects(_ query: String, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
      let filter = try FilterExpression.parse(query)
      let task = Task(parsing: line)
      let direct = filter.matches(task, today: today)
      // Resolving the dates first never changes the answer.
      #expect(filter.resolved(today: today).matches(task, today: .earliest) == direct, sourceLocation: sourceLocation)
      return direct
    } catch {
      Issue.record("\(query): \(error)", sourceLocation: sourceLocation)
      return false
    }
  }

  func failure(_ query: String) -> FilterError? {
    do {
      _ = try FilterExpression.parse(query)
      return nil
    } catch {
      return error
    }
  }

  @Test func emptyQuerySelectsEverything() {
    #expect(selects("", "anything"))
    #expect(selects("   ", "x 2026-01-01 done thing"))
  }

  @Test func wordsIgnoreCaseAsListingTermsDo() {
    #expect(selects("milk", "Buy MILK"))
    #expect(selects("Milk", "Buy Milk"))
    #expect(selects("Milk", "Buy milk"))
    #expect(selects("café", "Visit CAFÉ Central"))
    #expect(selects("Café", "visit café"))
    #expect(selects("STRASSE", "Hauptstraße 5"))
    #expect(selects("ΣΟΦΊΑ", "read σοφία"))
    // Names keep smart case.
    #expect(selects("+kitchen", "clean +Kitchen"))
    #expect(!selects("+Kitchen", "clean +kitchen"))
    #expect(selects("\"buy milk\"", "Buy milk today"))
    #expect(!selects("\"buy milk\"", "buy some milk"))
  }

  @Test func wordsLookAfterTheHead() {
    #expect(!selects("2026", "2026-01-01 call"))
    #expect(selects("call", "(A) 2026-01-01 call"))
  }

  @Test func juxtapositionOrNotAndParentheses() {
    let line = "(A) Clean +Kitchen @home due:2026-11-17"
    #expect(selects("+Kitchen @home", line))
    #expect(!selects("+Kitchen @work", line))
    #expect(selects("+Kitchen and @home", line))
    #expect(selects("@work or @home", line))
    #expect(selects("not @work", line))
    #expect(!selects("-@home", line))
    #expect(selects("-(@work or @office) +Kitchen", line))
    #expect(!selects("-(@work or @home)", line))
    #expect(selects("(@work or pri:A) due:<today", line))
    #expect(selects("@work or pri:A due:<today", line))
    #expect(!selects("@work or pri:B due:<today", line))
  }

  @Test func projectsAndContextsAreWholeNames() {
    #expect(selects("+kitchen", "clean +Kitchen"))
    #expect(!selects("+Kitchen", "clean +kitchen"))
    #expect(!selects("+Kitch", "clean +Kitchen"))
    #expect(!selects("@home", "clean @homeoffice"))
  }

  @Test func priorities() {
    #expect(selects("pri:A", "(A) top"))
    #expect(selects("pri:a", "(A) top"))
    #expect(!selects("pri:A", "(B) next"))
    #expect(selects("pri>=B", "(A) top"))
    #expect(selects("pri>=B", "(B) next"))
    #expect(!selects("pri>=B", "(C) later"))
    #expect(selects("pri>B", "(A) top"))
    #expect(selects("pri<B", "(C) later"))
    #expect(!selects("pri<B", "no priority"))
    #expect(selects("pri:none", "no priority"))
    #expect(!selects("pri:none", "(Z) low"))
    #expect(selects("pri:any", "(Z) low"))
    #expect(selects("pri:B-D", "(C) mid"))
    #expect(!selects("pri:B-D", "(E) mid"))
    // A done task keeps its priority in pri:.
    #expect(selects("pri:A", "x 2026-11-01 shipped pri:A"))
  }

  @Test func dates() {
    #expect(selects("due:<today", "a due:2026-11-17"))
    #expect(!selects("due:<today", "a due:2026-11-18"))
    #expect(selects("due:today", "a due:2026-11-18"))
    #expect(selects("due:<=+3d", "a due:2026-11-21"))
    #expect(!selects("due:<=+3d", "a due:2026-11-22"))
    #expect(selects("due<=+3d", "a due:2026-11-21"))
    #expect(!selects("due:<today", "no due date"))
    #expect(!selects("due:<today", "invalid due:2026-02-30"))
    #expect(selects("due:none", "no due date"))
    #expect(selects("due:any", "a due:2026-01-01"))
    #expect(selects("t:>today", "later t:2026-12-01"))
    #expect(selects("threshold:>today", "later t:2026-12-01"))
    #expect(selects("created:>-2w", "2026-11-10 recent"))
    #expect(!selects("created:>-2w", "2026-11-01 older"))
    #expect(selects("completed:2026-11", "x 2026-11-30 2026-10-01 done"))
    #expect(!selects("completed:2026-11", "x 2026-12-01 2026-10-01 done"))
    #expect(selects("completed:>=2026", "x 2026-01-01 done"))
    #expect(selects("due:<2026-11", "a due:2026-10-31"))
    #expect(!selects("due:<2026-11", "a due:2026-11-01"))
    #expect(selects("due:>2026-11", "a due:2026-12-01"))
    #expect(selects("due:fri", "a due:2026-11-20"))
  }

  @Test func doneOpenAndHas() {
    #expect(selects("done", "x 2026-11-01 finished"))
    #expect(!selects("done", "open task"))
    #expect(selects("open", "open task"))
    #expect(selects("has:due", "a due:soon"))
    #expect(!selects("has:due", "a"))
    #expect(selects("has:pri", "(C) a"))
    #expect(selects("has:project", "a +p"))
    #expect(selects("-has:context", "a +p"))
    #expect(selects("has:created", "2026-01-01 a"))
  }

  @Test func anyTag() {
    #expect(selects("id:7", "a id:7"))
    #expect(selects("p:7", "a p:3 p:7"))
    #expect(selects("est>=3", "a est:5"))
    #expect(!selects("est>=3", "a est:25x"))
    #expect(selects("est:>10", "a est:25"))
    #expect(selects("status:waiting", "a status:Waiting"))
    #expect(selects("remind:<today", "a remind:2026-11-01"))
    // Shapes that are text in a task are text in a query.
    #expect(selects("http://example.com", "see http://example.com"))
    #expect(selects("a:b:c", "note a:b:c"))
  }

  @Test func regularExpressions() {
    #expect(selects("/^x /", "x 2026-01-01 done"))
    #expect(!selects("/^x /", "open"))
    #expect(selects("/b[ao]t/", "a bat"))
    #expect(!selects("/BAT/", "a bat"))
    #expect(selects("/BAT/i", "a bat"))
    #expect(selects("/a\\/b/", "path a/b"))
    #expect(selects("/(one|two) words/", "two words"))
  }

  @Test func errorsPointAtThePosition() {
    #expect(failure("(a or b")?.position == 8)
    #expect(failure("(a or b")?.message == "expected ')'")
    #expect(failure("a or")?.position == 5)
    #expect(failure("a )")?.message == "unmatched ')'")
    #expect(failure("due:<soon")?.position == 6)
    #expect(failure("pri:AA")?.position == 5)
    #expect(failure("/[a/")?.position == 1)
    #expect(failure("\"open")?.position == 1)
    #expect(failure("a -")?.position == 4)
    #expect(failure("or a")?.position == 1)
    #expect(failure("café due:x")?.position == 10)
    let error = failure("(a or b")
    #expect(error?.description == "query error at 8: expected ')'")
    #expect(error?.pointer == "(a or b\n       ^")
  }

  @Test func descriptionShowsTheGrouping() throws {
    #expect(try FilterExpression.parse("a b or c").description == "(a b) or c")
    #expect(try FilterExpression.parse("-(+x or @y) pri>=B due:<=+3d").description
      == "not (+x or @y) pri>=B due<=+3d")
    #expect(try FilterExpression.parse("completed:2026-11 created:2026").description
      == "completed:2026-11 created:2026")
  }
}

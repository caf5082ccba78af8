import Foundation
import Testing

/// Under the name `todo`, text added to a task that gives a tag with meaning again sets it in
/// place (a second `due:` would be kept but never count); todo.sh's name adds it as typed.
@Suite struct RepeatedTagTests {
  @Test func appendSetsADueDateTheTaskHas() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent due:2026-12-01 +home\n")
    let run = try box.todo("append", "1", "due:2026-12-04 call landlord")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "TODO: due:2026-12-04 replaces due:2026-12-01.\n1 pay rent due:2026-12-04 +home call landlord\n")
    #expect(box.read("todo.txt") == "pay rent due:2026-12-04 +home call landlord\n")
  }

  @Test func prependAndDateWordsAndTheSameValue() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) 2009-02-01 pay rent t:2009-02-01 due:2009-02-20 p:k1\n")
    #expect(try box.todo("prepend", "1", "urgent t:tomorrow").status == 0)
    #expect(box.read("todo.txt") == "(A) 2009-02-01 urgent pay rent t:2009-02-14 due:2009-02-20 p:k1\n")
    // The same value changes nothing and says nothing; a tag that repeats (p:) is added.
    let same = try box.todo("append", "1", "due:2009-02-20 p:k2")
    #expect(same.status == 0 && !same.stdout.contains("replaces"), "\(same.stdout)")
    #expect(box.read("todo.txt") == "(A) 2009-02-01 urgent pay rent t:2009-02-14 due:2009-02-20 p:k1 p:k2\n")
  }

  @Test func todoShAddsItAsTyped() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "pay rent due:2026-12-01\n")
    #expect(try box.sh("append", "1", "due:2026-12-04").status == 0)
    #expect(box.read("todo.txt") == "pay rent due:2026-12-01 due:2026-12-04\n")
  }
}

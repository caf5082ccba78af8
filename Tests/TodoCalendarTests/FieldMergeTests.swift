import Testing
import TodoTxt

@testable import TodoCalendar

@Suite struct FieldMergeTests {
  let base = TaskFields(
    title: "Call Mum +family @phone", priority: Priority("B"), projects: ["family"], contexts: ["phone"],
    due: TaskDate("2026-03-01"))

  @Test func aFieldChangedOnOneSideWinsOnBoth() {
    var local = base
    local.priority = Priority("A")
    var remote = base
    remote.due = TaskDate("2026-03-05")
    let merge = FieldMerge(base: base, local: local, remote: remote)
    #expect(merge.merged.priority == Priority("A"))
    #expect(merge.merged.due == TaskDate("2026-03-05"))
    #expect(merge.conflicts.isEmpty)
    #expect(merge.changesLocal && merge.changesRemote)
  }

  @Test func theSameChangeOnBothSidesIsNoConflict() {
    var changed = base
    changed.title = "Call Mum and Dad +family @phone"
    changed.isCompleted = true
    changed.completed = TaskDate("2026-03-02")
    let merge = FieldMerge(base: base, local: changed, remote: changed)
    #expect(merge.merged == changed)
    #expect(merge.conflicts.isEmpty)
    #expect(!merge.changesLocal && !merge.changesRemote)
  }

  @Test func differentChangesConflictAndTheServerValueIsKeptWithBothReported() {
    var local = base
    local.due = TaskDate("2026-04-01")
    local.note = "ring after six"
    var remote = base
    remote.due = TaskDate("2026-05-01")
    let merge = FieldMerge(base: base, local: local, remote: remote)
    #expect(merge.merged.due == TaskDate("2026-05-01"))
    #expect(merge.merged.note == "ring after six")
    #expect(merge.conflicts == [FieldConflict(field: .due, local: "2026-04-01", remote: "2026-05-01")])
    #expect(merge.changesLocal)
    #expect(merge.changesRemote)
  }

  @Test func namesAreMergedOneByOne() {
    var local = base
    local.projects = ["family", "weekend"]
    local.contexts = []
    var remote = base
    remote.projects = ["house", "family"]
    let merge = FieldMerge(base: base, local: local, remote: remote)
    #expect(merge.merged.projects == ["family", "weekend", "house"])
    #expect(merge.merged.contexts == [])
    #expect(merge.conflicts.isEmpty)
  }

  @Test func withoutABaseEveryDifferenceIsAConflictAndNamesAreJoined() {
    var local = base
    local.title = "Call Mum today"
    local.contexts = ["home"]
    let remote = base
    let merge = FieldMerge(base: nil, local: local, remote: remote)
    #expect(merge.merged.title == base.title)
    #expect(merge.merged.contexts == ["home", "phone"])
    #expect(merge.conflicts.map(\.field) == [.title])
  }

  @Test func completionIsOneFieldWithItsDate() {
    var local = base
    local.isCompleted = true
    local.completed = TaskDate("2026-03-02")
    var remote = base
    remote.isCompleted = true
    remote.completed = TaskDate("2026-03-03")
    let merge = FieldMerge(base: base, local: local, remote: remote)
    #expect(merge.conflicts == [FieldConflict(field: .completion, local: "done 2026-03-02", remote: "done 2026-03-03")])
    #expect(merge.merged.completed == TaskDate("2026-03-03"))
  }

  @Test func hostileTextIsComparedAndReportedAsItIs() {
    let hostile = "a\r\nb\u{0}c\u{1B}[31m\u{85}" + String(repeating: "x", count: 10 << 20)
    var local = base
    local.title = hostile
    var remote = base
    remote.title = hostile + "!"
    let merge = FieldMerge(base: base, local: local, remote: remote)
    #expect(merge.conflicts.first?.local == hostile)
    #expect(merge.merged.title == hostile + "!")
  }
}

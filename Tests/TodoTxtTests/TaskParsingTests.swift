import Testing
import TodoTxt

@Suite struct TaskParsingTests {
  @Test func completedTaskWithBothDates() {
    let task = Task(parsing: "x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github")
    #expect(task.isCompleted)
    #expect(task.completionDate == TaskDate(year: 2011, month: 3, day: 2))
    #expect(task.creationDate == TaskDate(year: 2011, month: 3, day: 1))
    #expect(task.projects == ["TodoTxtTouch"])
    #expect(task.contexts == ["github"])
    #expect(task.text == "Review Tim's pull request +TodoTxtTouch @github")
  }

  @Test func roundTripOfAwkwardFile() {
    let bytes: [UInt8] = TodoList.byteOrderMark + Array("(A) one\r\n\n  \t\nx 2020-01-01 two  \r\nthree".utf8) + [0xFF, 0xFE]
    let list = TodoList(bytes: bytes)
    #expect(list.count == 5)
    #expect(list.serialized() == bytes)
  }
}

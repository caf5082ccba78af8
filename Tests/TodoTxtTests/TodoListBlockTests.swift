import Testing
import TodoTxt

/// Writing a list a block at a time gives the bytes ``TodoList/serialized()`` gives, and
/// removing lines in place keeps the list's rules.
@Suite("TodoList blocks")
struct TodoListBlockTests {
  /// A list read from `text`, then edited: a line replaced, one removed, one appended.
  private func edited(_ text: String) -> TodoList {
    var list = TodoList(parsing: text)
    if list.count > 2 {
      list.replace(at: 1, with: Task(parsing: "(B) changed"))
      list.remove(at: 0)
    }
    list.append(Task(parsing: "added line"))
    return list
  }

  @Test(
    "blocks join to serialized() for every block size",
    arguments: ["", "a", "a\nb\n", "\u{FEFF}x 2026-01-02 done\r\nopen\r\nlast", "one\n\ntwo\nthree\nfour\n"])
  func blocksJoinToSerialized(_ text: String) {
    for list in [TodoList(parsing: text), edited(text)] {
      let whole = list.serialized()
      #expect(list.serializedCount == whole.count)
      for size in [1, 2, 3, 7, 8, 64, 1 << 20] {
        var joined: [UInt8] = []
        var sizes: [Int] = []
        list.serialize(blockSize: size) { block in
          joined += block
          sizes.append(block.count)
        }
        #expect(joined == whole, "block size \(size)")
        // Every block but the last is full.
        #expect(sizes.dropLast().allSatisfy { $0 == size })
        #expect(sizes.last.map { $0 > 0 && $0 <= size } ?? whole.isEmpty)
      }
    }
  }

  @Test("removing by bytes keeps a missing final newline and leaves a throwing call's list as it was")
  func removeByBytes() {
    var list = TodoList(parsing: "keep 1\nx gone\nkeep 2\nx last")
    list.removeAllLines(where: { $0.starts(with: Array("x ".utf8)) })
    // The new last line takes over the missing newline.
    #expect(list.text == "keep 1\nkeep 2")
    struct Stop: Error {}
    var other = TodoList(parsing: "a\nb\nc\n")
    var asked = 0
    #expect(throws: Stop.self) {
      try other.removeAllLines(where: { _ in
        asked += 1
        if asked == 2 { throw Stop() }
        return true
      })
    }
    #expect(other.text == "a\nb\nc\n")
    // A copy made before the removal keeps its lines.
    var third = TodoList(parsing: "a\nb\nc\n")
    let copy = third
    third.removeAll(where: { $0.line == "b" })
    #expect(third.text == "a\nc\n")
    #expect(copy.text == "a\nb\nc\n")
  }
}

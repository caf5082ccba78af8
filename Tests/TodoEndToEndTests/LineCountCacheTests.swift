import Foundation
import Testing

/// The remembered line counts of a large file (the state directory's `lines/`) are a
/// shortcut that must never be believed when wrong: a forged entry, or a file edited so that
/// its size, modification time and last bytes are as they were, still gets its added task
/// the right number, an undo that removes exactly that task, and a listing numbered right.
@Suite struct LineCountCacheTests {
  /// 60,000 tasks, about 1.6 MB: above the size from which counts are remembered.
  static func largeList() -> String {
    (1...60_000).map { "task \($0) +big @home\n" }.joined()
  }

  static func entries(_ box: Sandbox) -> [String] {
    let directory = box.path(".local/state/todo/lines")
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map { directory + "/" + $0 }
  }

  /// `add NEW` must number NEW as the line after the file's last, `ls` must show it there,
  /// and `undo` must give back the file as it was, byte for byte.
  static func expectAddNumbersRight(_ box: Sandbox, _ text: String, _ label: String) throws {
    let before = box.bytes("todo.txt")
    let expected = before.filter { $0 == 0x0A }.count + 1
    let add = try box.todo("add", text)
    #expect(add.status == 0, "\(label): \(add.stderr)")
    #expect(add.stdout.hasPrefix("\(expected) "), "\(label): \(add.stdout)")
    let lines = box.read("todo.txt").split(separator: "\n")
    #expect(lines.count == expected && lines.last.map { $0.hasSuffix(text) } == true, "\(label)")
    let listed = try box.todo("ls", text)
    #expect(listed.stdout.split(separator: "\n").first.map { $0.hasPrefix("\(expected) ") } == true, "\(label): \(listed.stdout)")
    let undo = try box.todo("undo")
    #expect(undo.status == 0, "\(label): \(undo.stderr)")
    #expect(box.bytes("todo.txt") == before, "\(label): undo did not give back the file")
  }

  /// An entry whose counts were changed (its seal no longer fits), and one in the unsealed
  /// form an earlier release wrote, each claiming 1,000 lines fewer than the file has.
  @Test func forgedCountsAreNotBelieved() throws {
    let box = try Sandbox()
    try box.write("todo.txt", LineCountCacheTests.largeList())
    try LineCountCacheTests.expectAddNumbersRight(box, "first add", "counted")
    // The undo's write remembered the counts of the file as it is now.
    let entries = LineCountCacheTests.entries(box)
    #expect(entries.count == 1)
    let entry = try #require(entries.first)
    let saved = try String(contentsOfFile: entry, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(saved.count == 3)
    let counts = saved[1].split(separator: " ").compactMap { Int($0) }
    #expect(counts == [60_000, 0])
    try LineCountCacheTests.expectAddNumbersRight(box, "trusted add", "sealed entry")
    for (label, forged) in [
      ("changed counts", [saved[0], "59000 0", saved[2]]),
      ("unsealed entry", [saved[0], "59000 0"]),
    ] {
      try (forged.joined(separator: "\n") + "\n").write(toFile: entry, atomically: false, encoding: .utf8)
      try LineCountCacheTests.expectAddNumbersRight(box, "after \(label)", label)
    }
  }

  /// A line split in two in the middle of the file (one byte turned into a newline: same
  /// size, same last bytes), its modification time set back with `touch -d`: the change
  /// time differs, so the counts are made again.
  @Test func sameSizeEditWithRestoredTimeIsCountedAgain() throws {
    let box = try Sandbox()
    try box.write("todo.txt", LineCountCacheTests.largeList())
    try LineCountCacheTests.expectAddNumbersRight(box, "first add", "counted")
    #expect(LineCountCacheTests.entries(box).count == 1)
    let path = box.path("todo.txt")
    var before = stat()
    #expect(stat(path, &before) == 0)
    var bytes = box.bytes("todo.txt")
    let middle = bytes.count / 2
    let space = try #require(bytes[middle...].firstIndex(of: 0x20))
    bytes[space] = 0x0A
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    let touch = Process()
    touch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let nanoseconds = String(before.st_mtim.tv_nsec)
    let stamp = "@\(before.st_mtim.tv_sec).\(String(repeating: "0", count: 9 - nanoseconds.count))\(nanoseconds)"
    touch.arguments = ["touch", "-d", stamp, path]
    try touch.run()
    touch.waitUntilExit()
    #expect(touch.terminationStatus == 0)
    var after = stat()
    #expect(stat(path, &after) == 0)
    #expect(after.st_size == before.st_size && after.st_ino == before.st_ino)
    #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    try LineCountCacheTests.expectAddNumbersRight(box, "after the edit", "same-size edit")
  }
}

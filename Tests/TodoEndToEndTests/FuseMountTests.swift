import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A list on a FUSE mount (bindfs here; sshfs, rclone and gocryptfs are the same kind): the
/// kernel cannot swap files there, and a writer behind the mount (a sync client writing the
/// directory below it) holds no lease the tool can see. An in-place saver working below the
/// mount while `todo` changes the list through it loses no line.
@Suite(.serialized) struct FuseMountTests {
  /// Mounts `below` at `at` with bindfs; `false` where FUSE or bindfs is not to be had.
  static func mount(_ below: String, at: String) -> Bool {
    guard FileManager.default.fileExists(atPath: "/dev/fuse"),
      let bindfs = ["/usr/bin/bindfs", "/bin/bindfs"].first(where: FileManager.default.isExecutableFile)
    else { return false }
    // bindfs goes to the background and keeps what it inherits: spawned and waited for
    // plainly, with nothing of the test's open.
    var pid: pid_t = 0
    let words: [String] = [bindfs, below, at]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
    argv.append(nil)
    defer { for arg in argv { free(arg) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
    guard posix_spawn(&pid, bindfs, &actions, nil, argv, environ) == 0 else { return false }
    var status: Int32 = 0
    guard waitpid(pid, &status, 0) == pid else { return false }
    return status == 0
  }

  @Test func anInPlaceSaverBelowTheMountLosesNothing() throws {
    let box = try Sandbox(config: "export TODO_DIR=\"$HOME/mnt\"\n")
    try FileManager.default.createDirectory(atPath: box.path("below"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: box.path("mnt"), withIntermediateDirectories: true)
    guard FuseMountTests.mount(box.path("below"), at: box.path("mnt")) else {
      // No FUSE here (CI installs bindfs, and /dev/fuse is there): nothing to show.
      return
    }
    defer { _ = umount2(box.path("mnt"), Int32(MNT_DETACH)) }
    try box.write("below/todo.txt", "keep one\nkeep two\n")
    try box.write("below/done.txt", "")
    let below = box.path("below/todo.txt")
    let saves = 80
    let saver = Thread {
      for index in 0..<saves {
        guard let handle = FileHandle(forUpdatingAtPath: below) else { continue }
        let data = handle.readDataToEndOfFile()
        try? handle.seek(toOffset: 0)
        try? handle.truncate(atOffset: 0)
        // Half the file, a pause, then the rest: the instant a snapshot must not be taken.
        try? handle.write(contentsOf: data.prefix(data.count / 2))
        usleep(2000)
        try? handle.write(contentsOf: data.dropFirst(data.count / 2) + Data("saver \(index)\n".utf8))
        try? handle.close()
        usleep(5000)
      }
    }
    saver.start()
    let started = Date()
    while saver.isExecuting || Date().timeIntervalSince(started) < 0.1 {
      _ = try box.todo("pri", "1", "A")
      _ = try box.todo("depri", "1")
      if Date().timeIntervalSince(started) > 60 { break }
    }
    while !saver.isFinished { usleep(10_000) }
    let lines = box.read("below/todo.txt").split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("saver ") }.count == saves, "\(lines)")
    #expect(lines.filter { $0.contains("keep") }.count == 2, "\(lines)")
  }
}

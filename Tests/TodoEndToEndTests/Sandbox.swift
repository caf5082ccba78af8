import Foundation
import Testing

/// A temporary home and todo directory in which the built `todo` binary runs, under either of
/// its names, the way a user's shell would run it.
/// Shared across threads only after set-up, when nothing changes it any more.
final class Sandbox: @unchecked Sendable {
  let home: URL
  var environment: [String: String]

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The directory holding the built products (the test bundle lives next to them).
  static let productsDirectory: URL = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("todo").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory
  }()

  static var binary: URL { productsDirectory.appendingPathComponent("todo") }

  /// - Parameter config: the contents of `$HOME/todo.cfg` (todo.sh needs one); `nil` for none.
  init(config: String? = "export TODO_DIR=\"$HOME\"\n") throws {
    home = FileManager.default.temporaryDirectory.appendingPathComponent("todo-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let bin = home.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("todo.sh"), withDestinationURL: Sandbox.binary)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("todo"), withDestinationURL: Sandbox.binary)
    environment = [
      "HOME": home.path, "PATH": bin.path + ":/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TZ": "UTC",
      "TERM": "dumb", "TODO_TEST_TIME": "1234500000",  // 2009-02-13
    ]
    if let config { try write("todo.cfg", config) }
  }

  deinit { try? FileManager.default.removeItem(at: home) }

  func path(_ name: String) -> String { home.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws { try write(name, bytes: Array(text.utf8)) }

  func write(_ name: String, bytes: [UInt8]) throws {
    let url = home.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  func read(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

  func bytes(_ name: String) -> [UInt8] {
    (try? Data(contentsOf: home.appendingPathComponent(name))).map { [UInt8]($0) } ?? []
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// The names in the folder `folder` (none when it is missing), sorted.
  func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []).sorted()
  }

  /// The name of the one new note in `folder` made for a task whose words give `stem`: a new
  /// note is named `STEM-XXXX.txt` with four random base32 characters, so a test reads the
  /// name from the file that was written. Records an issue unless exactly one file there has
  /// that form.
  func noteName(_ stem: String, in folder: String = "notes") -> String {
    let made = names(in: folder).filter { Sandbox.isNewNoteName($0, stem: stem) }
    #expect(made.count == 1, "new notes named after '\(stem)' in \(folder): \(names(in: folder))")
    return made.first ?? "\(stem)-????.txt"
  }

  /// Whether `name` is `STEM-XXXX.txt`, `XXXX` four characters of lower-case base32.
  static func isNewNoteName(_ name: String, stem: String) -> Bool {
    guard name.hasPrefix(stem + "-"), name.hasSuffix(".txt") else { return false }
    let random = name.dropFirst(stem.count + 1).dropLast(".txt".count)
    return random.count == 4 && random.allSatisfy { ("a"..."z").contains($0) || ("2"..."7").contains($0) }
  }

  /// Runs `todo.sh ARGS` (todo.sh mode) in the home directory.
  ///
  /// - Parameter merged: send standard error into the same pipe as standard output (as
  ///   `2>&1`), to check the order of the two.
  @discardableResult
  func sh(
    _ arguments: String..., input: String = "", environment extra: [String: String] = [:], merged: Bool = false
  ) throws -> Run {
    try run("todo.sh", arguments, input: input, environment: extra, merged: merged)
  }

  /// Runs `todo ARGS` (native mode).
  @discardableResult
  func todo(
    _ arguments: String..., input: String = "", environment extra: [String: String] = [:], merged: Bool = false
  ) throws -> Run {
    try run("todo", arguments, input: input, environment: extra, merged: merged)
  }

  static func isTextFileBusy(_ error: NSError) -> Bool {
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    return (underlying ?? error).domain == NSPOSIXErrorDomain && (underlying ?? error).code == Int(ETXTBSY)
  }

  func run(
    _ name: String, _ arguments: [String], input: String = "", environment extra: [String: String] = [:],
    merged: Bool = false
  ) throws -> Run {
    let outFile = home.appendingPathComponent(".out-\(UUID().uuidString)")
    let errFile = home.appendingPathComponent(".err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outFile)
      try? FileManager.default.removeItem(at: errFile)
    }
    let out = try FileHandle(forWritingTo: outFile)
    let err = try FileHandle(forWritingTo: errFile)
    let inPipe = Pipe()
    // A script a test has just written can be "busy" for an instant: a child another test
    // thread is starting holds its own copy of the descriptor it was written through until it
    // calls exec. The race is the test harness's, not the tool's: try again a few times.
    var attempts = 0
    var started: Process
    while true {
      let process = Process()
      process.executableURL = home.appendingPathComponent("bin").appendingPathComponent(name)
      process.arguments = arguments
      process.currentDirectoryURL = home
      process.environment = environment.merging(extra) { $1 }
      process.standardOutput = out
      process.standardError = merged ? out : err
      process.standardInput = inPipe
      do {
        try process.run()
        started = process
        break
      } catch let error as NSError where attempts < 20 && Sandbox.isTextFileBusy(error) {
        attempts += 1
        usleep(20_000)
      }
    }
    let process = started
    inPipe.fileHandleForWriting.write(Data(input.utf8))
    try inPipe.fileHandleForWriting.close()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Run(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: outFile), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errFile), as: UTF8.self))
  }
}

import Foundation
import Testing
import TodoTxt

@testable import TodoStore

/// A fresh directory under the system's temporary directory, removed at the end of a test.
final class Scratch {
  let path: String

  init() {
    let base = (NSTemporaryDirectory() as NSString).resolvingSymlinksInPath
    path = base + "/todo-store-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func write(_ name: String, _ text: String) {
    _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
  }

  func read(_ name: String) -> String? {
    FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
  }

  func bytes(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: file(name)).map { Array($0) }
  }

  /// The directory's entries, hidden ones included.
  var entries: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// A store whose undo log lives in this directory's `state` folder.
  func store(
    lockTimeout: Double = 10, faults: FaultInjection? = nil, now: (@Sendable () -> Int64)? = nil
  ) -> TodoStore {
    TodoStore(lockTimeout: lockTimeout, stateDirectory: file("state"), now: now, faults: faults)
  }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

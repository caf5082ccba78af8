import Foundation

/// Runs a program to its end and gives back its exit status and both of its outputs.
///
/// Standard error is read on a thread of its own while standard output is read here: a child
/// that writes more to one pipe than the pipe holds (64 KiB on Linux) while the test reads
/// the other would otherwise wait for ever, and so would the test. Standard input is
/// `/dev/null` unless `input` is given.
public enum ChildProcess {
  public struct Result: Sendable {
    public var status: Int32
    /// Standard output as written (a peer may write bytes that are not UTF-8).
    public var outputBytes: [UInt8]
    public var errors: String
    /// Standard output as text.
    public var output: String { String(decoding: outputBytes, as: UTF8.self) }
  }

  /// - Parameters:
  ///   - environment: the child's whole environment; nil: this process's.
  ///   - input: bytes written to the child's standard input, which is then closed.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    input: [UInt8]? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let inputPipe = input.map { _ in Pipe() }
    process.standardInput = inputPipe ?? FileHandle.nullDevice
    try process.run()
    let errorBytes = Gathered()
    let reader = Thread {
      errorBytes.finish(errors.fileHandleForReading.readDataToEndOfFile())
    }
    reader.start()
    if let inputPipe, let input {
      // Written on a thread too: a child that answers before it has read all of its input
      // must not block on a full output pipe while this thread blocks on a full input pipe.
      let writer = Thread {
        inputPipe.fileHandleForWriting.write(Data(input))
        try? inputPipe.fileHandleForWriting.close()
      }
      writer.start()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, outputBytes: [UInt8](outputData),
      errors: String(decoding: errorBytes.wait(), as: UTF8.self))
  }

  /// Bytes one thread reads and another waits for.
  private final class Gathered: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func finish(_ bytes: Data) {
      condition.lock()
      data = bytes
      condition.broadcast()
      condition.unlock()
    }

    func wait() -> Data {
      condition.lock()
      defer { condition.unlock() }
      while data == nil { condition.wait() }
      return data ?? Data()
    }
  }
}

import TodoStore
@preconcurrency import Glibc

/// Runs other programs: the configuration file through bash, add-ons, and the user's own sort
/// and filter commands. `posix_spawn`, so no `fork` of a process that may hold locks.
struct ProcessRunner: Sendable {
  struct Result {
    var status: Int32
    var output: [UInt8]
  }

  /// Runs `arguments[0]` (searched in `PATH` when it has no slash) with `environment`.
  ///
  /// - Parameters:
  ///   - input: bytes written to the child's standard input, or `nil` to let it inherit ours.
  ///   - captureOutput: collect standard output instead of letting the child write to ours.
  /// - Returns: the exit status (128 + signal for a killed child, 127 when it could not start).
  ///   - outputDescriptor: the child's descriptor whose output is captured (1, or 3 to leave
  ///     the child's standard output alone).
  ///   - capturingErrors: with `captureOutput`, collect the child's standard error in the same
  ///     place (`2>&1`), to report a failing tool's own words.
  func run(
    _ arguments: [String], environment: [String: String], input: [UInt8]? = nil, captureOutput: Bool = false,
    outputDescriptor: Int32 = 1, capturingErrors: Bool = false
  ) -> Result {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }

    var inputPipe: [Int32] = [-1, -1]
    var outputPipe: [Int32] = [-1, -1]
    if input != nil {
      guard ProcessRunner.makePipe(&inputPipe) else { return Result(status: 127, output: []) }
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    }
    if captureOutput {
      guard ProcessRunner.makePipe(&outputPipe) else { return Result(status: 127, output: []) }
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], outputDescriptor)
      if capturingErrors { posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2) }
    }

    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let program = arguments.first ?? ""
    let spawnStatus: Int32
    // posix_spawnp searches the PATH of *this* process; the child's PATH is searched instead.
    let resolved =
      program.contains("/") ? program : ProcessRunner.which(program, path: environment["PATH"] ?? "/usr/bin:/bin") ?? program
    spawnStatus = ProcessRunner.spawning.locked { posix_spawn(&pid, resolved, &actions, nil, argv, envp) }
    if input != nil { close(inputPipe[0]) }
    if captureOutput { close(outputPipe[1]) }
    guard spawnStatus == 0 else {
      if input != nil { close(inputPipe[1]) }
      if captureOutput { close(outputPipe[0]) }
      // A script without a #! line: the shell runs it, as bash (and so todo.sh) would.
      if spawnStatus == ENOEXEC, arguments.first != "bash" {
        return run(
          ["bash"] + arguments, environment: environment, input: input, captureOutput: captureOutput,
          outputDescriptor: outputDescriptor)
      }
      return Result(status: spawnStatus == ENOENT ? 127 : 126, output: [])
    }

    // Feed input from a second thread when output is captured too, so neither pipe can fill up
    // and stall the other.
    var output: [UInt8] = []
    if let input {
      let writer = inputPipe[1]
      if captureOutput {
        let box = WriterThread(fd: writer, bytes: input)
        box.start()
        output = ProcessRunner.readAll(outputPipe[0])
        box.join()
      } else {
        Posix.writeAll(writer, input)
        close(writer)
      }
    } else if captureOutput {
      output = ProcessRunner.readAll(outputPipe[0])
    }
    if captureOutput { close(outputPipe[0]) }

    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return Result(status: 127, output: output) }
    }
    let exitCode: Int32
    if status & 0x7f == 0 {
      exitCode = (status >> 8) & 0xff
    } else {
      exitCode = 128 + (status & 0x7f)
    }
    return Result(status: exitCode, output: output)
  }

  /// `pipe(2)` with both ends closed on exec, so children see only what they are given. The
  /// pipe is made and marked under ``spawning``, so that a child another thread starts at the
  /// same moment (`sync` reads the local lists while `git fetch` runs) cannot inherit its ends
  /// before they are marked (Glibc's module has no `pipe2`).
  static func makePipe(_ fds: inout [Int32]) -> Bool {
    spawning.locked {
      guard pipe(&fds) == 0 else { return false }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      return true
    }
  }

  /// Held while a pipe is made and marked, and while a child is started.
  static let spawning = SpawnLock()

  /// A mutex of the process (no Foundation here).
  final class SpawnLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
      mutex = .allocate(capacity: 1)
      pthread_mutex_init(mutex, nil)
    }

    func locked<T>(_ body: () -> T) -> T {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body()
    }
  }

  static func readAll(_ fd: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// The first executable `name` in a `PATH` string.
  static func which(_ name: String, path: String) -> String? {
    for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
      let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
      if Posix.isRegularFile(candidate), Posix.isExecutable(candidate) { return candidate }
    }
    return nil
  }
}

/// Writes bytes to a pipe on its own thread, then closes it.
private final class WriterThread: @unchecked Sendable {
  let fd: Int32
  let bytes: [UInt8]
  var thread = pthread_t()

  init(fd: Int32, bytes: [UInt8]) {
    self.fd = fd
    self.bytes = bytes
  }

  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<WriterThread>.fromOpaque(raw!).takeRetainedValue()
        Posix.writeAll(box.fd, box.bytes)
        close(box.fd)
        return nil
      }, context)
  }

  func join() { pthread_join(thread, nil) }
}

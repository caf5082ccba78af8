import TodoTxt

#if canImport(Glibc)
  import Glibc
#endif

/// Lines held in one byte buffer, so that a listing of a large file allocates per file and not
/// per line.
struct Lines {
  var buffer: [UInt8] = []
  var starts: [Int] = []
  var ends: [Int] = []

  init() {}

  init(_ lines: [[UInt8]]) {
    for line in lines { append(line) }
  }

  /// The lines of a file's bytes, split as ``TodoList`` splits them: at LF, a CR before it
  /// ending the line too, a byte order mark before the first. With `raw`, lines are what
  /// line-oriented Unix tools see: the mark and the CR belong to their lines.
  init(bytes: [UInt8], raw: Bool) {
    buffer = bytes
    var starts: [Int] = []
    var ends: [Int] = []
    starts.reserveCapacity(bytes.count / 48 + 1)
    ends.reserveCapacity(bytes.count / 48 + 1)
    bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return }
      let count = b.count
      let mark = b.starts(with: TodoList.byteOrderMark)
      var start = mark ? TodoList.byteOrderMark.count : 0
      while start < count {
        let newline = memchr(base + start, 0x0A, count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
        // (A file of nothing but the mark has no line, raw or not.)
        starts.append(raw && mark && starts.isEmpty ? 0 : start)
        ends.append(!raw && newline > start && newline < count && b[newline - 1] == 0x0D ? newline - 1 : newline)
        start = newline + 1
      }
    }
    self.starts = starts
    self.ends = ends
  }

  /// The lines of a list, sharing its bytes (see ``TodoList/lineBounds(raw:)``).
  init(list: TodoList, raw: Bool) {
    (buffer, starts, ends) = list.lineBounds(raw: raw)
  }

  var count: Int { starts.count }
  var isEmpty: Bool { starts.isEmpty }

  mutating func append(_ line: some Collection<UInt8>) {
    starts.append(buffer.count)
    buffer.append(contentsOf: line)
    ends.append(buffer.count)
  }

  mutating func reserve(lines: Int, bytes: Int) {
    buffer.reserveCapacity(bytes)
    starts.reserveCapacity(lines)
    ends.reserveCapacity(lines)
  }

  func line(_ index: Int) -> [UInt8] { Array(buffer[starts[index]..<ends[index]]) }

  /// The task on line `index` (of lines without their line endings).
  func task(_ index: Int) -> Task { Task(bytes: buffer[starts[index]..<ends[index]]) }

  var all: [[UInt8]] { (0..<count).map(line) }

  /// Keeps the lines for which `keep` is true; the buffer is shared, not copied.
  func filter(_ keep: (UnsafeBufferPointer<UInt8>) -> Bool) -> Lines {
    var result = Lines()
    result.buffer = buffer
    buffer.withUnsafeBufferPointer { b in
      for index in 0..<starts.count {
        if keep(UnsafeBufferPointer(rebasing: b[starts[index]..<ends[index]])) {
          result.starts.append(starts[index])
          result.ends.append(ends[index])
        }
      }
    }
    return result
  }

  /// The lines in the order of `order` (indices into this collection).
  func reordered(_ order: [Int]) -> Lines {
    var result = Lines()
    result.buffer = buffer
    result.starts = order.map { starts[$0] }
    result.ends = order.map { ends[$0] }
    return result
  }
}

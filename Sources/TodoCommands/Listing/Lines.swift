import TodoTxt

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

  /// The lines of a file's bytes, split as ``TodoList`` splits them (see
  /// ``TodoList/lineBounds(in:raw:)``).
  init(bytes: [UInt8], raw: Bool) {
    buffer = bytes
    (starts, ends) = TodoList.lineBounds(in: bytes, raw: raw)
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

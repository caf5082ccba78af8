#if canImport(Glibc)
  import Glibc
#endif

/// A todo.txt file as an ordered sequence of lines, blank lines included.
///
/// The task number of a line is its 1-based position in the file, as in todo.sh, so blank
/// lines hold numbers too. The list keeps the file's bytes: ``serialized()`` of an unedited
/// list gives back the input exactly, with its byte order mark, each line's own line ending,
/// a missing final newline and any invalid UTF-8. Edits replace whole lines; a ``Task`` edit
/// itself changes only the bytes it must.
///
/// Lines are views into one buffer, so reading a large file allocates per file, not per line.
public struct TodoList: Sendable {
  /// The file started with a UTF-8 byte order mark (written back, never seen by parsing).
  public var hasByteOrderMark: Bool

  /// The file's bytes as read, never changed afterwards: a list copied before an edit (the
  /// store keeps one to write the undo record) shares them instead of copying the file.
  private(set) var buffer: [UInt8]
  /// The bytes of edited and added lines. Their slots' offsets count on from the end of
  /// `buffer`, as if the two were one.
  private var added: [UInt8] = []
  var slots: [Slot]
  /// The line ending new lines get: the one most lines of the file use (LF when even).
  public private(set) var preferredLineEnding: LineEnding
  /// How many lines the file had when read (``changes()`` is relative to those lines).
  public private(set) var originalCount: Int

  /// Where a line's bytes are and what became of it, packed into 16 bytes: a million-line
  /// file holds a million of these, next to the file itself.
  ///
  /// Offsets take 46 bits (64 TiB, more than any buffer this runs with); the rest holds the
  /// line ending, the edited flag and the origin, split in two halves.
  struct Slot: Sendable {
    private var low: UInt64
    private var high: UInt64

    private static let offsetMask: UInt64 = (1 << 46) - 1

    init(start: Int, end: Int, ending: LineEnding, origin: Int32 = -1) {
      let origin = UInt64(UInt32(bitPattern: origin))
      low = UInt64(start) | UInt64(ending.rawValue) << 46 | (origin & 0xFFFF) << 48
      high = UInt64(end) | (origin >> 16) << 48
    }

    var start: Int {
      get { Int(low & Slot.offsetMask) }
      set { low = low & ~Slot.offsetMask | UInt64(newValue) }
    }

    var end: Int {
      get { Int(high & Slot.offsetMask) }
      set { high = high & ~Slot.offsetMask | UInt64(newValue) }
    }

    var ending: LineEnding {
      get { LineEnding(rawValue: UInt8(truncatingIfNeeded: low >> 46) & 3) ?? .none }
      set { low = low & ~(3 << 46) | UInt64(newValue.rawValue) << 46 }
    }

    /// The line's 0-based position in the file as read, or -1 for a line added since.
    var origin: Int32 {
      get { Int32(bitPattern: UInt32(truncatingIfNeeded: low >> 48 | (high >> 48) << 16)) }
      set {
        let origin = UInt64(UInt32(bitPattern: newValue))
        low = low & 0xFFFF_FFFF_FFFF | (origin & 0xFFFF) << 48
        high = high & 0xFFFF_FFFF_FFFF | (origin >> 16) << 48
      }
    }

    /// The line's bytes or ending differ from those read.
    var edited: Bool {
      get { high & (1 << 46) != 0 }
      set { high = newValue ? high | 1 << 46 : high & ~(1 << 46) }
    }
  }

  /// UTF-8's byte order mark, which some editors put first: kept, never read as text.
  public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// An empty list.
  public init() {
    hasByteOrderMark = false
    buffer = []
    slots = []
    preferredLineEnding = .lf
    originalCount = 0
  }

  /// Reads a file's bytes. Never fails: every byte sequence is a list.
  public init(bytes: [UInt8]) {
    buffer = bytes
    hasByteOrderMark = bytes.starts(with: TodoList.byteOrderMark)
    slots = []
    preferredLineEnding = .lf
    originalCount = 0
    var lfCount = 0
    var crlfCount = 0
    let first = hasByteOrderMark ? 3 : 0
    var slots: [Slot] = []
    buffer.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return }
      let n = b.count
      var start = first
      /// The slot of the line at `start` (numbered `number`); `start` moves to the next line.
      func nextSlot(_ number: Int) -> Slot {
        let newline: Int
        #if canImport(Glibc)
          if let hit = memchr(base + start, Int32(UInt8.lf), n - start) {
            newline = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
          } else {
            newline = n
          }
        #else
          var i = start
          while i < n, b[i] != .lf { i += 1 }
          newline = i
        #endif
        let origin = Int32(truncatingIfNeeded: number)
        let slot: Slot
        if newline == n {
          slot = Slot(start: start, end: n, ending: .none, origin: origin)
        } else if newline > start, b[newline - 1] == .cr {
          slot = Slot(start: start, end: newline - 1, ending: .crlf, origin: origin)
          crlfCount += 1
        } else {
          slot = Slot(start: start, end: newline, ending: .lf, origin: origin)
          lfCount += 1
        }
        start = newline + 1
        return slot
      }
      // Room for lines of 48 bytes on average, on huge pages when large (a million lines'
      // slots are 16 MB); a file of shorter lines grows the array after.
      let room = HugePages.capacity(atLeast: n / 48 + 1, of: Slot.self)
      slots = [Slot](unsafeUninitializedCapacity: room) { out, filled in
        HugePages.advise(UnsafeMutableRawBufferPointer(out))
        filled = 0
        while start < n, filled < room {
          out[filled] = nextSlot(filled)
          filled += 1
        }
      }
      while start < n { slots.append(nextSlot(slots.count)) }
    }
    self.slots = slots
    originalCount = slots.count
    preferredLineEnding = crlfCount > lfCount ? .crlf : .lf
  }

  /// Reads a file's text.
  public init(parsing text: String) { self.init(bytes: Array(text.utf8)) }

  // MARK: Reading

  /// The line with this task number (1-based), or `nil` when there is no such line.
  public func task(number: Int) -> Task? {
    guard number >= 1, number <= slots.count else { return nil }
    return self[number - 1]
  }

  /// The line ending of the line at `index` (0-based).
  public func lineEnding(at index: Int) -> LineEnding { slots[index].ending }

  /// The file's bytes, with every line exactly as read or as last edited.
  ///
  /// Lines still as read and in their places are copied a run at a time, endings included:
  /// writing back a million-line file after one edit is a few large copies into one array
  /// of the exact size.
  public func serialized() -> [UInt8] {
    return [UInt8](unsafeUninitializedCapacity: HugePages.byteCapacity(atLeast: serializedCount)) { out, count in
      count = 0
      guard let target = out.baseAddress else { return }
      HugePages.advise(UnsafeMutableRawBufferPointer(out))
      forEachRun { bytes in
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (target + count).update(from: source, count: bytes.count)
        count += bytes.count
      }
    }
  }

  /// The size of ``serialized()``, without making it.
  public var serializedCount: Int {
    var total = hasByteOrderMark ? TodoList.byteOrderMark.count : 0
    for slot in slots { total += slot.end - slot.start + slot.ending.byteCount }
    return total
  }

  /// ``serialized()`` a block at a time: `body` gets blocks of `blockSize` bytes, the last
  /// one shorter (none for an empty list). Writing a large file this way holds one block
  /// besides the list, not a second copy of the file.
  public func serialize(blockSize: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    precondition(blockSize > 0)
    let block = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blockSize)
    defer { block.deallocate() }
    guard let target = block.baseAddress else { return }
    var filled = 0
    try forEachRun { bytes in
      var offset = 0
      while offset < bytes.count {
        let take = Swift.min(blockSize - filled, bytes.count - offset)
        if let source = bytes.baseAddress { (target + filled).update(from: source + offset, count: take) }
        filled += take
        offset += take
        if filled == blockSize {
          try body(UnsafeBufferPointer(block))
          filled = 0
        }
      }
    }
    if filled > 0 { try body(UnsafeBufferPointer(rebasing: block[0..<filled])) }
  }

  /// Calls `put` with the file's bytes in order, in as few runs as the edits allow: lines
  /// still as read and in their places go a run at a time, endings included.
  private func forEachRun(_ put: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    if hasByteOrderMark { try TodoList.byteOrderMark.withUnsafeBufferPointer(put) }
    try buffer.withUnsafeBufferPointer { b in
      try added.withUnsafeBufferPointer { a in
        // The pending run of the file's own bytes.
        var runStart = 0
        var runEnd = 0
        for slot in slots {
          if slot.start < b.count, !slot.edited {
            let end = slot.end + slot.ending.byteCount
            if slot.start == runEnd, runEnd > runStart {
              runEnd = end
            } else {
              if runEnd > runStart { try put(UnsafeBufferPointer(rebasing: b[runStart..<runEnd])) }
              runStart = slot.start
              runEnd = end
            }
            continue
          }
          if runEnd > runStart { try put(UnsafeBufferPointer(rebasing: b[runStart..<runEnd])) }
          runStart = 0
          runEnd = 0
          if slot.start >= b.count {
            try put(UnsafeBufferPointer(rebasing: a[(slot.start - b.count)..<(slot.end - b.count)]))
          } else {
            try put(UnsafeBufferPointer(rebasing: b[slot.start..<slot.end]))
          }
          try slot.ending.bytes.withUnsafeBufferPointer(put)
        }
        if runEnd > runStart { try put(UnsafeBufferPointer(rebasing: b[runStart..<runEnd])) }
      }
    }
  }

  /// The file as text (invalid UTF-8 replaced; use ``serialized()`` to write files).
  public var text: String { String(decoding: serialized(), as: UTF8.self) }

  /// Whether the file ends with a line ending (an empty file counts as ending well).
  public var endsWithNewline: Bool { slots.last.map { $0.ending != .none } ?? true }

  // MARK: Assembly

  /// A list of runs of this list's lines and of new lines, in the order `build` gives them
  /// (what applying a patch makes): kept lines share this list's bytes and new ones are held
  /// as added, so the result is written a block at a time as an edited list is, and a change
  /// of a few lines to a large file never holds the file twice. Every line but the last ends
  /// with a newline: a line without one that gets a line after it takes the preferred ending.
  package func assembled<Failure: Error>(_ build: (inout Assembly) throws(Failure) -> Void) throws(Failure) -> TodoList {
    var assembly = Assembly(base: self)
    try build(&assembly)
    var result = self
    result.slots = assembly.slots
    result.added = added + assembly.added
    return result
  }

  /// The lines of an ``assembled(_:)`` list, as they are given.
  package struct Assembly {
    fileprivate let base: TodoList
    fileprivate var slots: [Slot] = []
    fileprivate var added: [UInt8] = []
    /// Where new bytes' offsets start: after the base's own and its added bytes.
    private let addedStart: Int

    fileprivate init(base: TodoList) {
      self.base = base
      addedStart = base.buffer.count + base.added.count
      slots.reserveCapacity(base.slots.count + 1)
    }

    /// How many lines are given so far.
    package var count: Int { slots.count }

    /// Lines `range` of the base, as they are.
    package mutating func keep(_ range: Range<Int>) {
      for index in range { put(base.slots[index]) }
    }

    /// A new line and its ending.
    package mutating func add(_ bytes: some Collection<UInt8>, ending: LineEnding) {
      let start = addedStart + added.count
      added.append(contentsOf: bytes)
      put(Slot(start: start, end: addedStart + added.count, ending: ending))
    }

    private mutating func put(_ slot: Slot) {
      if let last = slots.indices.last, slots[last].ending == .none {
        slots[last].ending = base.preferredLineEnding
        slots[last].edited = true
      }
      slots.append(slot)
    }
  }

  // MARK: Editing

  private mutating func store(_ task: Task) -> (Int, Int) {
    let start = buffer.count + added.count
    added.append(contentsOf: task.bytes)
    return (start, buffer.count + added.count)
  }

  /// Replaces the line at `index` (0-based), keeping its line ending.
  public mutating func replace(at index: Int, with task: Task) {
    let (start, end) = store(task)
    slots[index].start = start
    slots[index].end = end
    slots[index].edited = true
  }

  /// Gives the line at `index` (0-based) another line ending, keeping its bytes; the last line
  /// of a file without a final newline keeps having none (`ending` must not be `.none`).
  ///
  /// For repairs of a file whose lines end in both ways (`doctor --fix`).
  public mutating func setLineEnding(_ ending: LineEnding, at index: Int) {
    precondition(ending != .none, "a line inside a file ends with a newline")
    guard slots[index].ending != .none, slots[index].ending != ending else { return }
    let task = self[index]
    replace(at: index, with: task)
    slots[index].ending = ending
  }

  /// Replaces the line with this task number; returns `false` when there is none.
  @discardableResult
  public mutating func replace(number: Int, with task: Task) -> Bool {
    guard number >= 1, number <= slots.count else { return false }
    replace(at: number - 1, with: task)
    return true
  }

  /// Makes room for `lines` more lines of `bytes` bytes in all, so that appending them grows
  /// neither the line slots nor the text by doubling (each doubling copies what is there and
  /// touches fresh memory: `archive` moving a hundred thousand lines copied 28 MB so).
  /// Room that is not used costs address space, not memory.
  public mutating func reserveCapacity(lines: Int, bytes: Int) {
    slots.reserveCapacity(slots.count + lines)
    added.reserveCapacity(added.count + bytes)
  }

  /// The size of the list's text as held (every line as read or stored, edited or not).
  public var heldByteCount: Int { buffer.count + added.count }

  /// Adds a line at the end and returns its task number.
  ///
  /// A last line without a line ending first gets the file's preferred one, so two lines are
  /// never joined.
  ///
  /// - Parameter ending: the new line's ending; `nil` for the file's preferred one.
  @discardableResult
  public mutating func append(_ task: Task, ending: LineEnding? = nil) -> Int {
    insert(task, at: slots.count)
    if let ending, ending != .none { slots[slots.count - 1].ending = ending }
    return slots.count
  }

  /// Inserts a line before the line at `index` (0-based; `count` appends).
  public mutating func insert(_ task: Task, at index: Int) {
    if index == slots.count, let last = slots.indices.last, slots[last].ending == .none {
      slots[last].ending = preferredLineEnding
      slots[last].edited = true
    }
    let (start, end) = store(task)
    slots.insert(Slot(start: start, end: end, ending: preferredLineEnding), at: index)
  }

  /// Removes the line at `index` (0-based); the lines after it move up by one number.
  @discardableResult
  public mutating func remove(at index: Int) -> Task {
    let task = self[index]
    let removed = slots.remove(at: index)
    // The new last line inherits a missing final newline, so the file's end stays as it was.
    if removed.ending == .none, let last = slots.indices.last, index == slots.count {
      slots[last].ending = .none
      slots[last].edited = true
    }
    return task
  }

  /// Removes every line for which `shouldRemove` is true.
  public mutating func removeAll(where shouldRemove: (Task) throws -> Bool) rethrows {
    try removeAllLines { _, line, _ in try shouldRemove(Task(bytes: line)) }
  }

  /// ``removeAll(where:)`` asked with each line's bytes (without its ending), for a pass over
  /// a large file that need not parse every line as a ``Task``.
  public mutating func removeAllLines(where shouldRemove: (ArraySlice<UInt8>) throws -> Bool) rethrows {
    try removeAllLines { _, line, _ in try shouldRemove(line) }
  }

  /// The same, given each line's index (0-based) and ending too: for a test that also looks
  /// at the line's ending, asked of this list itself, so that the caller need not keep a copy
  /// of the list to ask (the copy would make this edit copy every slot).
  public mutating func removeAllLines(
    where shouldRemove: (Int, ArraySlice<UInt8>, LineEnding) throws -> Bool
  ) rethrows {
    // Asked first, so that a throwing predicate leaves the list as it was.
    var removes = [Bool](repeating: false, count: slots.count)
    for index in slots.indices where try shouldRemove(index, lineBytes(at: index), slots[index].ending) {
      removes[index] = true
    }
    removeLines(marked: removes)
  }

  /// Removes the lines whose entry in `marked` (one per line, in order) is true: for a pass
  /// that decides from the lines' bytes (``forEachLineBytes(_:)``) what to remove.
  public mutating func removeLines(marked removes: [Bool]) {
    precondition(removes.count == slots.count, "one mark per line")
    let endedWithoutNewline = slots.last?.ending == LineEnding.none
    // The kept lines close up in place: no second array of a million slots (the slots are
    // copied once, as any edit copies them, when another list shares them).
    var kept = 0
    slots.withUnsafeMutableBufferPointer { slots in
      for index in slots.indices where !removes[index] {
        slots[kept] = slots[index]
        kept += 1
      }
    }
    slots.removeSubrange(kept...)
    // The file's end stays as it was: without a final newline if it had none.
    if endedWithoutNewline, let last = slots.indices.last, slots[last].ending != .none {
      slots[last].ending = .none
      slots[last].edited = true
    }
  }

  /// Moves the line at `from` so that it stands at `to` (0-based, in the list after removal).
  ///
  /// A file without a final newline still has none afterwards, whichever line ends up last.
  public mutating func move(from: Int, to: Int) {
    let endedWithNewline = endsWithNewline
    let task = remove(at: from)
    insert(task, at: to)
    if !endedWithNewline, let last = slots.indices.last, slots[last].ending != .none {
      slots[last].ending = .none
      slots[last].edited = true
    }
  }
}

extension TodoList: RandomAccessCollection {
  /// The first line's index: 0.
  public var startIndex: Int { 0 }
  /// One past the last line's index: the number of lines.
  public var endIndex: Int { slots.count }

  /// The line at `index` (0-based: task number minus one).
  public subscript(index: Int) -> Task { Task(bytes: lineBytes(at: index)) }

  /// The bytes of the line at `index` (0-based), without its ending, without parsing it.
  public func lineBytes(at index: Int) -> ArraySlice<UInt8> {
    let slot = slots[index]
    if slot.start >= buffer.count { return added[(slot.start - buffer.count)..<(slot.end - buffer.count)] }
    return buffer[slot.start..<slot.end]
  }
}

extension TodoList {
  /// Lends the bytes of the line at `index` (0-based), without its ending, without copying
  /// or parsing them.
  @inline(__always)
  func withLineBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let slot = slots[index]
    if slot.start >= buffer.count {
      return try added.withUnsafeBufferPointer { a in
        try body(UnsafeBufferPointer(rebasing: a[(slot.start - buffer.count)..<(slot.end - buffer.count)]))
      }
    }
    return try buffer.withUnsafeBufferPointer { b in
      try body(UnsafeBufferPointer(rebasing: b[slot.start..<slot.end]))
    }
  }
}

extension TodoList {
  /// Calls `body` with the list's storage: the file's bytes as read, the bytes of edits and
  /// the slots (a slot's offsets past the file's bytes are in the bytes of edits).
  func withStorage<R>(
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Slot>) throws -> R
  ) rethrows -> R {
    try buffer.withUnsafeBufferPointer { file in
      try added.withUnsafeBufferPointer { added in
        try slots.withUnsafeBufferPointer { slots in try body(file, added, slots) }
      }
    }
  }
}

extension TodoList: Equatable {
  /// Lists are equal when they serialize to the same bytes.
  public static func == (lhs: TodoList, rhs: TodoList) -> Bool { lhs.serialized() == rhs.serialized() }
}

extension TodoList {
  /// Calls `body` with each line's index (0-based) and bytes, without making a ``Task``.
  func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    try forEachLine(in: 0..<slots.count) { index, buffer, start, end in
      try body(index, UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
  }

  /// Calls `body` for the lines at `indices` with the whole buffer and the line's bounds in it
  /// (for an edited line, the buffer of edits).
  ///
  /// A scanner that reads a word at a time may then read past the end of a line, as long as it
  /// stays inside the buffer.
  @inline(__always)
  func forEachLine(
    in indices: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>, Int, Int) throws -> Void
  ) rethrows {
    try buffer.withUnsafeBufferPointer { b in
      try added.withUnsafeBufferPointer { a in
        try slots.withUnsafeBufferPointer { lines in
          let fileEnd = b.count
          for index in indices {
            let slot = lines[index]
            if slot.start >= fileEnd {
              try body(index, a, slot.start - fileEnd, slot.end - fileEnd)
            } else {
              try body(index, b, slot.start, slot.end)
            }
          }
        }
      }
    }
  }

  /// The bytes the list was read from (its byte order mark included), unchanged by its edits:
  /// what a store compares with the file when it writes the edits later (see
  /// `TodoStore.update(_:label:editedAfterReading:)`).
  package var bytesAsRead: [UInt8] { buffer }

  /// Whether the list is still the file as read: every edit, insertion or move adds bytes to
  /// the edit buffer, and every removal drops a line.
  var isAsRead: Bool { added.isEmpty && slots.count == originalCount }

  /// The size of the buffers the lines point into.
  var byteCount: Int { buffer.count + added.count }
}

/// How a line of an edited list relates to the file as it was read.
public enum LineChange: Hashable, Sendable {
  /// Line `original` (0-based, as read) is unchanged at `current`.
  case keep(original: Int, current: Int)
  /// Line `original` was edited and now stands at `current`.
  case replace(original: Int, current: Int)
  /// A line that was not in the file stands at `current`.
  case insert(current: Int)
  /// Line `original` is gone.
  case delete(original: Int)
}

extension TodoList {
  /// What became of each line read from the file: kept, replaced, deleted, and which lines
  /// are new. Lines whose order changed count as deleted and inserted.
  ///
  /// This is the line-level patch that storage uses to write only what changed, to re-apply an
  /// edit to a file that another program changed meanwhile, and to undo it.
  public func changes() -> [LineChange] {
    var result: [LineChange] = []
    var seen = [Bool](repeating: false, count: originalCount)
    var lastOrigin = -1
    for (index, slot) in slots.enumerated() {
      let origin = Int(slot.origin)
      if origin >= 0, origin > lastOrigin, origin < originalCount {
        seen[origin] = true
        lastOrigin = origin
        result.append(slot.edited ? .replace(original: origin, current: index) : .keep(original: origin, current: index))
      } else {
        result.append(.insert(current: index))
      }
    }
    for origin in 0..<originalCount where !seen[origin] { result.append(.delete(original: origin)) }
    return result
  }

  /// Calls `body` for each stretch between lines that ``changes()`` reports as kept: lines
  /// `old` of the file as read became lines `new` of the list (either may be empty). The
  /// stretches come in order, and the last one reaches the end of both.
  ///
  /// One call per change, not per line: an edit of one line in a million-line file is two
  /// calls (the edited line, and the empty stretch at the end).
  package func forEachChangedStretch(_ body: (_ old: Range<Int>, _ new: Range<Int>) throws -> Void) rethrows {
    var lastOrigin = -1
    var old = 0
    var new = 0
    try slots.withUnsafeBufferPointer { slots in
      for index in 0..<slots.count {
        let slot = slots[index]
        let origin = Int(slot.origin)
        guard origin >= 0, origin > lastOrigin, origin < originalCount else { continue }
        lastOrigin = origin
        guard !slot.edited else { continue }
        // A kept line: what lies before it since the last kept line changed.
        if origin > old || index > new { try body(old..<origin, new..<index) }
        old = origin + 1
        new = index + 1
      }
    }
    try body(old..<originalCount, new..<slots.count)
  }

  /// Calls `body` with the bytes (without ending) and the ending of each line `old` of the
  /// file as read, for a stretch that ``forEachChangedStretch(_:)`` reported.
  ///
  /// The lines are found in the file's bytes, which the list keeps unchanged, right after the
  /// kept line before the stretch (or at the file's start): a patch that must tell what an
  /// edit removed needs neither the list as read (a second array of a million slots for a
  /// large file) nor copies of the removed lines.
  package func forEachOriginalLine(
    ofStretch old: Range<Int>, new: Range<Int>, _ body: (ArraySlice<UInt8>, LineEnding) throws -> Void
  ) rethrows {
    guard !old.isEmpty else { return }
    precondition((old.lowerBound == 0) == (new.lowerBound == 0), "not a stretch of this list")
    var start: Int
    if new.lowerBound == 0 {
      start = buffer.starts(with: TodoList.byteOrderMark) ? TodoList.byteOrderMark.count : 0
    } else {
      let kept = slots[new.lowerBound - 1]
      precondition(!kept.edited && kept.start < buffer.count, "not a stretch of this list")
      start = kept.end + kept.ending.byteCount
    }
    for _ in old {
      precondition(start <= buffer.count, "not a stretch of this list")
      let n = buffer.count
      let newline = buffer.withUnsafeBufferPointer { b -> Int in
        guard let base = b.baseAddress, start < n, let hit = memchr(base + start, Int32(UInt8.lf), n - start)
        else { return n }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      }
      if newline == n {
        try body(buffer[start..<n], .none)
      } else if newline > start, buffer[newline - 1] == .cr {
        try body(buffer[start..<(newline - 1)], .crlf)
      } else {
        try body(buffer[start..<newline], .lf)
      }
      start = newline + 1
    }
  }
}

import Testing
import TodoTestSupport
@testable import TodoTxt

/// Buffers sized and advised for huge pages hold exactly what buffers of the plain size
/// hold: the sizing and the advice change where memory comes from, never its contents.
@Suite("Huge pages")
struct HugePagesTests {
  @Test("a capacity is at least what was asked, and a large one fills whole huge pages with its headers")
  func capacities() {
    for count in [0, 1, 4095, HugePages.threshold - 1, HugePages.threshold, HugePages.size, 6_463_597, 64_600_001] {
      let bytes = HugePages.byteCapacity(atLeast: count)
      #expect(bytes >= count)
      let words = HugePages.capacity(atLeast: count / 8 + 1, of: Int.self)
      #expect(words >= count / 8 + 1)
      if count >= HugePages.threshold {
        // The array's 32-byte header and the allocator's 16 bytes, rounded to 16, end the
        // last huge page exactly.
        #expect((bytes + 64) % HugePages.size == 0)
        #expect(bytes - count < HugePages.size)
      } else {
        #expect(bytes == count)
      }
    }
  }

  @Test("scratch memory is zeroed, writable to its end, and released", arguments: [1, 4096, 1 << 20, (5 << 20) + 3])
  func scratch(_ size: Int) {
    let scratch = HugePages.scratch(bytes: size)
    #expect(scratch.memory.count >= size)
    #expect(scratch.memory.allSatisfy { $0 == 0 })
    scratch.memory[0] = 0x5A
    scratch.memory[size - 1] = 0xA5
    #expect(scratch.memory[size - 1] == 0xA5)
    #expect(scratch.memory[0] == (size == 1 ? 0xA5 : 0x5A))
    scratch.release()
  }

  @Test("advice on buffers of every alignment leaves their bytes as they were")
  func adviceKeepsBytes() {
    var generator = SplitMix64(seed: 20)
    for size in [HugePages.threshold, 3 << 20, (4 << 20) + 17] {
      var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let before = bytes
      for offset in [0, 1, 48, 4095] {
        bytes.withUnsafeMutableBytes { raw in
          HugePages.advise(UnsafeMutableRawBufferPointer(rebasing: raw[offset...]))
        }
      }
      #expect(bytes == before)
    }
  }

  /// Line bounds as the documentation of ``TodoList/lineBounds(in:raw:)`` states them, one
  /// byte at a time.
  private func referenceBounds(_ bytes: [UInt8], raw: Bool) -> (starts: [Int], ends: [Int]) {
    var starts: [Int] = []
    var ends: [Int] = []
    let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    var start = mark ? 3 : 0
    while start < bytes.count {
      var newline = start
      while newline < bytes.count, bytes[newline] != 0x0A { newline += 1 }
      starts.append(raw && mark && starts.isEmpty ? 0 : start)
      let crlf = !raw && newline > start && newline < bytes.count && bytes[newline - 1] == 0x0D
      ends.append(crlf ? newline - 1 : newline)
      start = newline + 1
    }
    return (starts, ends)
  }

  @Test("line bounds and list slots of files past the room first made for them (short lines) match the byte-by-byte split")
  func lineBoundsPastTheirRoom() {
    var generator = SplitMix64(seed: 7)
    let pieces: [[UInt8]] = [[0x0A], [0x61, 0x0A], [0x0D, 0x0A], [0x61, 0x0D, 0x0A], Array("(A) task +p\n".utf8)]
    for (size, mark) in [(3 << 20, false), ((1 << 20) + 5, true), (200, true), (0, false)] {
      var bytes: [UInt8] = mark ? [0xEF, 0xBB, 0xBF] : []
      while bytes.count < size { bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
      if size > 0 { bytes += Array("no newline at the end".utf8) }
      // The list's own slots are made the same way: the same lines, written back unchanged.
      let list = TodoList(bytes: bytes)
      let plain = referenceBounds(bytes, raw: false)
      #expect(list.count == plain.starts.count, "size \(size)")
      #expect(list.serialized() == bytes, "size \(size)")
      if list.count > 0 { #expect(list.lineBytes(at: list.count - 1).elementsEqual(bytes[plain.starts.last!..<plain.ends.last!])) }
      for raw in [false, true] {
        let found = TodoList.lineBounds(in: bytes, raw: raw)
        let wanted = referenceBounds(bytes, raw: raw)
        #expect(found.starts == wanted.starts, "size \(size), raw \(raw)")
        #expect(found.ends == wanted.ends, "size \(size), raw \(raw)")
      }
    }
  }

  @Test("recycled scratch is given out again when large enough, and is never shared")
  func recycledScratch() {
    // A spare of the test's own: the shared one is used by listings running beside it.
    let spare = HugePages.Spare()
    func take(_ bytes: Int) -> HugePages.Scratch { HugePages.reusableScratch(bytes: bytes, from: spare) }
    let first = take(2 * HugePages.size)
    first.memory.storeBytes(of: 0x5A, toByteOffset: 17, as: UInt8.self)
    first.recycle(into: spare)
    // A smaller ask takes the kept mapping, contents and all; a second ask while it is out
    // gets memory of its own.
    let again = take(HugePages.size)
    let other = take(HugePages.size)
    #expect(again.memory.baseAddress == first.memory.baseAddress)
    #expect(again.memory.load(fromByteOffset: 17, as: UInt8.self) == 0x5A)
    #expect(other.memory.baseAddress != again.memory.baseAddress)
    #expect(other.memory.count >= HugePages.size)
    // One mapping is kept: the first one given back (`other`); `again` goes to the system.
    other.recycle(into: spare)
    again.recycle(into: spare)
    // An ask larger than the kept one is made afresh; too large to keep, it goes back to the
    // system, and the kept one stays.
    let larger = take(8 * HugePages.size)
    #expect(larger.memory.baseAddress != other.memory.baseAddress)
    #expect(larger.memory.count >= 8 * HugePages.size)
    larger.recycle(into: spare)
    let kept = take(1)
    #expect(kept.memory.baseAddress == other.memory.baseAddress)
    #expect(spare.take(atLeast: 1) == nil)
    kept.release()
  }
}

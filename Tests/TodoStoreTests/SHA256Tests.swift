import Foundation
import Testing

@testable import TodoStore

/// The store's SHA-256 and HMAC against published vectors and against `sha256sum`.
@Suite struct SHA256Tests {
  func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  /// FIPS 180-4 examples (one block, empty, two blocks) and a million 'a's.
  @Test func publishedVectors() {
    #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 test cases 2 (short key) and 6 (key longer than a block).
  @Test func hmacVectors() {
    #expect(
      hex(SHA256.authenticationCode(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(
      hex(
        SHA256.authenticationCode(
          Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
          key: [UInt8](repeating: 0xaa, count: 131)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  /// Random inputs of every length around the block boundaries, fed in random pieces, agree
  /// with `sha256sum` run on the same bytes.
  @Test func agreesWithSha256sum() throws {
    var generator = SeededGenerator(seed: 15)
    let dir = Scratch()
    for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4097] {
      let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var hasher = SHA256()
      var offset = 0
      while offset < input.count {
        let piece = Int.random(in: 1...70, using: &generator)
        hasher.update(Array(input[offset..<min(input.count, offset + piece)]))
        offset += piece
      }
      _ = FileManager.default.createFile(atPath: dir.file("input"), contents: Data(input))
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
      process.arguments = [dir.file("input")]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let expected = String(decoding: output, as: UTF8.self).prefix(64)
      #expect(hex(hasher.finish()) == expected, "length \(length)")
    }
  }
}

/// A seeded generator, so a failing length is reproduced exactly.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

import Foundation
import Testing

@testable import TodoStore
import TodoTestSupport

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
    var generator = SplitMix64(seed: 15)
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


/// The pieces a journal is sealed in (blocks of the encoding, of any size) give the seal of
/// the whole, which is what journals written before were sealed with.
@Suite struct StreamedSealTests {
  @Test func authenticatorInPiecesMatchesOneShot() {
    var generator = SplitMix64(seed: 20)
    let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for length in [0, 63, 64, 65, 4096, 200_001] {
      let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var code = Authenticator(key: key)
      var offset = 0
      while offset < message.count {
        let piece = Int.random(in: 1...9000, using: &generator)
        code.update(Array(message[offset..<min(message.count, offset + piece)]))
        offset += piece
      }
      #expect(code.finish() == SHA256.authenticationCode(message, key: key), "length \(length)")
    }
  }

  /// Many blocks in one call (the way a journal's megabyte blocks arrive) against `sha256sum`
  /// is in ``SHA256Tests``; here the one-shot hash of a long input against pieces of it.
  @Test func longInputInLargePieces() {
    var generator = SplitMix64(seed: 21)
    let input = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    var hasher = SHA256()
    var offset = 0
    while offset < input.count {
      let piece = Int.random(in: 1...70_000, using: &generator)
      hasher.update(Array(input[offset..<min(input.count, offset + piece)]))
      offset += piece
    }
    #expect(hasher.finish() == SHA256.hash(input))
  }

  /// The file hash given in pieces is the one-shot hash as the journal's second version
  /// defined it (written out again here, word by word, as it stood).
  @Test func fileHashInPiecesMatchesTheFormula() {
    func formula(_ bytes: [UInt8]) -> UInt64 {
      var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
      var offset = 0
      func rotate(_ x: UInt64, _ n: UInt64) -> UInt64 { x << n | x >> (64 - n) }
      while offset + 8 <= bytes.count {
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
        hash = rotate((hash ^ word) &* 0xFF51_AFD7_ED55_8CCD, 29)
        offset += 8
      }
      var tail: UInt64 = 0
      for (index, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << UInt64(index * 8) }
      hash = rotate((hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53, 31)
      hash ^= hash >> 33
      hash = hash &* 0xFF51_AFD7_ED55_8CCD
      return hash ^ (hash >> 33)
    }
    var generator = SplitMix64(seed: 22)
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 1000, 65_537] {
      let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(ContentHash.ofFile(input) == formula(input), "length \(length)")
      var hasher = ContentHash.FileHasher(count: input.count)
      var offset = 0
      while offset < input.count {
        let piece = Int.random(in: 1...20, using: &generator)
        input[offset..<min(input.count, offset + piece)].withContiguousStorageIfAvailable { hasher.update($0) }
        offset += piece
      }
      #expect(hasher.finish() == formula(input), "length \(length) in pieces")
    }
  }
}


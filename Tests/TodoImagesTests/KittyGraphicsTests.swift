import Testing
import TodoImages
import TodoTestSupport

/// Kitty commands: the first carries the picture's keys, the rest only `m` (and `q`), payloads
/// of at most 4096 bytes, and the base64 decodes back to the pixels.
@Suite struct KittyGraphicsTests {
  struct Command {
    var keys: [String: String]
    var keyOrder: [String]
    var payload: String
  }

  /// Splits the output into APC graphics commands; anything between them is an error.
  func commands(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Command] {
    var result: [Command] = []
    var rest = Substring(output)
    while !rest.isEmpty {
      guard rest.hasPrefix("\u{1B}_G"), let end = rest.firstRange(of: "\u{1B}\\") else {
        Issue.record("not a graphics command: \(rest.prefix(20))", sourceLocation: sourceLocation)
        return result
      }
      let body = rest[rest.index(rest.startIndex, offsetBy: 3)..<end.lowerBound]
      rest = rest[end.upperBound...]
      let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      var keys: [String: String] = [:]
      var order: [String] = []
      for pair in parts[0].split(separator: ",") {
        let keyValue = pair.split(separator: "=", maxSplits: 1)
        keys[String(keyValue[0])] = keyValue.count > 1 ? String(keyValue[1]) : ""
        order.append(String(keyValue[0]))
      }
      result.append(
        Command(keys: keys, keyOrder: order, payload: parts.count > 1 ? String(parts[1]) : ""))
    }
    return result
  }

  /// Base64 decoding written from RFC 4648; `nil` for anything malformed.
  func base64Decode(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    let characters = Array(text)
    guard characters.count % 4 == 0 else { return nil }
    var bytes: [UInt8] = []
    for start in stride(from: 0, to: characters.count, by: 4) {
      let group = characters[start..<(start + 4)]
      let padding = group.reversed().prefix { $0 == "=" }.count
      guard padding <= 2, start + 4 == characters.count || padding == 0 else { return nil }
      var value = 0
      for character in group {
        if character == "=" {
          value <<= 6
        } else {
          guard let index = alphabet.firstIndex(of: character) else { return nil }
          value = value << 6 | index
        }
      }
      bytes += [UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)].prefix(
        3 - padding)
    }
    return bytes
  }

  @Test func base64DecoderHereIsRight() {
    #expect(base64Decode("TWFu") == Array("Man".utf8))
    #expect(base64Decode("TWE=") == Array("Ma".utf8))
    #expect(base64Decode("TQ==") == Array("M".utf8))
    #expect(base64Decode("") == [])
  }

  @Test(arguments: [
    // (width, height, expected payload lengths): 4 bytes a pixel, 4 base64 characters per 3 bytes.
    (1, 1, [8]),
    (32, 24, [4096]),  // 3072 bytes: exactly one full chunk
    (40, 30, [4096, 2304]),  // 4800 bytes: 6400 characters
    (64, 24, [4096, 4096]),  // 6144 bytes: exactly two
    (65, 24, [4096, 4096, 128]),
    (7, 3, [112]),
  ])
  func chunksTheBase64Payload(width: Int, height: Int, expectedLengths: [Int]) throws {
    var generator = SplitMix64(seed: UInt64(width * 1000 + height))
    let image = randomImage(width: width, height: height, generator: &generator)
    let parsed = commands(KittyGraphics.display(image, columns: 6, rows: 4))
    #expect(parsed.map(\.payload.count) == expectedLengths)
    let first = try #require(parsed.first)
    #expect(
      first.keys == [
        "a": "T", "f": "32", "s": "\(width)", "v": "\(height)", "c": "6", "r": "4", "C": "1",
        "q": "2", "m": parsed.count > 1 ? "1" : "0",
      ])
    #expect(first.keyOrder.first == "a" && first.keyOrder.last == "m")
    for (index, command) in parsed.enumerated().dropFirst() {
      #expect(command.keys == ["q": "2", "m": index == parsed.count - 1 ? "0" : "1"])
    }
    for command in parsed.dropLast() {
      #expect(command.payload.count % 4 == 0 && !command.payload.contains("="))
    }
    #expect(parsed.allSatisfy { $0.payload.count <= KittyGraphics.maximumChunkLength })
    #expect(base64Decode(parsed.map(\.payload).joined()) == image.pixels)
  }

  @Test func anIDAndCursorMovementAreOptional() throws {
    let image = RGBAImage(
      width: 2, height: 2, filledWith: RGBAPixel(red: 1, green: 2, blue: 3, alpha: 4))
    let named = try #require(
      commands(KittyGraphics.display(image, columns: 1, rows: 1, imageID: 42, movesCursor: true))
        .first)
    #expect(named.keys["i"] == "42" && named.keys["C"] == nil)
    let zero = try #require(
      commands(KittyGraphics.display(image, columns: 1, rows: 1, imageID: 0)).first)
    #expect(zero.keys["i"] == nil && zero.keys["C"] == "1")
  }

  @Test func deleteCommands() {
    #expect(KittyGraphics.delete() == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
    #expect(KittyGraphics.delete(.visible) == "\u{1B}_Ga=d,d=a,q=2\u{1B}\\")
    #expect(KittyGraphics.delete(.image(id: 42)) == "\u{1B}_Ga=d,d=I,i=42,q=2\u{1B}\\")
  }
}

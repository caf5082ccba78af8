import Testing
import TodoTxt

/// `todo import` reads what anyone may write: input that is not what JSON says is an error
/// naming where, never a silent substitute.
@Suite struct JSONReaderHostileTests {
  func failure(_ json: [UInt8]) -> String? {
    do {
      _ = try JSONReader.values(json)
      return nil
    } catch {
      return error.message
    }
  }

  func failure(_ json: String) -> String? { failure(Array(json.utf8)) }

  @Test("a lone surrogate escape is an error, not U+FFFD", arguments: [
    #"{"text":"\ud800"}"#, #"{"text":"\udc00"}"#, #"{"text":"\ud800\u0041"}"#, #"{"text":"a\udbffb"}"#,
  ])
  func loneSurrogate(_ json: String) {
    #expect(failure(json)?.contains("surrogate") == true)
  }

  @Test("a surrogate pair is one character")
  func surrogatePair() throws {
    #expect(try JSONReader.values(Array(#"{"text":"\ud83d\ude00"}"#.utf8)) == [.object([("text", .string("😀"))])])
  }

  @Test("bytes that are not UTF-8 in a string are an error, not U+FFFD")
  func invalidUTF8() {
    let prefix = Array(#"{"text":""#.utf8)
    let suffix = Array(#""}"#.utf8)
    for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
      #expect(failure(prefix + bad + suffix)?.contains("UTF-8") == true, "\(bad)")
    }
  }

  @Test("a member named twice is an error: which one was meant is not known")
  func duplicateMember() {
    #expect(failure(#"{"text":"a","text":"b"}"#) == "'text' is given twice in one object")
    #expect(failure(#"[{"text":"a","tags":{"k":"1","k":"2"}}]"#) == "'k' is given twice in one object")
    #expect(failure(#"[{"text":"a"},{"text":"b"}]"#) == nil)
  }
}

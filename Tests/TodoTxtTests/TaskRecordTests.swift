import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// The JSON form of a task: a ``TaskRecord`` encoded by ``JSONStreamEncoder`` and read back
/// by ``JSONReader`` and ``JSONValueDecoder`` is the same record, for any line.
@Suite struct TaskRecordTests {
  func encoded(_ value: some Encodable) throws -> String {
    String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
  }

  func decoded<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    let values = try JSONReader.values(Array(json.utf8))
    #expect(values.count == 1)
    return try JSONValueDecoder().decode(type, from: values.first ?? .null)
  }

  /// The decoding error's one line, or `nil` when the object decodes.
  func problem(_ json: String) -> String? {
    do {
      _ = try decoded(TaskRecord.self, json)
      return nil
    } catch let error as DecodingError {
      return error.problem
    } catch {
      return "\(error)"
    }
  }

  @Test func aTaskIsWrittenInTheDocumentedShape() throws {
    let task = Task(parsing: "x (B) 2026-01-05 2026-01-02 Call \"Mom\" +family @phone due:2026-01-09 t:bad k:v")
    let json = try encoded(TaskRecord(task, line: 7, file: "done.txt"))
    #expect(
      json == #"{"line":7,"file":"done.txt","raw":"x (B) 2026-01-05 2026-01-02 Call \"Mom\" +family @phone "#
        + #"due:2026-01-09 t:bad k:v","hash":"\#(task.contentHash)","done":true,"priority":"B","created":"2026-01-02","#
        + #""completed":"2026-01-05","due":"2026-01-09","threshold":null,"projects":["family"],"contexts":["phone"],"#
        + #""tags":[{"key":"due","value":"2026-01-09"},{"key":"t","value":"bad"},{"key":"k","value":"v"}],"#
        + #""text":"Call \"Mom\" +family @phone due:2026-01-09 t:bad k:v"}"#)
  }

  /// The order of the members is the order todo(1) lists them in.
  @Test func membersComeInTheOrderOfTheManual() throws {
    let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/todo.1")
    let lines = try String(contentsOf: manual, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("The members are stable") })
    let end = try #require(lines[start...].firstIndex { $0 == ".El" })
    let documented = lines[start..<end].filter { $0.hasPrefix(".It Li ") }.flatMap {
      $0.dropFirst(".It Li ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let object = try JSONReader.values(try JSONStreamEncoder().encode(TaskRecord(Task(parsing: "a"), line: 1, file: "f")))
    guard case .object(let members)? = object.first else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.0) == documented)
    #expect(documented.count == 14)
  }

  @Test func theDateMembersAreTheFieldsOfTheirTags() throws {
    let json = try encoded(TaskRecord(Task(parsing: "a due:2026-01-09 t:2026-01-01"), line: nil, file: nil))
    #expect(json.contains("\"\(TagMeaning.due.field)\":\"2026-01-09\""))
    #expect(json.contains("\"\(TagMeaning.threshold.field)\":\"2026-01-01\""))
  }

  /// Seeded lines with every awkward byte, and one of a megabyte, come back as the same record.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func recordsRoundTrip(seed: UInt64) throws {
    let encoder = JSONStreamEncoder()
    for (index, line) in AwkwardLines.corpus(seed: seed, count: 600, huge: 1).enumerated() {
      let record = TaskRecord(Task(bytes: line), line: index + 1, file: "todo.txt")
      let json = try encoder.encode(record)
      let values = try JSONReader.values(json)
      #expect(values.count == 1, "seed \(seed), line \(index + 1)")
      let back = try JSONValueDecoder().decode(TaskRecord.self, from: values.first ?? .null)
      #expect(back == record, "seed \(seed), line \(index + 1)")
      // No byte a reader could take for the end of a line or of a script, and valid UTF-8.
      #expect(!json.contains(0x0A) && !json.contains(0x0D) && !json.contains(0x00) && !json.contains(0x7F))
      #expect(String(validating: json, as: UTF8.self) != nil)
    }
  }

  /// Records with members left out or null come back the same, and say so in their JSON.
  @Test func partialRecordsRoundTrip() throws {
    var generator = SplitMix64(seed: 42)
    func nullable(_ value: String) -> String?? {
      switch generator.below(3) {
      case 0: .none
      case 1: .some(nil)
      default: .some(value)
      }
    }
    for index in 0..<500 {
      let record = TaskRecord(
        line: generator.below(2) == 0 ? nil : index, file: generator.below(2) == 0 ? nil : "todo.txt",
        done: generator.below(3) == 0 ? nil : generator.below(2) == 0,
        priority: nullable("A"), created: nullable("2026-01-02"), completed: nullable("today"), due: nullable("fri"),
        threshold: nullable("2026-13-01"), projects: generator.below(2) == 0 ? nil : ["p", "+q"],
        tags: generator.below(2) == 0 ? nil : [Tag(key: "k", value: "v")],
        text: String(decoding: AwkwardLines.line(&generator), as: UTF8.self))
      let json = try encoded(record)
      #expect(try decoded(TaskRecord.self, json) == record, "\(json)")
      #expect(json.contains("\"priority\"") == (record.priority != nil))
      #expect(json.contains("\"priority\":null") == (record.priority == .some(nil)))
    }
    #expect(try encoded(TaskRecord(text: "only")) == #"{"text":"only"}"#)
  }

  @Test func anObjectWithOnlyATextDecodes() throws {
    let record = try decoded(TaskRecord.self, #"{"text":"a","unknown":[1,{"x":null}],"created":null}"#)
    #expect(record == TaskRecord(created: .some(nil), text: "a"))
  }

  /// The forms import takes besides the one it writes: tags as `[key, value]` pairs or as an
  /// object, `null` for the lists.
  @Test func otherFormsOfTheMembers() throws {
    let pairs = try decoded(TaskRecord.self, #"{"text":"a","tags":[["k","1"],{"key":"k","value":"2"}]}"#)
    #expect(pairs.tags == [Tag(key: "k", value: "1"), Tag(key: "k", value: "2")])
    let object = try decoded(TaskRecord.self, #"{"text":"a","tags":{"b":"2","a":"1"}}"#)
    #expect(object.tags == [Tag(key: "b", value: "2"), Tag(key: "a", value: "1")])
    let nulls = try decoded(TaskRecord.self, #"{"text":"a","done":null,"projects":null,"tags":null}"#)
    #expect(nulls == TaskRecord(text: "a"))
    // Where a listed task was is no business of a reader: another type reads as left out.
    let elsewhere = try decoded(TaskRecord.self, #"{"text":"a","line":"7","file":3,"raw":null,"hash":[]}"#)
    #expect(elsewhere == TaskRecord(text: "a"))
  }

  /// A hostile object is refused in one line, or read in one pass.
  @Test func hostileObjects() throws {
    let huge = String(repeating: #"\u001b"#, count: 1 << 20)
    #expect(problem(#"{"text":"a","due":[""# + huge + #""]}"#) == #""due" should be a string or null"#)
    #expect(try decoded(TaskRecord.self, #"{"text":""# + huge + #""}"#).text == String(repeating: "\u{1B}", count: 1 << 20))
    let manyTags = "{\"text\":\"a\",\"tags\":{" + (0..<200_000).map { "\"k\($0)\":\"v\"" }.joined(separator: ",") + "}}"
    #expect(try decoded(TaskRecord.self, manyTags).tags?.count == 200_000)
    let deep = String(repeating: "[", count: 10_000)
    #expect(throws: JSONReader.Failure.self) { try JSONReader.values(Array(deep.utf8)) }
  }

  @Test(arguments: [
    (#"[]"#, "expected an object"),
    (#"null"#, "expected an object"),
    (#"{}"#, #"needs "text" (a string)"#),
    (#"{"text":null}"#, #"needs "text" (a string)"#),
    (#"{"text":1}"#, #"needs "text" (a string)"#),
    (#"{"text":"a","done":"no"}"#, #""done" should be true or false"#),
    (#"{"text":"a","priority":true}"#, #""priority" should be a string or null"#),
    (#"{"text":"a","created":{}}"#, #""created" should be a string or null"#),
    (#"{"text":"a","completed":1}"#, #""completed" should be a string or null"#),
    (#"{"text":"a","due":[]}"#, #""due" should be a string or null"#),
    (#"{"text":"a","threshold":false}"#, #""threshold" should be a string or null"#),
    (#"{"text":"a","projects":{}}"#, #""projects" should be an array of strings"#),
    (#"{"text":"a","contexts":["a",["b"]]}"#, #""contexts" should hold strings"#),
    (#"{"text":"a","tags":"k:v"}"#, #""tags" should be an array or an object"#),
    (#"{"text":"a","tags":{"k":["v"]}}"#, "tag values should be strings"),
    (#"{"text":"a","tags":["k:v"]}"#, #"a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[{"key":"k","value":null}]}"#, #"a tag should be {"key": ..., "value": ...}"#),
    (#"{"text":"a","tags":[["k"]]}"#, "a tag should be [key, value]"),
    (#"{"text":"a","tags":[["k",null]]}"#, "a tag should be [key, value]"),
  ])
  func eachMemberSaysWhatItShouldHold(_ json: String, _ message: String) {
    #expect(problem(json) == message)
  }

  /// The escapes of the hand-written writer this encoder replaced, one scalar at a time: the
  /// reference the byte-at-a-time escaping is checked against.
  static func referenceEscaped(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  @Test func stringsAreEscapedAsBefore() {
    var generator = SplitMix64(seed: 7)
    for index in 0..<3_000 {
      let text = String(decoding: AwkwardLines.line(&generator), as: UTF8.self)
      var writer = JSONWriter()
      writer.string(text)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.referenceEscaped(text), "line \(index)")
    }
    var writer = JSONWriter()
    writer.string("\u{2028}\u{2029}\u{2027}\u{202A}\u{E2}")
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #""\u2028\u2029\#u{2027}\#u{202A}\#u{E2}""#)
  }
}

/// The encoder and decoder with types other than the record: the rules of `Codable` they
/// keep, so that a record that grows a nested member still writes valid JSON.
@Suite struct JSONCodingTests {
  struct Sample: Codable, Equatable {
    struct Inner: Codable, Equatable {
      var values: [Int]
      var flag: Bool?
    }
    var name: String
    var count: Int
    var ratio: Double
    var small: UInt8
    var inner: Inner
    var list: [Inner]
    var nested: [[String]]
    var table: [String: Int]
    var optional: String?
    var empty: [String]
  }

  let sample = Sample(
    name: "s\u{2028}", count: -3, ratio: 0.25, small: 200, inner: .init(values: [1, 2], flag: nil),
    list: [.init(values: [], flag: true), .init(values: [3], flag: false)], nested: [[], ["a"], ["b", "c"]],
    table: ["one": 1], optional: nil, empty: [])

  @Test func synthesizedConformancesRoundTrip() throws {
    let bytes = try JSONStreamEncoder().encode(sample)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text == #"{"name":"s\u2028","count":-3,"ratio":0.25,"small":200,"inner":{"values":[1,2]},"#
        + #""list":[{"values":[],"flag":true},{"values":[3],"flag":false}],"nested":[[],["a"],["b","c"]],"#
        + #""table":{"one":1},"empty":[]}"#)
    let value = try #require(try JSONReader.values(bytes).first)
    #expect(try JSONValueDecoder().decode(Sample.self, from: value) == sample)
  }

  @Test func topLevelValuesAndArrays() throws {
    #expect(try JSONStreamEncoder().encode("a\"b") == Array(#""a\"b""#.utf8))
    #expect(try JSONStreamEncoder().encode([1, 2]) == Array("[1,2]".utf8))
    #expect(try JSONStreamEncoder().encode([String]()) == Array("[]".utf8))
    #expect(try JSONStreamEncoder().encode(Optional<Int>.none) == Array("null".utf8))
  }

  /// One encoder writes many values into one buffer; a failed value leaves nothing behind.
  @Test func oneEncoderForManyValues() throws {
    let encoder = JSONStreamEncoder()
    var writer = JSONWriter()
    try encoder.encode([1], into: &writer)
    #expect(throws: EncodingError.self) { try encoder.encode(["ok": Double.nan], into: &writer) }
    try encoder.encode(TaskRecord(text: "t"), into: &writer)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[1]{"text":"t"}"#)
  }

  /// A container used after its parent moved on has no place in the output: it throws.
  @Test func aContainerWrittenOutOfTurnThrows() throws {
    struct OutOfTurn: Encodable {
      enum Keys: CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: Keys.self)
        var first = members.nestedUnkeyedContainer(forKey: .a)
        try members.encode(1, forKey: .b)
        try first.encode(2)
      }
    }
    #expect(throws: EncodingError.self) { try JSONStreamEncoder().encode(OutOfTurn()) }
  }

  @Test func decodingErrorsNameTheirPlace() throws {
    let value = try #require(try JSONReader.values(Array(#"{"inner":{"values":[1,"2"]}}"#.utf8)).first)
    do {
      _ = try JSONValueDecoder().decode([String: Sample.Inner].self, from: value)
      Issue.record("decoded")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["inner", "values", "Index 1"])
    }
    let fraction = try #require(try JSONReader.values(Array("[1.5]".utf8)).first)
    #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int].self, from: fraction) }
    #expect(try JSONValueDecoder().decode([Double].self, from: fraction) == [1.5])
  }
}

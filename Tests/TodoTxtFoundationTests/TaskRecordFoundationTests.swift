import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// Foundation's `JSONEncoder` and `JSONDecoder` and the library's own encoder and decoder
/// (which the command line uses, without Foundation) agree on a task's record: each reads
/// what the other writes as the same record, and both write the same JSON values.
@Suite struct TaskRecordFoundationTests {
  /// The records of the seeded awkward lines, complete and with members left out.
  static func records(seed: UInt64) -> [TaskRecord] {
    var generator = SplitMix64(seed: seed &* 31)
    return AwkwardLines.corpus(seed: seed, count: 300, huge: 1).enumerated().map { index, line in
      var record = TaskRecord(Task(bytes: line), line: index + 1, file: "todo.txt")
      if generator.below(4) == 0 {
        record.line = nil
        record.hash = nil
        record.created = generator.below(2) == 0 ? nil : .some(nil)
        record.projects = nil
      }
      return record
    }
  }

  func ours(_ record: TaskRecord) throws -> Data { Data(try JSONStreamEncoder().encode(record)) }

  func readByUs(_ data: Data) throws -> TaskRecord {
    let values = try JSONReader.values([UInt8](data))
    #expect(values.count == 1)
    return try JSONValueDecoder().decode(TaskRecord.self, from: values.first ?? .null)
  }

  @Test(arguments: [1, 2] as [UInt64])
  func foundationReadsWhatWeWrite(seed: UInt64) throws {
    for record in Self.records(seed: seed) {
      #expect(try JSONDecoder().decode(TaskRecord.self, from: try ours(record)) == record)
    }
  }

  @Test(arguments: [1, 2] as [UInt64])
  func weReadWhatFoundationWrites(seed: UInt64) throws {
    let plain = JSONEncoder()
    let pretty = JSONEncoder()
    pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    for record in Self.records(seed: seed) {
      #expect(try readByUs(try plain.encode(record)) == record)
      #expect(try readByUs(try pretty.encode(record)) == record)
    }
  }

  /// Any JSON value, as Foundation's decoder reads it: objects compare by member, whatever
  /// their order. (`JSONSerialization` is not the reference here: on Linux it loses some
  /// U+FEFF characters of a string of a megabyte.)
  enum Parsed: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Parsed])
    case object([String: Parsed])

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let value = try? single.decode(String.self) {
        self = .string(value)
      } else if let value = try? single.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? single.decode(Double.self) {
        self = .number(value)
      } else if let value = try? single.decode([Parsed].self) {
        self = .array(value)
      } else {
        self = .object(try single.decode([String: Parsed].self))
      }
    }
  }

  /// Member order aside (Foundation's is its own unless sorted), the two write the same
  /// values: compared as parsed values, not as bytes.
  @Test(arguments: [1, 2] as [UInt64])
  func bothWriteTheSameValues(seed: UInt64) throws {
    for record in Self.records(seed: seed) {
      let theirs = try JSONDecoder().decode(Parsed.self, from: try JSONEncoder().encode(record))
      let mine = try JSONDecoder().decode(Parsed.self, from: try ours(record))
      #expect(theirs == mine)
      guard case .object(let members) = mine else {
        Issue.record("not an object")
        continue
      }
      #expect(members["text"] == .string(record.text))
    }
  }

  /// A wrong member read by Foundation's decoder says what it should hold, as import does.
  @Test func foundationsErrorsSayWhatAMemberShouldHold() throws {
    let cases = [
      (#"{"text":"a","priority":1}"#, #""priority" should be a string or null"#),
      (#"{"text":"a","projects":[1]}"#, #""projects" should hold strings"#),
      (#"{"text":"a","tags":[["k"]]}"#, "a tag should be [key, value]"),
      (#"{"done":true}"#, #"needs "text" (a string)"#),
    ]
    for (json, message) in cases {
      do {
        _ = try JSONDecoder().decode(TaskRecord.self, from: Data(json.utf8))
        Issue.record("decoded \(json)")
      } catch let error as DecodingError {
        #expect(error.problem == message, "\(json)")
      }
    }
  }
}

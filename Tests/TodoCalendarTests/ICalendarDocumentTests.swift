import Testing
import TodoCalendar
import TodoTestSupport

/// Reading and writing iCalendar objects: bytes nobody changed come back as they were, changed
/// lines are folded and escaped the standard way, and hostile input ends in a typed error or
/// a lossless document, in time linear in its size.
@Suite struct ICalendarDocumentTests {
  static let phoneObject = bytes(
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//Tasks 1.0//EN\r\nBEGIN:VTODO\r\n",
    "UID:abc-123\r\nDTSTAMP:20261201T101500Z\r\nSUMMARY:Buy milk\\, bread\\; and eggs \r\n",
    " from the shop\r\nCATEGORIES:Errands,\"quoted\"\r\n",
    "X-PHONE-COLOUR;X-PARAM=\"a:b;c\",plain;OTHER=1:#ff0000\r\n",
    "ATTACH;FMTTYPE=image/png:https://example.org/p.png\r\nGEO:48.85;2.35\r\n",
    "LOCATION:Corner shop\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n",
    "END:VTODO\r\nEND:VCALENDAR\r\n")

  static func bytes(_ parts: String...) -> [UInt8] { Array(parts.joined().utf8) }

  @Test func anUntouchedObjectIsWrittenBackByteForByte() throws {
    let document = try ICalendarDocument(parsing: Self.phoneObject)
    #expect(document.bytes == Self.phoneObject)
    // Bare LF, tab continuations, lower-case names: also kept as they came.
    let odd = Self.bytes("begin:vcalendar\nbegin:vtodo\nsummary:one\n\ttwo\nuid:x\nend:vtodo\nend:vcalendar")
    let read = try ICalendarDocument(parsing: odd)
    #expect(read.bytes == odd)
    #expect(read.todos.first?.property("SUMMARY")?.text == "onetwo")
  }

  @Test func linesAreUnfoldedAndParametersRead() throws {
    let document = try ICalendarDocument(parsing: Self.phoneObject)
    let todo = try #require(document.todos.first)
    #expect(todo.property("SUMMARY")?.text == "Buy milk, bread; and eggs from the shop")
    let colour = try #require(todo.property("x-phone-colour"))
    #expect(colour.parameters == [.init(name: "X-PARAM", values: ["a:b;c", "plain"]), .init("OTHER", "1")])
    #expect(colour.valueString == "#ff0000")
    #expect(todo.property("CATEGORIES")?.textList == ["Errands", "\"quoted\""])
    #expect(todo.components.map(\.name) == ["VALARM"])
  }

  @Test func aChangedPropertyIsRewrittenAloneFoldedAt75Octets() throws {
    var document = try ICalendarDocument(parsing: Self.phoneObject)
    let position = try #require(document.todoPositions.first)
    var todo = try #require(document[position])
    let long = String(repeating: "é😜a", count: 40)
    todo.set("SUMMARY", ICalendarProperty(name: "SUMMARY", text: long + ", done"))
    document[position] = todo
    let written = document.bytes
    let text = String(decoding: written, as: UTF8.self)
    // Every other line is as it was.
    let before = String(decoding: Self.phoneObject, as: UTF8.self).split(separator: "\r\n")
    for line in before where !line.hasPrefix("SUMMARY") && !line.hasPrefix(" from") {
      #expect(text.contains(line + "\r\n"))
    }
    // Each physical line is at most 75 octets and valid UTF-8 on its own.
    for line in written.split(separator: 0x0A) {
      #expect(line.count <= 76, "\(line.count)")
      #expect(String(validating: line.dropLast(), as: UTF8.self) != nil)
    }
    let reread = try ICalendarDocument(parsing: written)
    #expect(reread.todos.first?.property("SUMMARY")?.text == long + ", done")
  }

  @Test func textEscapingGoesBothWays() {
    let text = "a\\b;c,d\ne\r\nf\rg\th"
    let escaped = ICalendarText.escape(text)
    #expect(escaped == "a\\\\b\\;c\\,d\\ne\\nf\\ng\th")
    #expect(ICalendarText.unescape(Array(escaped.utf8)) == "a\\b;c,d\ne\nf\ng\th")
    #expect(ICalendarText.unescape(Array("x\\Ny\\:z\\".utf8)) == "x\ny\\:z\\")
    // Controls a TEXT value cannot hold become U+FFFD.
    #expect(ICalendarText.escape("a\u{0}b\u{1B}c\u{85}d\u{7F}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}")
    #expect(ICalendarText.unescapeList(Array("a\\,b,c,,d\\\\".utf8)) == ["a,b", "c", "", "d\\"])
    #expect(ICalendarText.unescapeList([]) == [])
  }

  @Test func foldingNeverSplitsAUTF8SequenceAndCountsTheLeadingSpace() {
    var generator = SplitMix64(seed: 75)
    let pieces = ["a", "é", "€", "😜", "\u{301}"]
    for _ in 0..<200 {
      var line = "X:"
      for _ in 0..<generator.below(400) { line += pieces[generator.below(pieces.count)] }
      let folded = ICalendarText.fold(Array(line.utf8))
      var unfolded: [UInt8] = []
      for (index, physical) in folded.split(separator: 0x0A).enumerated() {
        #expect(physical.last == 0x0D)
        #expect(physical.count - 1 <= 75)
        #expect(String(validating: physical.dropLast(), as: UTF8.self) != nil)
        unfolded += index == 0 ? physical.dropLast() : physical.dropFirst().dropLast()
      }
      #expect(unfolded == Array(line.utf8))
    }
    // Invalid UTF-8 (a run of continuation bytes) is still cut within the width.
    let junk = ICalendarText.fold([UInt8](repeating: 0x80, count: 300))
    #expect(junk.split(separator: 0x0A).allSatisfy { $0.count <= 76 })
  }

  @Test func everyVTODOIsVisibleOverridesAndDuplicates() throws {
    let object = Self.bytes(
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:r\r\nRRULE:FREQ=WEEKLY\r\nEND:VTODO\r\n",
      "BEGIN:VTODO\r\nUID:r\r\nRECURRENCE-ID:20261207\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\n",
      "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\nEND:VTIMEZONE\r\n",
      "BEGIN:VTODO\r\nUID:r\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    let document = try ICalendarDocument(parsing: object)
    #expect(document.todos.count == 3)
    #expect(document.todos.map(\.uid) == ["r", "r", "r"])
    #expect(document.todos.map(\.recurrenceID) == [nil, "20261207", nil])
    #expect(document.bytes == object)
  }

  @Test func malformedStructureIsATypedError() {
    let cases: [(String, ICalendarError)] = [
      ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n", .unterminated(component: "VTODO")),
      ("BEGIN:VCALENDAR\r\nEND:VTODO\r\n", .mismatchedEnd(line: 2, expected: nil, found: "VTODO")),
      ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", .mismatchedEnd(line: 3, expected: "VCALENDAR", found: "VCALENDAR")),
      ("SUMMARY:x\r\n", .outsideComponent(line: 1)),
      ("garbage\r\n", .outsideComponent(line: 1)),
      ("BEGIN:\r\nEND:\r\n", .unnamedComponent(line: 1)),
      ("\r\n\r\n", .empty),
      ("", .empty),
    ]
    for (input, expected) in cases {
      #expect(throws: expected) { try ICalendarDocument(parsing: Array(input.utf8)) }
    }
    // The message names the problem on one line, without the input's control characters.
    let message = ICalendarError.mismatchedEnd(line: 2, expected: "A\u{1B}[2J", found: "B").description
    #expect(!message.contains("\u{1B}") && !message.contains("\n") && message.contains("line 2"))
  }

  @Test func limitsAreTypedErrorsNestingBombsIncluded() {
    let bomb = Array(String(repeating: "BEGIN:X\r\n", count: 100_000).utf8)
    #expect(throws: ICalendarError.tooDeep(line: 17, limit: 16)) { try ICalendarDocument(parsing: bomb) }
    let small = ICalendarDocument.Limits(maximumBytes: 100)
    #expect(throws: ICalendarError.tooLarge(size: ICalendarDocumentTests.phoneObject.count, limit: 100)) {
      try ICalendarDocument(parsing: ICalendarDocumentTests.phoneObject, limits: small)
    }
    let flood = Array(("BEGIN:VCALENDAR\r\n" + String(repeating: "X:1\r\n", count: 300_000) + "END:VCALENDAR\r\n").utf8)
    #expect(throws: ICalendarError.tooManyLines(limit: 200_000)) { try ICalendarDocument(parsing: flood) }
  }

  @Test func hostileBytesAreKeptLosslessly() throws {
    var generator = SplitMix64(seed: 5545)
    let nasty: [[UInt8]] = [[0x00], [0x1B, 0x5B, 0x32, 0x4A], [0xC2, 0x85], [0x9B], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x0D], Array("\\".utf8), Array(";".utf8), Array(",".utf8), Array(":".utf8), Array("\"".utf8), Array("=".utf8), [0x20], [0x09], Array("é".utf8)]
    for _ in 0..<300 {
      var body: [UInt8] = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n".utf8)
      for _ in 0..<generator.below(12) {
        var line: [UInt8] = Array(["SUMMARY", "X-A;P=", "DESCRIPTION;Q=\"", "BAD LINE", "", "CATEGORIES"][generator.below(6)].utf8)
        for _ in 0..<generator.below(10) { line += nasty[generator.below(nasty.count)] }
        // A line starting with white space would continue the one before (a BEGIN line, say):
        // each stays a line of its own here.
        if line.first == 0x20 || line.first == 0x09 { line.insert(UInt8(ascii: "Y"), at: 0) }
        body += line + (generator.below(2) == 0 ? [0x0D, 0x0A] : [0x0A])
      }
      body += Array("END:VTODO\r\nEND:VCALENDAR\r\n".utf8)
      let document = try ICalendarDocument(parsing: body)
      #expect(document.bytes == body)
      #expect(document.todos.count == 1)
    }
  }

  @Test func tenMegabyteValuesAreReadAndWrittenInLinearTime() throws {
    let value = String(repeating: "0123456789é😜", count: 10 << 20 / 16)
    var todo = ICalendarComponent(name: "VTODO")
    todo.append(ICalendarProperty(name: "DESCRIPTION", text: value))
    let document = ICalendarDocument(items: [.component(ICalendarComponent(name: "VCALENDAR", items: [.component(todo)]))])
    let clock = ContinuousClock()
    var written: [UInt8] = []
    var reread: ICalendarDocument?
    let elapsed = try clock.measure {
      written = document.bytes
      reread = try ICalendarDocument(parsing: written)
    }
    #expect(written.count > 10 << 20)
    #expect(reread?.todos.first?.property("DESCRIPTION")?.text == value)
    #expect(reread?.bytes == written)
    // Linear: a debug build does this in a second or two; a quadratic one would take hours.
    #expect(elapsed < .seconds(30), "\(elapsed)")
  }
}

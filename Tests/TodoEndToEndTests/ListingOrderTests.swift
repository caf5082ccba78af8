import Testing

/// The listing's own sort against GNU sort: the same file listed with the default sort
/// command (done in the process) and with an equivalent command that bash runs.
@Suite struct ListingOrderTests {
  /// The same order as the default, spelled differently so that it runs the real `sort`.
  static let realSort = ["TODOTXT_SORT_COMMAND": "env LC_ALL=C sort -f -k2"]

  /// A file that makes sorting hard: case variants, shared beginnings longer than the sort's
  /// words, duplicates, prefixes of other lines, tabs, blanks, CRLF endings, non-ASCII text,
  /// lines of digits and blank lines.
  static func trickyFile(lines count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let words = ["call", "Call", "CALL", "mum", "Mum", "+Kitchen", "+kitchen", "@home", "straße", "café",
                 "x", "(A)", "(a)", "(B)", "2024-01-01", "due:2024-02-03", "\t", "", "zz", "ZZ", "a", "A"]
    var bytes: [UInt8] = []
    var previous: [UInt8] = []
    for _ in 0..<count {
      var line: [UInt8]
      switch below(12) {
      case 0: line = previous
      case 1: line = previous + Array(" more".utf8)
      case 2: line = Array("12 34".utf8)
      case 3: line = []
      default:
        line = Array((0..<(1 + below(9))).map { _ in words[below(words.count)] }.joined(separator: " ").utf8)
      }
      if below(7) == 0 { line = [0x20] + line }
      bytes += line + (below(9) == 0 ? [0x0D, 0x0A] : [0x0A])
      previous = line
    }
    return bytes
  }

  /// The 60,000-line file is sorted and written on two cores (``KeySort/parallelFrom``,
  /// ``NumberedLines/twoCoresFrom``), its output several blocks long.
  @Test(arguments: [(400, UInt64(1)), (3000, UInt64(2)), (3000, UInt64(3)), (60_000, UInt64(4))])
  func defaultSortIsGNUSort(lines: Int, seed: UInt64) throws {
    let box = try Sandbox()
    try box.write("todo.txt", bytes: ListingOrderTests.trickyFile(lines: lines, seed: seed))
    for arguments in [["-p", "ls"], ["-p", "ls", "call"], ["-p", "ls", "-mum"]] {
      let ours = try box.run("todo.sh", arguments)
      let sorted = try box.run("todo.sh", arguments, environment: ListingOrderTests.realSort)
      #expect(ours.status == 0)
      #expect(ours.stdout.count > 1000)
      #expect(ours.stdout == sorted.stdout, "todo.sh \(arguments)")
    }
    let native = try box.todo("-p", "ls", "--all")
    let nativeSorted = try box.todo("-p", "ls", "--all", environment: ListingOrderTests.realSort)
    #expect(native.stdout == nativeSorted.stdout)
  }

  /// A file of a million lines numbers its tasks with seven places, and zero-filling stops at
  /// five: lines 1 to 9 read `00000 1 text`, whose sort key starts at the blank inside.
  /// The default order as the manual states it and `--why` explains it: priority, then the
  /// creation date (oldest first, before undated tasks), then the text, ignoring case.
  @Test func theDefaultOrderIsTheOneTheManualAndWhyState() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "call bank\n(A) zebra crossing\n(B) apple pie\n2009-01-05 buy milk\n(A) 2009-01-01 walk\nAsk Ann\n")
    let run = try box.todo("ls")
    #expect(
      run.stdout
        == "5 (A) 2009-01-01 walk\n2 (A) zebra crossing\n3 (B) apple pie\n4 2009-01-05 buy milk\n6 Ask Ann\n1 call bank\n")
    let why = try box.todo("ls", "--why", "zebra").stdout
    #expect(why.contains("sorted by the whole line ignoring case, so priority, then creation date, then text (\"(A) zebra crossing\")"), "\(why)")
    let manual = try String(contentsOf: ManPageTests.manDirectory.appendingPathComponent("todo.1"), encoding: .utf8)
    #expect(manual.contains("priority, then creation date"))
  }

  @Test func sevenPlaceNumbersKeepTheirInnerBlank() throws {
    let box = try Sandbox()
    var bytes: [UInt8] = []
    for text in ["b nine", "a one", "B eight", "c", "a one", "zz", "A", "b", "(A) top", "ten", "eleven", "Zeta"] {
      bytes += Array(text.utf8) + [0x0A]
    }
    bytes += [UInt8](repeating: 0x0A, count: 1_000_000 - 12)
    try box.write("todo.txt", bytes: bytes)
    let ours = try box.sh("-p", "ls")
    let sorted = try box.sh("-p", "ls", environment: ListingOrderTests.realSort)
    #expect(ours.stdout == sorted.stdout)
    // Digits sort before letters, so lines 1 to 9 come first, in their numbers' order.
    let expected = """
      00000 1 b nine
      00000 2 a one
      00000 3 B eight
      00000 4 c
      00000 5 a one
      00000 6 zz
      00000 7 A
      00000 8 b
      00000 9 (A) top
      0000011 eleven
      0000010 ten
      0000012 Zeta
      --
      TODO: 12 of 12 tasks shown

      """
    #expect(ours.stdout == expected)
  }
}

import Foundation
import Testing

/// Under the name `todo.sh`, search terms are grep's and listproj/listcon's order is sort's,
/// both in the user's locale: case folds beyond ASCII in a UTF-8 locale and only in ASCII in
/// the C locale, a bad pattern is reported in grep's words, a term is the bytes it was given,
/// and a line that is no text in a UTF-8 locale is held back as grep holds it back. Under the
/// name `todo` the terms of listproj and listcon are words, as those of ls.
@Suite struct LocaleSearchTests {
  static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// The environment of a UTF-8 locale that every Debian system has.
  static let utf8: [String: String] = ["LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"]

  /// The environment that selects en_US.UTF-8 (whose collation is not by bytes): the
  /// installed locale, or one built with localedef from the `locales` package's sources into
  /// a directory of its own (LOCPATH), which needs no root. `nil` when neither can be had.
  static let english: [String: String]? = {
    if let installed = try? shell("locale -a"), installed.stdout.split(separator: "\n").contains("en_US.utf8") {
      return ["LANG": "en_US.UTF-8"]
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-locales-\(UUID().uuidString)")
    guard FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/en_US"),
      (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
      let built = try? shell("localedef -i en_US -f UTF-8 '\(directory.path)/en_US.UTF-8'"), built.status == 0
    else { return nil }
    return ["LANG": "en_US.UTF-8", "LOCPATH": directory.path]
  }()

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs a bash command line outside any sandbox (locale tools, grep itself).
  static func shell(
    _ command: String, _ arguments: [String] = [], environment: [String: String]? = nil, input: [UInt8] = []
  ) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", command, "bash"] + arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    inPipe.fileHandleForWriting.write(Data(input))
    try inPipe.fileHandleForWriting.close()
    nonisolated(unsafe) var errorBytes = Data()
    let reader = Thread { errorBytes = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let outputBytes = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outputBytes, as: UTF8.self),
      stderr: String(decoding: errorBytes, as: UTF8.self))
  }

  /// Runs `todo.sh WORDS` through bash, so that a word can be bytes that are not UTF-8
  /// (`$'\xff'`).
  func raw(_ box: Sandbox, _ words: String, environment: [String: String] = [:]) throws -> Sandbox.Run {
    try box.write("bin/raw-sh", "#!/bin/bash\nexec todo.sh \(words)\n")
    chmod(box.path("bin/raw-sh"), 0o755)
    return try box.run("raw-sh", [], environment: environment)
  }

  @Test func caseFoldsBeyondASCIIInAUTF8Locale() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "CAFÉ noir\ncafé crème\nΣΟΦΊΑ book\nσοφία note\nЖ big\nж small\n")
    func listed(_ term: String, _ environment: [String: String]) throws -> [String] {
      let run = try box.sh("-p", "ls", term, environment: environment)
      #expect(run.status == 0)
      #expect(run.stderr == "")
      return run.stdout.split(separator: "\n").prefix { $0 != "--" }.map { String($0.split(separator: " ")[0]) }
    }
    #expect(try listed("café", LocaleSearchTests.utf8) == ["1", "2"])
    #expect(try listed("CAFÉ", LocaleSearchTests.utf8) == ["1", "2"])
    #expect(try listed("ΣΟΦΊΑ", LocaleSearchTests.utf8) == ["3", "4"])
    #expect(try listed("σοφία", LocaleSearchTests.utf8) == ["3", "4"])
    #expect(try listed("Ж", LocaleSearchTests.utf8) == ["5", "6"])
    // Inside a bracket expression and next to regular-expression syntax too.
    #expect(try listed("[ж]", LocaleSearchTests.utf8) == ["5", "6"])
    #expect(try listed("^[0-9]* caf[É]", LocaleSearchTests.utf8) == ["1", "2"])
    #expect(try listed("ΣΟΦ.Α", LocaleSearchTests.utf8) == ["3", "4"])
    // LANG alone names the locale; LC_ALL wins over it.
    #expect(try listed("café", ["LC_ALL": "", "LANG": "C.UTF-8"]) == ["1", "2"])
    #expect(try listed("café", ["LC_ALL": "C", "LANG": "C.UTF-8"]) == ["2"])
    // The C locale folds ASCII letters only, as grep does there.
    #expect(try listed("café", [:]) == ["2"])
    #expect(try listed("CAFÉ", [:]) == ["1"])
    // There a bracket holds bytes: ж and Ж share their first, D0.
    #expect(try listed("[ж]", [:]) == ["5", "6"])
    #expect(try listed("ж", [:]) == ["6"])
    #expect(try listed("caf", [:]) == ["1", "2"])
    // A locale glibc does not have leaves grep in the C locale.
    #expect(try listed("café", ["LC_ALL": "xx_YY.UTF-8"]) == ["2"])
    // An ASCII term meets a letter that changes case to ASCII: ſ upper-cases to S.
    try box.write("todo.txt", "\u{17F}tar long\nstar\nmoon\n")
    #expect(try listed("STAR", LocaleSearchTests.utf8) == ["2", "1"])
    #expect(try listed("STAR", [:]) == ["2"])
    // listproj's terms are the same grep terms.
    try box.write("todo.txt", "Été +summer\nété +beach\nhiver +snow\n")
    let projects = try box.sh("lsprj", "ÉTÉ", environment: LocaleSearchTests.utf8)
    #expect(projects.stdout == "+beach\n+summer\n")
  }

  /// The pattern grep cannot compile: todo.sh lists nothing, exits 0 and shows grep's own
  /// complaint, which is asked of grep here rather than written down.
  @Test(arguments: ["[", "[a", "\\(", "\\)", "a\\{1", "\\", "[:alpha:]", "[[:foo:]]", "[b-a]", "\\(a\\)\\2"])
  func aBadPatternIsReportedInGrepsWords(pattern: String) throws {
    let box = try Sandbox()
    try box.write("todo.txt", "one [a task\ntwo\n")
    for environment in [[:], LocaleSearchTests.utf8] {
      let grep = try LocaleSearchTests.shell(
        "grep -i -- \"$1\"", [pattern], environment: box.environment.merging(environment) { $1 })
      #expect(grep.status == 2, "grep accepted \(pattern)")
      #expect(grep.stderr.hasPrefix("grep: "))
      for arguments in [["ls", pattern], ["ls", "-" + pattern], ["lsprj", pattern], ["ls", "one", pattern]] {
        let run = try box.run("todo.sh", arguments, environment: environment)
        #expect(run.status == 0)
        #expect(run.stderr == grep.stderr, "\(arguments) in \(environment)")
        #expect(!run.stdout.contains("one") && !run.stdout.contains("two"))
      }
    }
  }

  @Test func aTermThatIsNotUTF8IsGrepsBytes() throws {
    let box = try Sandbox()
    try box.write(
      "todo.txt", bytes: Array("bad ".utf8) + [0xFF] + Array(" byte\nrepl \u{FFFD} char\nplain a\n".utf8))
    // In the C locale the byte is a character like any other.
    let byte = try raw(box, "-p ls $'\\xff'")
    #expect(byte.status == 0)
    #expect(byte.stderr == "")
    #expect(byte.stdout.hasPrefix("1 bad "))
    #expect(byte.stdout.hasSuffix(" byte\n--\nTODO: 1 of 3 tasks shown\n"))
    let others = try raw(box, "-p ls -$'\\xff'")
    #expect(others.stdout == "3 plain a\n2 repl \u{FFFD} char\n--\nTODO: 2 of 3 tasks shown\n")
    // In a UTF-8 locale grep matches the byte, but holds back the line, which is no text there,
    // and says it did; every other line it would print is printed.
    let held = try raw(box, "-p ls $'\\xff'", environment: LocaleSearchTests.utf8)
    #expect(held.status == 0)
    #expect(held.stderr == "grep: (standard input): binary file matches\n")
    #expect(held.stdout == "--\nTODO: 0 of 3 tasks shown\n")
    let words = try box.sh("-p", "ls", "a", environment: LocaleSearchTests.utf8)
    #expect(words.stderr == "grep: (standard input): binary file matches\n")
    #expect(words.stdout == "3 plain a\n2 repl \u{FFFD} char\n--\nTODO: 2 of 3 tasks shown\n")
    // A line the terms drop is not reported; without terms there is no grep.
    let none = try box.sh("-p", "ls", "plain", environment: LocaleSearchTests.utf8)
    #expect(none.stderr == "")
    #expect(none.stdout == "3 plain a\n--\nTODO: 1 of 3 tasks shown\n")
    let all = try box.sh("-p", "ls", environment: LocaleSearchTests.utf8)
    #expect(all.stderr == "")
    #expect(all.stdout.hasSuffix("TODO: 3 of 3 tasks shown\n"))
  }

  @Test func projectWordsSplitAtBytesThatAreNoCharacter() throws {
    let box = try Sandbox()
    try box.write("todo.txt", bytes: Array("a +x".utf8) + [0xFF] + Array("y +ok @c".utf8) + [0xFF] + [0x0A])
    // (The byte FF reads back as U+FFFD.)
    #expect(try box.sh("lsprj").stdout == "+ok\n+x\u{FFFD}y\n")
    let utf8 = try box.sh("lsprj", environment: LocaleSearchTests.utf8)
    #expect(utf8.stdout == "+ok\n+x\n")
    #expect(utf8.stderr == "")
    #expect(try box.sh("lsc", environment: LocaleSearchTests.utf8).stdout == "@c\n")
  }

  @Test(.enabled(if: inCI || english != nil, "en_US.UTF-8 is neither installed nor buildable (apt-get install locales)"))
  func projectsAreInTheLocalesCollation() throws {
    guard let english = LocaleSearchTests.english else {
      Issue.record("en_US.UTF-8 cannot be had under CI, where .ci/run installs the locales package")
      return
    }
    let box = try Sandbox()
    try box.write("todo.txt", "x +banana @b\ny +Apple @A\nz +éclair +Zoo +cherry @é @Z\n")
    var environment = english
    environment["LC_ALL"] = ""
    // Dictionary order: case and accents weigh less than the letters.
    #expect(try box.sh("lsprj", environment: environment).stdout == "+Apple\n+banana\n+cherry\n+éclair\n+Zoo\n")
    #expect(try box.sh("lsc", environment: environment).stdout == "@A\n@b\n@é\n@Z\n")
    // LC_COLLATE=C or LC_ALL=C: bytes; so in C.UTF-8, whose order is the characters' code points.
    let bytes = "+Apple\n+Zoo\n+banana\n+cherry\n+éclair\n"
    environment["LC_COLLATE"] = "C"
    #expect(try box.sh("lsprj", environment: environment).stdout == bytes)
    environment["LC_ALL"] = "C"
    environment["LC_COLLATE"] = nil
    #expect(try box.sh("lsprj", environment: environment).stdout == bytes)
    #expect(try box.sh("lsprj", environment: LocaleSearchTests.utf8).stdout == bytes)
  }

  @Test func nativeProjectAndContextTermsAreWords() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "a.b [x +one @home\naxb +two @work\nCAFÉ +three\ncafé +four\n")
    // Characters of regular expressions stand for themselves; case folds in Unicode.
    #expect(try box.todo("lsprj", "[x").stdout == "+one\n")
    #expect(try box.todo("lsprj", "a.b").stdout == "+one\n")
    #expect(try box.todo("lsc", "-a.b").stdout == "@work\n")
    #expect(try box.todo("lsprj", "café").stdout == "+four\n+three\n")
    // Under todo.sh's name they stay grep's.
    #expect(try box.sh("lsprj", "a.b").stdout == "+one\n+two\n")
  }
}

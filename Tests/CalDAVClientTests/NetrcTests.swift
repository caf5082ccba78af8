import Testing
import TodoTestSupport

@testable import CalDAVClient

/// The netrc file as the password's second source: machines, `default`, quoted tokens, macros.
@Suite struct NetrcTests {
  @Test func entriesAreFoundByHostThenUserThenDefault() {
    let netrc = Netrc(
      parsing: """
        machine cal.example login bob password one
        machine CAL.example
          login alice
          password "two words"
        macdef init
        machine cal.example login alice password fromMacro

        default login anyone password three
        """)
    #expect(netrc.entry(host: "cal.example", user: "alice")?.password == "two words")
    #expect(netrc.entry(host: "cal.example", user: "bob")?.password == "one")
    #expect(netrc.entry(host: "cal.example", user: nil)?.login == "bob")
    #expect(netrc.entry(host: "cal.example", user: "carol") == nil)
    #expect(netrc.entry(host: "other.example", user: "anyone")?.password == "three")
    #expect(netrc.entry(host: "other.example", user: nil)?.login == "anyone")
    #expect(!netrc.entries.contains { $0.password == "fromMacro" })
  }

  @Test func hostileTextNeverCrashesAndKeepsWhatItCanRead() {
    var generator = SplitMix64(seed: 99)
    for _ in 0..<200 {
      let bytes = (0..<generator.below(300)).map { _ in UInt8(truncatingIfNeeded: generator.next())
      }
      let text = String(decoding: bytes, as: UTF8.self) + "\nmachine h login u password p\n"
      let netrc = Netrc(parsing: text)
      // The last line is always read, whatever came before it (unless a macro swallowed it).
      let swallowed = text.contains("macdef")
      #expect(swallowed || netrc.entry(host: "h", user: "u")?.password == "p")
    }
    // A login before any machine, and a machine without a name, are no entries (nor a default).
    #expect(Netrc(parsing: "password p login u machine").entries.isEmpty)
  }
}

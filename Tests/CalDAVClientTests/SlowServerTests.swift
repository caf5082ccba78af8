import CalDAVClient
import Foundation
import Testing
import TodoCalendar
import TodoTestSupport

/// A server that works long before it answers is waited for (up to the answer timeout); an
/// answer that stops midway fails after the stall timeout; neither hangs the client.
@Suite struct SlowServerTests {
  static func collection(_ server: ScriptedServer, answer: Duration, stall: Duration) throws(CalendarServerError)
    -> CalDAVCollection
  {
    try CalDAVCollection(
      url: ServerURL(server.url + "/cal/"), user: "alice",
      environment: .testing(
        transport: TransportOptions(
          connectTimeout: .seconds(2), answerTimeout: answer, stallTimeout: stall, requestTimeout: .seconds(30))))
  }

  static let listing =
    "<d:multistatus xmlns:d='DAV:'><d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:sync-token>t1</d:sync-token></d:multistatus>"

  @Test func aServerThatWorksLongerThanTheStallTimeoutBeforeAnsweringIsWaitedFor() throws {
    // Three seconds of thought, three times the stall timeout: Radicale's first report on a
    // large collection is this, in minutes.
    let server = try ScriptedServer { _ in .after(.seconds(3), .multistatus(Self.listing)) }
    defer { server.stop() }
    let changes = try Self.collection(server, answer: .seconds(20), stall: .seconds(1)).changes(since: nil)
    guard case .full(let versions, let token) = changes else {
      Issue.record("expected a full listing, got \(changes)")
      return
    }
    #expect(versions == [RemoteVersion(href: "/cal/a.ics", etag: "\"1\"")])
    #expect(token == "t1")
  }

  @Test func aServerSilentPastTheAnswerTimeoutFailsSayingSo() throws {
    let server = try ScriptedServer { _ in .silence }
    defer { server.stop() }
    let start = ContinuousClock.now
    do {
      _ = try Self.collection(server, answer: .seconds(2), stall: .seconds(1)).changes(since: nil)
      Issue.record("a silent server was taken as an answer")
    } catch {
      guard case .unreachable(let words) = error else {
        Issue.record("expected unreachable, got \(error)")
        return
      }
      #expect(words.contains("sent nothing for 2 s"))
    }
    let waited = ContinuousClock.now - start
    #expect(waited >= .seconds(2))
    #expect(waited < .seconds(15))
  }

  @Test func anAnswerThatStopsMidwayFailsAfterTheStallTimeout() throws {
    let head = "HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nContent-Length: 100000\r\n\r\n<d:multistatus xmlns:d='DAV:'>"
    let server = try ScriptedServer { _ in .stall(Array(head.utf8)) }
    defer { server.stop() }
    let start = ContinuousClock.now
    do {
      _ = try Self.collection(server, answer: .seconds(60), stall: .seconds(1)).changes(since: nil)
      Issue.record("a stopped answer was taken as an answer")
    } catch {
      guard case .unreachable(let words) = error else {
        Issue.record("expected unreachable, got \(error)")
        return
      }
      #expect(words.contains("stopped for 1 s"))
    }
    // Well before the answer timeout: the stall timeout judged it.
    #expect(ContinuousClock.now - start < .seconds(15))
  }
}

import Foundation
import Testing

/// A note's text and the manual order through `todo caldav sync`, against Radicale with
/// python3-caldav as the phone.
@Suite(.serialized) struct CalDAVNotesAndOrderTests {
  struct Row: Decodable {
    var uid: String
    var summary: String
    var description: String
    var order: String
    var occurrence: Bool
  }

  func rows(_ server: RadicaleFixture, _ calendar: String) throws -> [String: Row] {
    let all = try JSONDecoder().decode([Row].self, from: Data(try server.phone([["dump", calendar]]).utf8))
    return Dictionary(all.filter { !$0.occurrence }.map { ($0.summary, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The server's titles, in the order of their numbers.
  func serverOrder(_ server: RadicaleFixture, _ calendar: String) throws -> [String] {
    try rows(server, calendar).values.sorted { Int($0.order) ?? .max < Int($1.order) ?? .max }.map(\.summary)
  }

  func uid(_ box: Sandbox, _ title: String) -> String? {
    box.read("todo.txt").split(separator: "\n").first { $0.hasPrefix(title) }?
      .split(separator: " ").first { $0.hasPrefix("uid:") }.map { String($0.dropFirst(4)) }
  }

  @Test func notesAndTheManualOrderReachThePhoneAndComeBack() throws {
    let (box, server, calendar) = try CalDAVCommandTests().setUp()
    try box.write("todo.txt", "Call Mum\nBuy milk\nBook flights\n")
    #expect(try box.todo("note", "1", "Ask about the garden").status == 0)
    let first = try box.todo("caldav", "sync")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try rows(server, calendar)["Call Mum"]?.description == "Ask about the garden")
    #expect(try serverOrder(server, calendar) == ["Call Mum", "Buy milk", "Book flights"])

    // Moved on the list: the phone shows the new order.
    #expect(try box.todo("reorder", "3", "1").status == 0)
    #expect(try box.todo("caldav", "sync").status == 0)
    #expect(try serverOrder(server, calendar) == ["Book flights", "Call Mum", "Buy milk"])

    // On the phone: a description for one task, another moved to the top.
    let milk = try #require(uid(box, "Buy milk"))
    let mum = try #require(uid(box, "Call Mum"))
    let lowest = try rows(server, calendar).values.compactMap { Int($0.order) }.min() ?? 0
    try server.phone([
      ["edit", calendar, milk, "DESCRIPTION", "Two litres,\nthe green top"],
      ["edit", calendar, mum, "X-APPLE-SORT-ORDER", String(lowest - 1)],
    ])
    let back = try box.todo("caldav", "sync")
    #expect(back.status == 0, "\(back.stderr)")
    #expect(box.read("todo.txt").split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
      == ["Call Mum", "Book flights", "Buy milk"])
    let shown = try box.todo("note", "3", "--show")
    #expect(shown.stdout == "Two litres,\nthe green top\n")

    // Nothing left to do on either side.
    let again = try box.todo("caldav", "sync")
    #expect(again.stdout.contains("the list +0 ~0 -0, the server +0 ~0 -0"), "\(again.stdout)")
  }

  /// Radicale keeps a control character a client put in a DESCRIPTION and sends it raw in
  /// its XML replies: the sync still reads every item, and the note gets U+FFFD.
  @Test func aControlCharacterAPhoneStoredDoesNotStopTheSync() throws {
    let (box, server, calendar) = try CalDAVCommandTests().setUp()
    try box.write("todo.txt", "Call Mum\n")
    #expect(try box.todo("caldav", "sync").status == 0)
    try server.phone([["save", calendar, ics("phone-1", "SUMMARY:Buy milk\nDESCRIPTION:2 litres\u{1B}[31m red")]])
    let result = try box.todo("caldav", "sync")
    #expect(result.status == 0, "\(result.stderr)")
    let line = try #require(box.read("todo.txt").split(separator: "\n").first { $0.hasPrefix("Buy milk") })
    let name = try #require(line.split(separator: " ").first { $0.hasPrefix("note:") }?.dropFirst(5))
    #expect(box.read("notes/" + name) == "2 litres\u{FFFD}[31m red\n")
  }
}

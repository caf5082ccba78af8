import Foundation
import Testing
import TodoTestSupport

/// A small HTTP server on loopback that answers from a script: what a hostile or broken
/// CalDAV server sends (malformed or huge XML, no body, no answer at all) on demand. Each
/// connection carries one request; every request is recorded for the test to look at.
final class ScriptedServer: @unchecked Sendable {
  struct Request: Sendable {
    var method: String
    var path: String
    var headers: [String: String]
    var body: [UInt8]
  }

  enum Reply: Sendable {
    /// Status, headers and body; Content-Length and Connection: close added.
    case http(Int, [(String, String)], [UInt8])
    /// Bytes as they are, then the connection closed.
    case raw([UInt8])
    /// Headers promising `length` bytes, then the body streamed in chunks from `chunk`.
    case stream(Int, [(String, String)], length: Int, chunk: [UInt8])
    /// Reads the request and never answers (until the server stops).
    case silence
    /// Works this long before the reply (a server reading a large collection).
    indirect case after(Duration, Reply)
    /// These bytes, then nothing more (until the server stops): an answer stopped midway.
    case stall([UInt8])
  }

  let port: Int
  private let socket: Int32
  private let lock = NSLock()
  private var recorded: [Request] = []
  private var stopped = false
  private let handler: @Sendable (Request) -> Reply

  init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
    self.handler = handler
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
          && listen(socket, 16) == 0
      }
    }
    guard ready else {
      throw CalendarServer.MissingServer(description: "the scripted server cannot listen")
    }
    self.socket = socket
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  var url: String { "http://127.0.0.1:\(port)" }
  var requests: [Request] { lock.withLock { recorded } }

  func stop() {
    let already = lock.withLock {
      let was = stopped
      stopped = true
      return was
    }
    if !already {
      shutdown(socket, Int32(SHUT_RDWR))
      close(socket)
    }
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func acceptLoop() {
    while !isStopped {
      let connection = accept(socket, nil, nil)
      guard connection >= 0 else {
        if isStopped { return }
        continue
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let request = read(connection) else { return }
    lock.withLock { recorded.append(request) }
    answer(handler(request), on: connection)
  }

  private func answer(_ reply: Reply, on connection: Int32) {
    switch reply {
    case .http(let status, let headers, let body):
      var head = "HTTP/1.1 \(status) Scripted\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
      send(connection, Array(head.utf8) + body)
    case .raw(let bytes):
      send(connection, bytes)
    case .stream(let status, let headers, let length, let chunk):
      var head = "HTTP/1.1 \(status) Scripted\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      head += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
      guard send(connection, Array(head.utf8)) else { return }
      var sent = 0
      while sent < length, !isStopped {
        let piece = Array(chunk.prefix(length - sent))
        guard send(connection, piece) else { return }
        sent += piece.count
      }
    case .silence:
      while !isStopped { usleep(20_000) }
    case .after(let delay, let next):
      let end = ContinuousClock.now + delay
      while ContinuousClock.now < end, !isStopped { usleep(20_000) }
      answer(next, on: connection)
    case .stall(let bytes):
      guard send(connection, bytes) else { return }
      while !isStopped { usleep(20_000) }
    }
  }

  @discardableResult
  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  private func read(_ connection: Int32) -> Request? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let separator = Array("\r\n\r\n".utf8)
    var headerEnd: Int?
    while headerEnd == nil {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      data += buffer[0..<count]
      headerEnd = data.firstRange(of: separator)?.upperBound
    }
    guard let end = headerEnd else { return nil }
    let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let requestLine = head[0].split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() where line.contains(":") {
      let parts = line.split(separator: ":", maxSplits: 1)
      headers[parts[0].lowercased()] =
        parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    while data.count - end < length {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      data += buffer[0..<count]
    }
    return Request(
      method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
      body: Array(data[end..<(end + length)]))
  }
}

extension ScriptedServer.Reply {
  /// A 207 with this XML, typed as XML.
  static func multistatus(_ xml: String) -> ScriptedServer.Reply {
    .http(207, [("Content-Type", "application/xml; charset=utf-8")], Array(xml.utf8))
  }
}

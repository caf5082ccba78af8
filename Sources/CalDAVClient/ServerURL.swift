import Foundation
import TodoCalendar

/// A place on a CalDAV server the client may talk to. Checked once, where it is made: HTTPS
/// anywhere, plain HTTP only to this machine, so a password or a task never crosses a network
/// in the clear. Hrefs from replies are resolved against it and must stay on its origin.
public struct ServerURL: Sendable, Equatable, Hashable, CustomStringConvertible {
  public let scheme: String
  /// The host as written (lowercased; IPv6 without brackets).
  public let host: String
  public let port: Int?
  /// Percent-encoded, absolute, never empty.
  public let path: String
  /// The user name written in the URL (`https://name@host/…`), decoded.
  public let user: String?

  /// Parses and checks `text`; a URL that is not http(s), has no host, carries a password, or
  /// is plain HTTP to another machine is refused with a one-line error.
  public init(_ text: String) throws(CalendarServerError) {
    guard !text.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }),
      let components = URLComponents(string: text)
    else { throw .invalidURL(text) }
    guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else { throw .invalidURL(text) }
    guard var host = components.host?.lowercased(), !host.isEmpty else { throw .invalidURL(text) }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard components.password == nil else {
      throw .authentication("a password in the URL is refused; use a password command or netrc")
    }
    self.scheme = scheme
    self.host = host
    self.port = components.port
    let path = components.percentEncodedPath
    self.path = path.isEmpty ? "/" : ServerURL.encodePath(path)
    self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
    if scheme == "http", !isLoopback {
      throw .insecure(
        "plain http is allowed only to this machine (127.0.0.1, ::1, localhost); use https")
    }
  }

  init(scheme: String, host: String, port: Int?, path: String, user: String?) {
    self.scheme = scheme
    self.host = host
    self.port = port
    self.path = path
    self.user = user
  }

  /// 127.0.0.0/8, ::1 and localhost: the only hosts plain HTTP may reach.
  public var isLoopback: Bool {
    if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
      && parts.allSatisfy { part in UInt8(part).map { _ in true } ?? false }
  }

  /// `scheme://host[:port]`, without the user.
  public var origin: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
  }

  public var description: String { origin + path }

  /// The same origin at another path.
  func at(path: String) -> ServerURL {
    ServerURL(scheme: scheme, host: host, port: port, path: path, user: user)
  }

  /// This URL as a collection: its path ends in a slash.
  var asCollection: ServerURL { path.hasSuffix("/") ? self : at(path: path + "/") }

  /// An href from a reply (an absolute path, a full URL or a relative reference) as a path on
  /// this origin; nil when it points at another origin or cannot be read.
  func resolve(_ href: String) -> String? {
    guard !href.isEmpty, !href.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
      return nil
    }
    let lowered = href.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      guard let other = try? ServerURL(href), other.origin == origin else { return nil }
      return other.path
    }
    if href.hasPrefix("/") {
      let path = href.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)
      return path.first.map { ServerURL.encodePath(String($0)) } ?? nil
    }
    guard let base = URL(string: "http://base" + path),
      let resolved = URL(string: ServerURL.encodePath(href), relativeTo: base)?.absoluteURL
    else { return nil }
    let resolvedPath = resolved.path(percentEncoded: true)
    return resolvedPath.isEmpty ? "/" : ServerURL.encodePath(resolvedPath)
  }

  /// Where a redirect's Location points, on any origin; nil when it cannot be read.
  func following(location: String) -> ServerURL? {
    let lowered = location.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      guard let components = URLComponents(string: location),
        let scheme = components.scheme?.lowercased(), var host = components.host?.lowercased()
      else { return nil }
      if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      let path = components.percentEncodedPath
      return ServerURL(
        scheme: scheme, host: host, port: components.port,
        path: path.isEmpty ? "/" : ServerURL.encodePath(path), user: user)
    }
    return resolve(location).map { at(path: $0) }
  }

  /// The one spelling of a path the client uses: escapes decoded, then every byte but the
  /// unreserved characters and the slashes encoded again (an encoded slash stays encoded).
  /// Servers spell the same name differently (`@` or `%40`); hrefs compared as strings by the
  /// sync engine must not.
  static func encodePath(_ path: String) -> String {
    encode(decode(path), keepingSlash: true)
  }

  /// A file name as one path segment.
  static func encodeSegment(_ name: String) -> String {
    encode(Array(name.utf8), keepingSlash: false)
  }

  private static func decode(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        let byte = high << 4 | low
        // An encoded slash is part of a name, not a separator: it stays encoded.
        out += byte == UInt8(ascii: "/") ? Array("%2F".utf8) : [byte]
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return out
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }

  private static func encode(_ bytes: [UInt8], keepingSlash: Bool) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count)
    let hex = Array("0123456789ABCDEF".utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let isUnreserved =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F
        || byte == 0x7E
      if keepingSlash, byte == UInt8(ascii: "%"), bytes[index...].starts(with: Array("%2F".utf8)) {
        out += Array("%2F".utf8)
        index += 3
        continue
      }
      if isUnreserved || (keepingSlash && byte == UInt8(ascii: "/")) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The path in its one spelling without a final slash, for comparing hrefs.
  static func canonical(_ path: String) -> String {
    let encoded = encodePath(path)
    return encoded.hasSuffix("/") && encoded.count > 1 ? String(encoded.dropLast()) : encoded
  }
}

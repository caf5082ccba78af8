import Foundation
import FoundationXML
import TodoCalendar

/// An element of a WebDAV reply, by namespace and local name, with its text and children.
/// Replies are read into these whole: they are bounded by the transport's size limit, and a
/// tree keeps the multistatus reading plain.
struct DAVElement: Sendable {
  var namespace: String
  var name: String
  var text: String = ""
  var children: [DAVElement] = []

  static let dav = "DAV:"
  static let caldav = "urn:ietf:params:xml:ns:caldav"

  func child(_ namespace: String, _ name: String) -> DAVElement? {
    children.first { $0.namespace == namespace && $0.name == name }
  }

  func children(_ namespace: String, _ name: String) -> [DAVElement] {
    children.filter { $0.namespace == namespace && $0.name == name }
  }

  /// The element's own text, trimmed.
  var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

  /// The deepest nesting accepted; WebDAV replies need fewer than ten.
  static let depthLimit = 64

  /// Reads an XML document. A document type declaration is refused before parsing, so no
  /// entity is ever defined, let alone expanded (no external entities, no billion laughs).
  static func parse(_ bytes: [UInt8]) throws(CalendarServerError) -> DAVElement {
    guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
      throw .emptyMultistatus
    }
    if containsDocumentType(bytes) { throw .documentTypeDeclaration }
    let reader = TreeReader()
    let parser = XMLParser(data: Data(replacingControlCharacters(bytes)))
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    let parsed = parser.parse()
    if let failure = reader.failure { throw failure }
    guard parsed, let root = reader.root else {
      throw .malformedXML(parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable")
    }
    return root
  }

  /// The reply with the characters XML 1.0 has no place for made U+FFFD: C0 control
  /// characters other than tab and line breaks, raw or as character references (and
  /// references to surrogates, U+FFFE, U+FFFF or past U+10FFFF). A server that
  /// stores a phone's ESC in a DESCRIPTION sends it inside the reply all the same, and one
  /// such item must not make every sync fail; the mapping makes them U+FFFD anyway. The reply
  /// is copied only when it holds one.
  static func replacingControlCharacters(_ bytes: [UInt8]) -> [UInt8] {
    func isBad(_ byte: UInt8) -> Bool { byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D }
    let ampersand = UInt8(ascii: "&")
    guard bytes.contains(where: { isBad($0) || $0 == ampersand }) else { return bytes }
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 16)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if isBad(byte) {
        out += replacement
        index += 1
        continue
      }
      if byte == ampersand, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
        let (value, end) = characterReference(bytes, from: index + 2), !isXMLCharacter(value)
      {
        out += Array("&#xFFFD;".utf8)
        index = end
        continue
      }
      out.append(byte)
      index += 1
    }
    return out
  }

  /// Whether XML 1.0 allows the character (as a reference, too).
  private static func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x10_FFFF: return true
    default: return false
    }
  }

  /// The value of a character reference's digits starting at `start` (after `&#`) and the
  /// index after its `;`; nil when it is not one.
  private static func characterReference(_ bytes: [UInt8], from start: Int) -> (UInt32, Int)? {
    var index = start
    let hex = index < bytes.count && (bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X"))
    if hex { index += 1 }
    var value: UInt32 = 0
    var digits = 0
    while index < bytes.count {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
      case UInt8(ascii: ";"): return digits > 0 ? (value, index + 1) : nil
      default: return nil
      }
      value = min(value * (hex ? 16 : 10) + digit, 0x11_0000)
      digits += 1
      index += 1
    }
    return nil
  }

  /// Whether `<!DOCTYPE` or `<!ENTITY` occurs anywhere: memchr from one `<` to the next, so a
  /// 64 MiB reply is scanned in milliseconds.
  private static func containsDocumentType(_ bytes: [UInt8]) -> Bool {
    let markers = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8)]
    return bytes.withUnsafeBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      var offset = 0
      while offset < buffer.count,
        let found = memchr(base + offset, Int32(UInt8(ascii: "<")), buffer.count - offset)
      {
        let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        for marker in markers where index + marker.count <= buffer.count {
          if memcmp(base + index, marker, marker.count) == 0 { return true }
        }
        offset = index + 1
      }
      return false
    }
  }
}

/// Builds the tree from the parser's events, stopping at the depth limit.
private final class TreeReader: NSObject, XMLParserDelegate {
  var stack: [DAVElement] = []
  var root: DAVElement?
  var failure: CalendarServerError?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    guard stack.count < DAVElement.depthLimit else {
      failure = .tooDeep(limit: DAVElement.depthLimit)
      parser.abortParsing()
      return
    }
    var element = DAVElement(namespace: namespaceURI ?? "", name: elementName)
    // The one attribute WebDAV replies carry that matters here: <C:comp name="VTODO"/>.
    if let name = attributes["name"] { element.text = name }
    stack.append(element)
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    guard let element = stack.popLast() else { return }
    if stack.isEmpty {
      root = element
    } else {
      stack[stack.count - 1].children.append(element)
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += string
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += String(decoding: block, as: UTF8.self)
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    if failure == nil { failure = .malformedXML("\(parseError.localizedDescription)") }
  }
}

/// Text for an XML body: the five characters XML reserves escaped, and the controls XML 1.0
/// cannot carry refused by the caller's checks before they get here.
func xmlEscaped(_ text: String) -> String {
  var out = ""
  out.reserveCapacity(text.utf8.count)
  for character in text {
    switch character {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    case "'": out += "&apos;"
    default: out.append(character)
    }
  }
  return out
}

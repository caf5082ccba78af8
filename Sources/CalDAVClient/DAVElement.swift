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
    let parser = XMLParser(data: Data(bytes))
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

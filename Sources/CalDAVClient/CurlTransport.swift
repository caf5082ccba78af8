import CCurl
import Foundation
import TodoCalendar

/// One HTTP request as the client sends it.
struct HTTPRequest: Sendable {
  var method: String
  var url: ServerURL
  var headers: [(name: String, value: String)] = []
  var body: [UInt8] = []
}

/// The last response to a request (interim 100s and the 401 of a Digest login dropped).
struct HTTPResponse: Sendable {
  var status: Int
  var reason: String
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  /// The first header of that name, compared without case.
  func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}

/// The login a server asked for, with what answers it.
struct HTTPCredentials: Sendable, Equatable {
  enum Scheme: Sendable, Equatable { case basic, digest }
  var user: String
  var password: String
  var scheme: Scheme
}

/// How patient the client is, how much it accepts, and whom it trusts.
public struct TransportOptions: Sendable, Equatable {
  /// A PEM file of certificate authorities to trust instead of the system's (a private CA).
  public var certificateAuthorityFile: String?
  public var connectTimeout: Duration
  /// How long the server may work on a request before the first byte of its answer: Radicale
  /// answers the first sync-collection report of a 10,000-item collection after minutes
  /// (it reads every item and writes its history), and that is no stall.
  public var answerTimeout: Duration
  /// An answer that has begun and then stops arriving for this long fails as unreachable.
  public var stallTimeout: Duration
  /// The longest one request may take in all.
  public var requestTimeout: Duration
  /// The largest reply body accepted; a larger one fails instead of filling memory.
  public var replyLimit: Int

  public init(
    certificateAuthorityFile: String? = nil, connectTimeout: Duration = .seconds(15),
    answerTimeout: Duration = .seconds(480), stallTimeout: Duration = .seconds(30),
    requestTimeout: Duration = .seconds(600), replyLimit: Int = 64 << 20
  ) {
    self.certificateAuthorityFile = certificateAuthorityFile
    self.connectTimeout = connectTimeout
    self.answerTimeout = answerTimeout
    self.stallTimeout = stallTimeout
    self.requestTimeout = requestTimeout
    self.replyLimit = replyLimit
  }
}

/// HTTP over libcurl, one handle kept for the connection's reuse. libcurl rather than
/// FoundationNetworking because on Linux URLSession cannot be given a CA file (its setting is
/// read on Android only) and cannot cap a reply's size before it is in memory; here both are
/// options of the request. Redirects are not followed: the caller decides where it may go.
final class CurlTransport: @unchecked Sendable {
  private let options: TransportOptions
  private let lock = NSLock()
  // Guarded by `lock`; a curl handle serves one request at a time.
  private let handle: UnsafeMutableRawPointer
  // Guarded by `lock`: requests sent, for benchmarks that compare request counts.
  private var sent = 0

  private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

  init(options: TransportOptions) throws(CalendarServerError) {
    guard CurlTransport.initialized, let handle = curl_easy_init() else {
      throw .unreachable("the HTTP library could not start")
    }
    if let file = options.certificateAuthorityFile, access(file, R_OK) != 0 {
      curl_easy_cleanup(handle)
      throw .caFileUnreadable(file)
    }
    self.options = options
    self.handle = handle
  }

  deinit { curl_easy_cleanup(handle) }

  /// How many requests were sent (a login's second leg counted).
  var requestCount: Int { lock.withLock { sent } }

  func send(_ request: HTTPRequest, credentials: HTTPCredentials?) throws(CalendarServerError)
    -> HTTPResponse
  {
    for header in request.headers {
      guard
        !(header.name + header.value).utf8.contains(where: {
          ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F
        })
      else { throw .invalidResponse("a header value with control characters") }
    }
    lock.lock()
    defer { lock.unlock() }
    sent += 1
    return try perform(request, credentials: credentials)
  }

  /// One request on the kept handle. The handle is not reset between requests: libcurl keeps
  /// a Digest login's nonce on it and answers the next request's challenge before it is made
  /// (one round trip a request instead of two, a 401 first). So every option a request may
  /// set is set on every request, to its value or its default, and the pointers into this
  /// call's memory are taken back before it returns.
  private func perform(_ request: HTTPRequest, credentials: HTTPCredentials?)
    throws(CalendarServerError) -> HTTPResponse
  {
    let reception = Reception(
      limit: options.replyLimit, answerTimeout: options.answerTimeout,
      stallTimeout: options.stallTimeout)
    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    var headerList: UnsafeMutablePointer<curl_slist>? = nil
    defer { curl_slist_free_all(headerList) }
    for header in request.headers {
      headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
    }
    // No "Expect: 100-continue" round trip before large bodies.
    headerList = curl_slist_append(headerList, "Expect:")

    let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
      withExtendedLifetime(reception) {
        let context = Unmanaged.passUnretained(reception).toOpaque()
        var setup = CURLE_OK
        func set(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
        set(ccurl_setopt_string(handle, CURLOPT_URL, request.url.description))
        set(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        if let file = options.certificateAuthorityFile {
          set(ccurl_setopt_string(handle, CURLOPT_CAINFO, file))
        }
        set(ccurl_setopt_string(handle, CURLOPT_NOPROXY, request.url.isLoopback ? "*" : nil))
        set(
          ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.milliseconds))
        set(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, options.requestTimeout.milliseconds))
        // Silence is judged by the progress callback (about once a second): before the
        // answer begins by the answer timeout, after by the stall timeout.
        set(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(ccurl_setopt_progress_callback(handle, curlProgress))
        set(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context))
        set(ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        set(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress))
        set(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlReceiveBody))
        set(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        set(ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlReceiveHeader))
        set(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        set(ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList))
        // GET first: it clears the last request's body and upload, then the method is named.
        set(ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        set(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        // A PUT always says how long its body is, an empty one too (Content-Length: 0).
        if !request.body.isEmpty || request.method == "PUT" {
          set(ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
          // COPYPOSTFIELDS takes a copy; an empty body still needs a valid pointer.
          (request.body.isEmpty ? [0] : request.body).withUnsafeBytes { bytes in
            set(
              ccurl_setopt_pointer(
                handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)
              ))
          }
        }
        // Basic alone is sent with the first request; Digest is answered from the nonce the
        // handle keeps, or after the server's first challenge.
        if let credentials {
          set(ccurl_setopt_string(handle, CURLOPT_USERNAME, credentials.user))
          set(ccurl_setopt_string(handle, CURLOPT_PASSWORD, credentials.password))
          let scheme = credentials.scheme == .basic ? ccurl_auth_basic() : ccurl_auth_digest()
          set(ccurl_setopt_long(handle, CURLOPT_HTTPAUTH, scheme))
        } else {
          set(ccurl_setopt_string(handle, CURLOPT_USERNAME, nil))
          set(ccurl_setopt_string(handle, CURLOPT_PASSWORD, nil))
          set(ccurl_setopt_long(handle, CURLOPT_HTTPAUTH, ccurl_auth_basic()))
        }
        let result = setup == CURLE_OK ? curl_easy_perform(handle) : setup
        // The buffer, the header list and the reception are this call's: the handle must
        // not point at them once it returns.
        _ = ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
        _ = ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, nil)
        _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, nil)
        _ = ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, nil)
        _ = ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, nil)
        return result
      }
    }
    if code != CURLE_OK {
      let detail = String(
        decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let words = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      if reception.overflowed { throw .replyTooLarge(limit: options.replyLimit) }
      if let silence = reception.silence {
        throw .timedOut(
          silence == .beforeAnswer
            ? "the server sent nothing for \(options.answerTimeout.milliseconds / 1000) s"
            : "the answer stopped for \(options.stallTimeout.milliseconds / 1000) s")
      }
      throw CurlTransport.error(code, words)
    }
    var status = 0
    _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    return HTTPResponse(
      status: status, reason: reception.reason, headers: reception.headers, body: reception.body)
  }

  /// libcurl's result codes sorted into the kinds of failure a person acts on differently.
  private static func error(_ code: CURLcode, _ words: String) -> CalendarServerError {
    switch code.rawValue {
    case 1, 3: return .invalidURL(words)
    case 28: return .timedOut(words)
    case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
      return .tls(CalendarServerError.oneLine(words))
    case 8, 18, 61, 100: return .invalidResponse(CalendarServerError.oneLine(words))
    default: return .unreachable(CalendarServerError.oneLine(words))
    }
  }
}

/// What the callbacks gather for one request.
private final class Reception {
  enum Silence { case beforeAnswer, midAnswer }

  let limit: Int
  let answerTimeout: Duration
  let stallTimeout: Duration
  var body: [UInt8] = []
  var headers: [(name: String, value: String)] = []
  var reason = ""
  var overflowed = false
  var headerBytes = 0
  let started = ContinuousClock.now
  /// When the last byte of the answer came; nil before the first.
  var lastByte: ContinuousClock.Instant?
  /// Set when the progress callback gave up on a silent server.
  var silence: Silence?

  init(limit: Int, answerTimeout: Duration, stallTimeout: Duration) {
    self.limit = limit
    self.answerTimeout = answerTimeout
    self.stallTimeout = stallTimeout
  }
}

private func curlProgress(
  _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloadNow: curl_off_t,
  _ uploadTotal: curl_off_t, _ uploadNow: curl_off_t
) -> Int32 {
  guard let context else { return 0 }
  let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
  let now = ContinuousClock.now
  if let last = reception.lastByte {
    guard now - last > reception.stallTimeout else { return 0 }
    reception.silence = .midAnswer
  } else {
    guard now - reception.started > reception.answerTimeout else { return 0 }
    reception.silence = .beforeAnswer
  }
  return 1
}

private func curlReceiveBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  reception.lastByte = .now
  guard reception.body.count + length <= reception.limit else {
    reception.overflowed = true
    return 0
  }
  data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
    reception.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
  }
  return length
}

private func curlReceiveHeader(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let reception = Unmanaged<Reception>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  reception.lastByte = .now
  reception.headerBytes += length
  guard reception.headerBytes <= 1 << 20 else {
    reception.overflowed = true
    return 0
  }
  let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
    String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
  }.trimmingCharacters(in: .whitespacesAndNewlines)
  if line.hasPrefix("HTTP/") {
    // A new response begins (after a 100 or the first leg of a Digest login).
    reception.headers = []
    reception.reason =
      line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
  } else if let colon = line.firstIndex(of: ":") {
    let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
    let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    reception.headers.append((name, value))
  }
  return length
}

extension Duration {
  var milliseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}

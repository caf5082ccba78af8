/// A task as JSON shows it: the object `todo ls --format json` writes for each task and
/// `todo import` reads, with one definition for both (todo(1), OUTPUT FORMATS).
///
/// A ``Task`` is a line and what it means. A record holds that meaning as plain values that
/// a program can read without knowing the format: the priority letter, the dates as
/// `YYYY-MM-DD`, the names without their sign, every tag. It also says where the line was
/// (its number and file). Encoded, its members come in a fixed order: `line`, `file`, `raw`,
/// `hash`, `done`, `priority`, `created`, `completed`, `due`, `threshold`, `projects`,
/// `contexts`, `tags`, `text`. New members may be added later; none is renamed or removed.
///
/// A record can also be decoded from an object that has only some members, as a person or
/// another program writes one for `todo import`: every member but `text` may be left out.
/// A member left out is `nil`. For the members whose value may be `null` (`priority` and the
/// dates), `null` is `.some(nil)`, because the two mean different things to import: a
/// `created` left out becomes today's date, `"created": null` means no date. For the other
/// members, `null` reads as left out.
///
/// Decoding errors are the standard `DecodingError`s, and their `debugDescription` says in
/// one line what the member should hold (`"priority" should be a string or null`), whichever
/// decoder reads the JSON. The record does not check a value's meaning: a priority of `"b"`
/// or a date of `"fri"` decodes, and it is up to the reader to check or resolve it.
public struct TaskRecord: Codable, Sendable, Equatable {
  /// The task's 1-based number in its file: the number the commands take.
  public var line: Int?
  /// The name of the file the task is in (`todo.txt`, `done.txt`), without its folder.
  public var file: String?
  /// The whole line, without its line ending; bytes that are not UTF-8 are U+FFFD.
  public var raw: String?
  /// The line's ``Task/contentHash``, which `--if-match` takes to make sure a command acts on
  /// the task the script saw.
  public var hash: String?
  /// Whether the task is done (its line starts with `x `).
  public var done: Bool?
  /// The priority letter: the one in the line's head or, for a done task without one, its
  /// `pri:` tag.
  public var priority: String??
  /// The creation date, `YYYY-MM-DD`.
  public var created: String??
  /// The completion date, `YYYY-MM-DD`.
  public var completed: String??
  /// The `due:` date, `YYYY-MM-DD` (a `due:` tag that is not a date is only in ``tags``).
  public var due: String??
  /// The `t:` (threshold) date, `YYYY-MM-DD`: the task is not meant to be seen before it.
  public var threshold: String??
  /// The `+project` names, without the `+`, each once, in order of appearance.
  public var projects: [String]?
  /// The `@context` names, without the `@`, each once, in order of appearance.
  public var contexts: [String]?
  /// Every `key:value` tag of the text, in order, repeats included.
  public var tags: [Tag]?
  /// The line after its head (the completion mark, dates and priority).
  public var text: String

  /// A record with the members given; those left `nil` are left out of its JSON.
  public init(
    line: Int? = nil, file: String? = nil, raw: String? = nil, hash: String? = nil, done: Bool? = nil,
    priority: String?? = nil, created: String?? = nil, completed: String?? = nil, due: String?? = nil,
    threshold: String?? = nil, projects: [String]? = nil, contexts: [String]? = nil, tags: [Tag]? = nil,
    text: String
  ) {
    self.line = line
    self.file = file
    self.raw = raw
    self.hash = hash
    self.done = done
    self.priority = priority
    self.created = created
    self.completed = completed
    self.due = due
    self.threshold = threshold
    self.projects = projects
    self.contexts = contexts
    self.tags = tags
    self.text = text
  }

  /// The record of `task`, with every member: what `ls --format json` writes for it.
  ///
  /// - Parameters:
  ///   - line: the task's number in its file; `nil` for a task from no file, whose record
  ///     then leaves `line` out.
  ///   - file: the file's name without its folder; `nil` leaves `file` out.
  public init(_ task: Task, line: Int?, file: String?) {
    self.line = line
    self.file = file
    raw = task.line
    hash = task.contentHash
    done = task.isCompleted
    priority = .some(task.priority?.description)
    created = .some(task.creationDate?.description)
    completed = .some(task.completionDate?.description)
    due = .some(task.dueDate?.description)
    threshold = .some(task.thresholdDate?.description)
    projects = task.projects
    contexts = task.contexts
    tags = task.tags
    text = task.text
  }

  /// The members, in the order they are written. The JSON names of the dates that are tags
  /// are the fields ``TagMeaning`` gives them, as the query language names them too.
  enum CodingKeys: CodingKey, CaseIterable {
    case line, file, raw, hash, done, priority, created, completed, due, threshold, projects, contexts, tags, text

    var stringValue: String {
      switch self {
      case .line: "line"
      case .file: "file"
      case .raw: "raw"
      case .hash: "hash"
      case .done: "done"
      case .priority: "priority"
      case .created: "created"
      case .completed: "completed"
      case .due: TagMeaning.due.field
      case .threshold: TagMeaning.threshold.field
      case .projects: "projects"
      case .contexts: "contexts"
      case .tags: "tags"
      case .text: "text"
      }
    }

    init?(stringValue: String) {
      guard let key = CodingKeys.allCases.first(where: { $0.stringValue == stringValue }) else { return nil }
      self = key
    }

    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  /// Writes the members in the order of ``CodingKeys``, leaving out those that are `nil`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: CodingKeys.self)
    for key in CodingKeys.allCases {
      switch key {
      case .line: try members.encodeIfPresent(line, forKey: key)
      case .file: try members.encodeIfPresent(file, forKey: key)
      case .raw: try members.encodeIfPresent(raw, forKey: key)
      case .hash: try members.encodeIfPresent(hash, forKey: key)
      case .done: try members.encodeIfPresent(done, forKey: key)
      case .priority: try members.encodeNullable(priority, forKey: key)
      case .created: try members.encodeNullable(created, forKey: key)
      case .completed: try members.encodeNullable(completed, forKey: key)
      case .due: try members.encodeNullable(due, forKey: key)
      case .threshold: try members.encodeNullable(threshold, forKey: key)
      case .projects: try members.encodeIfPresent(projects, forKey: key)
      case .contexts: try members.encodeIfPresent(contexts, forKey: key)
      case .tags: try members.encodeIfPresent(tags, forKey: key)
      case .text: try members.encode(text, forKey: key)
      }
    }
  }

  /// Reads an object with some of the members; only `text` is required.
  ///
  /// `line`, `file`, `raw` and `hash` say where a listed task was; a reader of the record has
  /// no use for them, so one of another type reads as left out rather than failing the
  /// record (`todo import` has always taken any object whose text it can use). The members
  /// are read in the order import checks them: `text` first, the tags last.
  public init(from decoder: any Decoder) throws {
    let members = try DecodingError.rewording("expected an object") { try decoder.container(keyedBy: CodingKeys.self) }
    text = try DecodingError.rewording(#"needs "text" (a string)"#) { try members.decode(String.self, forKey: .text) }
    line = try? members.decodeIfPresent(Int.self, forKey: .line)
    file = try? members.decodeIfPresent(String.self, forKey: .file)
    raw = try? members.decodeIfPresent(String.self, forKey: .raw)
    hash = try? members.decodeIfPresent(String.self, forKey: .hash)
    done = try DecodingError.rewording(#""done" should be true or false"#) {
      try members.decodeIfPresent(Bool.self, forKey: .done)
    }
    priority = try members.decodeNullable(.priority)
    completed = try members.decodeNullable(.completed)
    created = try members.decodeNullable(.created)
    projects = try members.decodeNames(.projects)
    contexts = try members.decodeNames(.contexts)
    due = try members.decodeNullable(.due)
    threshold = try members.decodeNullable(.threshold)
    tags = try members.decodeTags()
  }
}

extension KeyedEncodingContainer where Key == TaskRecord.CodingKeys {
  /// Leaves the member out for `nil`, writes `null` for `.some(nil)`, else the string.
  fileprivate mutating func encodeNullable(_ value: String??, forKey key: Key) throws {
    switch value {
    case .none: return
    case .some(.none): try encodeNil(forKey: key)
    case .some(.some(let text)): try encode(text, forKey: key)
    }
  }
}

extension KeyedDecodingContainer where Key == TaskRecord.CodingKeys {
  /// `nil` for a member left out, `.some(nil)` for `null`, else the string.
  fileprivate func decodeNullable(_ key: Key) throws -> String?? {
    try DecodingError.rewording("\"\(key.stringValue)\" should be a string or null") {
      guard contains(key) else { return .none }
      if try decodeNil(forKey: key) { return .some(nil) }
      return .some(try decode(String.self, forKey: key))
    }
  }

  /// An array of names; `nil` for a member left out or `null`.
  fileprivate func decodeNames(_ key: Key) throws -> [String]? {
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    var items = try DecodingError.rewording("\"\(key.stringValue)\" should be an array of strings") {
      try nestedUnkeyedContainer(forKey: key)
    }
    var names: [String] = []
    while !items.isAtEnd {
      names.append(try DecodingError.rewording("\"\(key.stringValue)\" should hold strings") { try items.decode(String.self) })
    }
    return names
  }

  /// The tags as an array of ``Tag``s (each `{"key": ..., "value": ...}` or `[key, value]`),
  /// or as an object of `key: value` members, read in the order the decoder gives its names
  /// (the order written, for the decoder of `todo import`); `nil` for a member left out or
  /// `null`.
  fileprivate func decodeTags() throws -> [Tag]? {
    guard contains(.tags), try !decodeNil(forKey: .tags) else { return nil }
    if var items = try? nestedUnkeyedContainer(forKey: .tags) {
      var tags: [Tag] = []
      while !items.isAtEnd { tags.append(try items.decode(Tag.self)) }
      return tags
    }
    let object = try DecodingError.rewording(#""tags" should be an array or an object"#) {
      try nestedContainer(keyedBy: AnyKey.self, forKey: .tags)
    }
    return try object.allKeys.map { key in
      let value = try DecodingError.rewording("tag values should be strings") { try object.decode(String.self, forKey: key) }
      return Tag(key: key.stringValue, value: value)
    }
  }
}

/// A tag is `{"key": ..., "value": ...}` in JSON, and may be read from `[key, value]` too.
extension Tag: Codable {
  private enum CodingKeys: String, CodingKey {
    case key, value
  }

  /// Reads `{"key": ..., "value": ...}` or `[key, value]`, both strings.
  public init(from decoder: any Decoder) throws {
    if var pair = try? decoder.unkeyedContainer() {
      let count = pair.count
      (key, value) = try DecodingError.rewording("a tag should be [key, value]") {
        guard count == 2 else {
          throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected two strings"))
        }
        return (try pair.decode(String.self), try pair.decode(String.self))
      }
      return
    }
    (key, value) = try DecodingError.rewording(#"a tag should be {"key": ..., "value": ...}"#) {
      let members = try decoder.container(keyedBy: CodingKeys.self)
      return (try members.decode(String.self, forKey: .key), try members.decode(String.self, forKey: .value))
    }
  }

  /// Writes `{"key": ..., "value": ...}`.
  public func encode(to encoder: any Encoder) throws {
    var members = encoder.container(keyedBy: CodingKeys.self)
    try members.encode(key, forKey: .key)
    try members.encode(value, forKey: .value)
  }
}

extension DecodingError {
  /// Runs `decode`; a `DecodingError` it throws comes out the same (kind, type, coding path)
  /// with `problem` as its description, the original as its underlying error. So that a
  /// record's errors say what the member should hold, whichever decoder read it.
  static func rewording<T>(_ problem: String, _ decode: () throws -> T) throws -> T {
    do {
      return try decode()
    } catch let error as DecodingError {
      func context(_ old: Context) -> Context {
        Context(codingPath: old.codingPath, debugDescription: problem, underlyingError: error)
      }
      switch error {
      case .typeMismatch(let type, let old): throw DecodingError.typeMismatch(type, context(old))
      case .valueNotFound(let type, let old): throw DecodingError.valueNotFound(type, context(old))
      case .keyNotFound(let key, let old): throw DecodingError.keyNotFound(key, context(old))
      case .dataCorrupted(let old): throw DecodingError.dataCorrupted(context(old))
      @unknown default: throw error
      }
    }
  }

  /// The error's description: for a record's errors, the line that says what is wrong.
  package var problem: String {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
      .dataCorrupted(let context):
      context.debugDescription
    @unknown default: "\(self)"
    }
  }
}

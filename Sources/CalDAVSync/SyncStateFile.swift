import TodoCalendar
import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// The sync state of one list and one collection on disk: `caldav/` in the store's state
/// directory, one file per pair, named by a hash of the two.
///
/// The file ends with a SHA-256 of everything before it, and names the list and the
/// collection inside: a file cut short, changed by another program, or copied from another
/// list's state is told apart from a good one and not used. Writes replace the file whole
/// (a temporary file, fsync, rename), so a kill leaves the old state or the new one.
public struct SyncStateFile: Sendable {
  public let folderPath: String
  public let name: String
  public let list: String
  public let collection: String

  public init(stateDirectory: String, list: String, collection: String) {
    self.folderPath = stateDirectory.hasSuffix("/") ? stateDirectory + "caldav" : stateDirectory + "/caldav"
    self.list = list
    self.collection = collection
    let key = TodoStore.digest(of: Array(list.utf8) + [0] + Array(collection.utf8))
    self.name = String(key.prefix(32)) + ".state"
  }

  public var path: String { folderPath + "/" + name }

  /// What reading found: the state, or a fresh one and why the file was not used.
  public struct Loaded: Sendable {
    public var state: SyncState
    /// Set when a file was there but could not be used (the sync is then a first sync).
    public var problem: SyncStateError?
  }

  /// Reads the state; `isMember` judges the hrefs in it (the collection's own rule, see
  /// ``SyncState/distrust(isMember:)``): a state that fails is not used.
  public func load(isMember: (String) -> Bool) -> Loaded {
    let fresh = SyncState(list: list, collection: collection)
    guard let folder = try? ConfinedFolder(folderPath), folder.kind(of: name) != nil else {
      return Loaded(state: fresh, problem: nil)
    }
    do {
      let bytes = try folder.read(name)
      let state = try SyncStateFile.decode(bytes)
      guard state.list == list, state.collection == collection else { throw SyncStateError.foreign }
      if let why = state.distrust(isMember: isMember) { throw SyncStateError.untrusted(why) }
      return Loaded(state: state, problem: nil)
    } catch let error as SyncStateError {
      return Loaded(state: fresh, problem: error)
    } catch {
      return Loaded(state: fresh, problem: .malformed("\(error)"))
    }
  }

  public func save(_ state: SyncState) throws(StoreError) {
    let folder = try ConfigurationFile.makeFolders(folderPath)
    chmod(folderPath, 0o700)
    try folder.replace(name, contents: SyncStateFile.encode(state))
  }

  static let checksumPrefix = Array("sha256 ".utf8)

  static func encode(_ state: SyncState) -> [UInt8] {
    let body = state.bytes
    return body + checksumPrefix + Array(TodoStore.digest(of: body).utf8) + [0x0A]
  }

  static func decode(_ bytes: [UInt8]) throws(SyncStateError) -> SyncState {
    // The checksum line is the last: `sha256 HEX LF`.
    guard bytes.count > 8, bytes.last == 0x0A,
      let start = bytes.dropLast().lastIndex(of: 0x0A).map({ $0 + 1 }),
      bytes[start...].starts(with: checksumPrefix)
    else { throw .damaged }
    let body = Array(bytes[..<start])
    let written = bytes[(start + checksumPrefix.count)..<(bytes.count - 1)]
    guard written.elementsEqual(TodoStore.digest(of: body).utf8) else { throw .damaged }
    return try SyncState(parsing: body)
  }
}

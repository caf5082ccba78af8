import TodoStore

#if canImport(Glibc)
  import Glibc
#endif

/// Sets `export NAME='value'` lines in the tool's configuration file (a shell script), each
/// replacing the line that set the name before, or added at the end; every other byte of the
/// file stays. The file is replaced whole (temporary file, fsync, rename), never half written.
enum ConfigurationFile {
  static func set(_ values: [(String, String)], in path: String) throws(StoreError) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let folder = try ConfigurationFile.makeFolders(directory.isEmpty ? "/" : directory)
    var lines: [[UInt8]] = []
    if folder.kind(of: name) != nil {
      lines = try folder.read(name).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
      if lines.last == [] { lines.removeLast() }
    }
    for (variable, value) in values {
      let line = Array("export \(variable)=\(quoted(value))".utf8)
      let prefixes = [Array("export \(variable)=".utf8), Array("\(variable)=".utf8)]
      if let index = lines.firstIndex(where: { line in prefixes.contains { line.starts(with: $0) } }) {
        lines[index] = line
      } else {
        lines.append(line)
      }
    }
    try folder.replace(name, contents: lines.flatMap { $0 + [0x0A] })
  }

  /// Opens the folder, made first with the folders on the way as `mkdir -p` makes them
  /// (`~/.config/todo`, `~/.local/state/todo/caldav`).
  /// A folder on the way is only opened, not listed: listing `/tmp` or a home folder of
  /// thousands of names (read and sorted) cost more than the rest of a sync's state write.
  static func makeFolders(_ path: String) throws(StoreError) -> ConfinedFolder {
    var made = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      made += "/" + part
      if let folder = opendir(made) {
        closedir(folder)
      } else {
        _ = try ConfinedFolder(made, creating: true)
      }
    }
    return try ConfinedFolder(path, creating: true)
  }

  /// The value in single quotes, a quote in it written `'\''`: the shell reads it back as it is.
  static func quoted(_ value: String) -> String {
    "'" + value.replacing("'", with: "'\\''") + "'"
  }
}

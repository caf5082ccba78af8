import Foundation
import Testing

/// `make install-files` and `make uninstall` into a temporary DESTDIR, with the binary the
/// tests already built (so no release build is needed here).
@Suite struct InstallTests {
  static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let installed = [
    "usr/bin/todo", "usr/bin/todo-caldav", "usr/bin/todo.sh", "usr/share/bash-completion/completions/todo",
    "usr/share/bash-completion/completions/todo.sh", "usr/share/zsh/site-functions/_todo",
    "usr/share/fish/vendor_completions.d/todo.fish",
    "usr/share/fish/vendor_completions.d/todo.sh.fish",
    "usr/share/man/man1/todo.1", "usr/share/man/man1/todo.sh.1", "usr/share/man/man5/todo.txt.5",
    "usr/share/man/man5/todo-config.5",
  ]

  static func make(_ target: String, destination: URL) throws -> Sandbox.Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
    process.arguments = [
      "-s", "-C", checkout.path, target, "DESTDIR=\(destination.path)", "PREFIX=/usr",
      "BUILD_DIR=\(Sandbox.productsDirectory.path)",
    ]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Sandbox.Run(
      status: process.terminationStatus, stdout: "", stderr: String(decoding: err, as: UTF8.self))
  }

  /// Every regular file and symbolic link under `root`, relative to it.
  static func tree(_ root: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      let attributes = try? FileManager.default.attributesOfItem(
        atPath: root.appendingPathComponent(path).path)
      if attributes?[.type] as? FileAttributeType != .typeDirectory { files.append(path) }
    }
    return files.sorted()
  }

  @Test func installsTheTreeAndUninstallsExactlyIt() throws {
    let box = try Sandbox()
    let destination = box.home.appendingPathComponent("stage")
    let install = try InstallTests.make("install-files", destination: destination)
    #expect(install.status == 0, "\(install.stderr)")
    #expect(InstallTests.tree(destination) == InstallTests.installed.sorted())

    let binary = destination.appendingPathComponent("usr/bin/todo")
    #expect(FileManager.default.isExecutableFile(atPath: binary.path))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: binary.path + ".sh") == "todo")
    for (page, source) in [
      ("usr/share/man/man5/todo-config.5", "man/todo-config.5"),
      ("usr/share/zsh/site-functions/_todo", "Completions/_todo"),
    ] {
      let copied = try Data(contentsOf: destination.appendingPathComponent(page))
      #expect(
        copied == (try Data(contentsOf: InstallTests.checkout.appendingPathComponent(source))))
    }

    // The installed binary runs under both names.
    try FileManager.default.removeItem(at: box.home.appendingPathComponent("bin"))
    try FileManager.default.createSymbolicLink(
      at: box.home.appendingPathComponent("bin"),
      withDestinationURL: destination.appendingPathComponent("usr/bin"))
    let version = try box.todo("--version")
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("TODO.TXT Command Line Interface v"))
    #expect(try box.sh("add", "installed").stdout == "1 installed\nTODO: 1 added.\n")
    #expect(try box.todo("__complete", "do", "").stdout == "1\tinstalled\n")

    let uninstall = try InstallTests.make("uninstall", destination: destination)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(InstallTests.tree(destination).isEmpty)
  }
}

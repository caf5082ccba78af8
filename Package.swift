// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "todo",
  products: [
    .executable(name: "todo", targets: ["todo"]),
    .executable(name: "todo-caldav", targets: ["todo-caldav"]),
    .library(name: "TodoTxt", targets: ["TodoTxt"]),
    .library(name: "TodoTxtFoundation", targets: ["TodoTxtFoundation"]),
    .library(name: "TodoStore", targets: ["TodoStore"]),
  ],
  targets: [
    // MARK: Format

    .target(
      /** The todo.txt format: model, parser, serializer, dates, recurrence, index */
      name: "TodoTxt"),
    .target(
      /** Foundation's Date for apps, beside the format (the command line does not load it) */
      name: "TodoTxtFoundation",
      dependencies: ["TodoTxt"]),

    // MARK: Storage

    .target(
      /** All file access: locking, atomic replace, appends, outside edits, journal, undo */
      name: "TodoStore",
      dependencies: ["TodoTxt", "CLinux"]),
    .systemLibrary(
      /** Linux system calls Swift's Glibc module leaves out (a header over the C library) */
      name: "CLinux"),

    // MARK: Calendars

    .target(
      /** CalDAV sync's pure parts: iCalendar, the VTODO mapping, the field merge, the plan */
      name: "TodoCalendar",
      dependencies: ["TodoTxt"]),
    .target(
      /** The CalDAV client: discovery, the task collection over HTTP, logins; for `todo-caldav` only */
      name: "CalDAVClient",
      dependencies: ["TodoCalendar", "CCurl"]),
    .systemLibrary(
      /** libcurl (Debian: apt-get install libcurl4-openssl-dev) */
      name: "CCurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),

    .target(
      /** CalDAV sync's engine: the state file, the list's side under its lock, the server's operations */
      name: "CalDAVSync",
      dependencies: ["TodoCalendar", "TodoStore", "TodoTxt"]),

    .executableTarget(
      /** todo-caldav: the helper `todo caldav` runs; it links the network libraries todo leaves out */
      name: "todo-caldav",
      dependencies: ["CalDAVSync", "CalDAVClient", "TodoCalendar"],
      path: "Sources/TodoCalDAV"),

    // MARK: Commands and front ends

    .target(
      /** The commands shared by the one-shot command line and the interactive shell */
      name: "TodoCommands",
      dependencies: ["TodoTxt", "TodoStore"]),
    .systemLibrary(
      /** GNU readline (Debian/Ubuntu: apt-get install libreadline-dev) */
      name: "CReadline",
      providers: [.apt(["libreadline-dev"])]),
    .target(
      /** The interactive shell, on top of the commands */
      name: "TodoREPL",
      dependencies: ["TodoCommands", "TodoStore", "TodoTxt", "CReadline"]),
    .target(
      /** The full-screen view (`todo ui`), on top of the commands and the store */
      name: "TodoView",
      dependencies: ["TodoCommands", "TodoREPL", "TodoStore", "TodoTxt", "TodoImages", "CLinux"]),
    .executableTarget(
      /** Entry point: wires the process to the command line, the shell and the view */
      name: "todo",
      dependencies: ["TodoCommands", "TodoREPL", "TodoView"]),

    // MARK: Images

    .target(
      /** PNG and JPEG bytes to RGBA over libpng and libjpeg (Debian: libpng-dev, libjpeg62-turbo-dev) */
      name: "CImageDecode",
      linkerSettings: [
        .linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("z"), .linkedLibrary("m"),
      ]),
    .target(
      /** Image attachments for a terminal: decode, scale, and render as kitty, sixel or text */
      name: "TodoImages",
      dependencies: ["CImageDecode"]),

    // MARK: Benchmarks

    .executableTarget(
      /** Parses and indexes a todo.txt file and reports throughput and peak memory */
      name: "todo-bench",
      dependencies: ["TodoTxt"],
      path: "Sources/TodoBench"),

    .executableTarget(
      /** Times the full-screen view on a list: the first screen, then each kind of key */
      name: "todo-view-bench",
      dependencies: ["TodoView", "TodoCommands", "TodoStore", "TodoTxt"],
      path: "Sources/TodoViewBench"),

    // MARK: Examples

    .executableTarget(
      /** A phone app's task manager on the command line, on the public products only */
      name: "task-manager",
      dependencies: ["TodoTxt", "TodoStore", "TodoTxtFoundation"],
      path: "Examples/TaskManager/Sources"),

    // MARK: Tests

    .target(
      /** What the test targets share (the seeded generator, child processes, CalDAV servers and the phone); not a product */
      name: "TodoTestSupport",
      path: "Tests/TodoTestSupport",
      exclude: ["Fixtures"]),
    .testTarget(
      name: "TodoCommandsTests",
      dependencies: ["TodoCommands", "TodoStore", "TodoTxt", "TodoTestSupport"]),
    .testTarget(
      name: "TodoViewTests",
      dependencies: ["TodoView", "TodoCommands", "TodoStore", "TodoTxt", "TodoTestSupport"]),
    .testTarget(
      name: "TodoREPLTests",
      dependencies: ["TodoREPL", "TodoCommands", "TodoTxt", "TodoStore", "TodoTestSupport"]),
    .testTarget(
      name: "TodoEndToEndTests",
      dependencies: ["todo", "todo-caldav", "TodoTestSupport"],
      exclude: ["Fixtures"]),
    .executableTarget(
      /** Runs store operations in child processes for TodoStoreTests; not a product */
      name: "todo-store-probe",
      dependencies: ["TodoStore", "TodoTxt"],
      path: "Tests/TodoStoreProbe"),
    .testTarget(
      name: "TodoStoreTests",
      dependencies: ["TodoStore", "TodoTxt", "todo-store-probe", "TodoTestSupport"]),
    .testTarget(
      /** The store's guarantees through the public API only, as an app uses it */
      name: "TodoDocumentTests",
      dependencies: ["TodoStore", "TodoTxt", "todo-store-probe"]),
    .testTarget(
      /** Runs the built task-manager example in a temporary folder */
      name: "TaskManagerTests",
      dependencies: ["task-manager"],
      path: "Examples/TaskManager/Tests"),
    .testTarget(
      /** The README's library example, compiled and run, and checked against the README */
      name: "ReadmeTests",
      dependencies: ["TodoStore", "TodoTxt"]),
    .testTarget(
      name: "TodoTxtFoundationTests",
      dependencies: ["TodoTxtFoundation", "TodoTxt", "TodoTestSupport"]),
    .testTarget(
      name: "TodoImagesTests",
      dependencies: ["TodoImages", "CImageDecode", "TodoTestSupport"]),
    .testTarget(
      /** iCalendar, the VTODO and task mappings (peers read what it writes), the field merge, the sync plan */
      name: "TodoCalendarTests",
      dependencies: ["TodoCalendar", "TodoTxt", "TodoTestSupport"]),
    .testTarget(
      /** CalDAV sync end to end over an in-memory collection: state, lock, undo, interruptions */
      name: "CalDAVSyncTests",
      dependencies: ["CalDAVSync", "TodoCalendar", "TodoStore", "TodoTxt", "TodoTestSupport"]),
    .testTarget(
      name: "CalDAVClientTests",
      dependencies: ["CalDAVClient", "TodoCalendar", "TodoTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "TodoTxtTests",
      dependencies: ["TodoTxt", "TodoTestSupport"],
      exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "todo",
  products: [
    .executable(name: "todo", targets: ["todo"]),
    .library(name: "TodoTxt", targets: ["TodoTxt"]),
  ],
  targets: [
    // MARK: Format

    .target(
      /** The todo.txt format: model, parser, serializer, dates, recurrence, index */
      name: "TodoTxt"),

    // MARK: Storage

    .target(
      /** All file access: locking, atomic replace, appends, outside edits, journal, undo */
      name: "TodoStore",
      dependencies: ["TodoTxt"]),

    // MARK: Commands and front ends

    .target(
      /** The commands shared by the one-shot command line and the interactive shell */
      name: "TodoCommands",
      dependencies: ["TodoTxt", "TodoStore"]),
    .executableTarget(
      /** Entry point: wires the process to the command line */
      name: "todo",
      dependencies: ["TodoCommands"]),

    // MARK: Benchmarks

    .executableTarget(
      /** Parses and indexes a todo.txt file and reports throughput and peak memory */
      name: "todo-bench",
      dependencies: ["TodoTxt"],
      path: "Sources/TodoBench"),

    // MARK: Tests

    .testTarget(
      name: "TodoCommandsTests",
      dependencies: ["TodoCommands", "TodoStore", "TodoTxt"]),
    .testTarget(
      name: "TodoEndToEndTests",
      dependencies: ["todo"]),
    .executableTarget(
      /** Runs store operations in child processes for TodoStoreTests; not a product */
      name: "todo-store-probe",
      dependencies: ["TodoStore", "TodoTxt"],
      path: "Tests/TodoStoreProbe"),
    .testTarget(
      name: "TodoStoreTests",
      dependencies: ["TodoStore", "TodoTxt", "todo-store-probe"]),
    .testTarget(
      name: "TodoTxtTests",
      dependencies: ["TodoTxt"],
      exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)

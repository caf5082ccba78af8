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

    // MARK: Front ends

    .executableTarget(
      /** Entry point: wires the command line to the library */
      name: "todo",
      dependencies: ["TodoTxt"]),

    // MARK: Benchmarks

    .executableTarget(
      /** Parses and indexes a todo.txt file and reports throughput and peak memory */
      name: "todo-bench",
      dependencies: ["TodoTxt"],
      path: "Sources/TodoBench"),

    // MARK: Tests

    .testTarget(
      name: "TodoStoreTests",
      dependencies: ["TodoStore", "TodoTxt"]),
    .testTarget(
      name: "TodoTxtTests",
      dependencies: ["TodoTxt"],
      exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)

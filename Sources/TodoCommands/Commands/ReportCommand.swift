import TodoTxt

/// `report`: archive, then record the open and done counts in report.txt.
enum ReportCommand {
  static let spec: CommandSpec = CommandSpec(
    name: "report",
    abstract: "Archive, then append the number of open and done tasks to report.txt.",
    discussion: "Nothing is appended when the counts equal those of the last report line.",
    extraWords: .ignoredUnderTodoSh
  ) { context, _ throws(TodoError) in
    _ = try context.runAction(ArchiveCommand.spec.name)
    let todo = try context.readList(context.settings.todoFile)
    let done = try context.readList(context.settings.doneFile)
    let reportFile = context.settings.reportFile
    let newData = "\(todo.count) \(done.count)"
    let report = try context.readList(reportFile)
    let lastReport = report.last.map { Array($0.bytes) } ?? []
    var lastData = lastReport
    if let space = lastData.firstIndex(of: UInt8(ascii: " ")) { lastData.removeSubrange(...space) }
    if lastData == bytes(newData) {
      context.console.line(lastReport)
      if context.verbose { context.console.line("TODO: Report file is up-to-date.") }
    } else {
      let line = "\(context.clock.timestamp) \(newData)"
      _ = try context.storing { try context.store.append([bytes(line)], to: reportFile, label: "report") }
      context.console.line(line)
      if context.verbose { context.console.line("TODO: Report file updated.") }
    }
    // todo.sh ends on its verbosity test, so it exits 1 when quiet; scripts may rely on it.
    return !context.verbose && context.settings.policy.quietReportFails ? .failure : .success
  }
}

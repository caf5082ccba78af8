import TodoTxt

/// The prompt: the program name and what needs doing, as `todo [12 open, 2 overdue]> `.
enum ShellPrompt {
  /// The prompt for `list` on `today`: open tasks (not completed, not blank) and those of them
  /// whose `due:` date has passed.
  static func text(programName: String, list: TodoList, today: TaskDate, conflictedCopies: Int = 0) -> String {
    let index = TodoIndex(list)
    let open = index.taskCount - index.completedCount
    var overdue = 0
    for (number, date) in index.dueDates where date < today {
      if let task = list.task(number: number), !task.isCompleted { overdue += 1 }
    }
    var counts = overdue > 0 ? "\(open) open, \(overdue) overdue" : "\(open) open"
    // A copy left by a sync service holds changes this list lacks until 'conflicts' runs.
    if conflictedCopies > 0 { counts += ", \(conflictedCopies) conflicted cop\(conflictedCopies == 1 ? "y" : "ies")" }
    return "\(programName) [\(counts)]> "
  }
}

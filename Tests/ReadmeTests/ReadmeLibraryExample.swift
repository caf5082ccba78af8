// The code of README.md's `## The library` block, compiled here and run by ReadmeTests.
// ReadmeTests also checks that the README shows exactly the lines between the two markers.

// README: begin
import TodoStore
import TodoTxt

func planShopping(list path: String, today: TaskDate, store: TodoStore = TodoStore()) throws {
  let document = try TodoDocument(path: path, store: store)  // a missing file is an empty list

  var task = Task(parsing: "Buy oat milk")
  task.setCreationDate(today)
  task.setPriority(Priority(word: "high"))  // (A)
  try task.addProject("shopping")  // +shopping
  try task.setDueDate("fri", today: today)  // due:YYYY-MM-DD, the coming Friday
  document.list.append(task)

  if let first = document.list.firstIndex(where: { !$0.isBlank && !$0.isCompleted }) {
    var done = document.list[first]
    done.complete(on: today)  // x YYYY-MM-DD …, its priority kept as pri:
    document.list.replace(at: first, with: done)
  }

  try document.save()  // writes only the changed lines; merges other programs' edits
}
// README: end

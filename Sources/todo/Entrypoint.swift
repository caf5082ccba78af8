import TodoTxt

print(TodoList(parsing: "(A) hello +world\n").first?.projects ?? [])

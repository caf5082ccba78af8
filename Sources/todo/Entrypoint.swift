@preconcurrency import Glibc
import TodoCommands
import TodoREPL
import TodoView

// A closed pipe (`todo ls | head`) ends output quietly instead of killing the process mid-write.
signal(SIGPIPE, SIG_IGN)
exit(TodoCLI.main { $0.frontEnd == .fullScreen ? FullScreenView.run($0) : InteractiveShell.run($0) }.rawValue)

@preconcurrency import Glibc
import TodoCommands
import TodoREPL

// A closed pipe (`todo ls | head`) ends output quietly instead of killing the process mid-write.
signal(SIGPIPE, SIG_IGN)
exit(TodoCLI.main(shell: InteractiveShell.run).rawValue)

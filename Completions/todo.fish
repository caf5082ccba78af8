# fish completion for todo and todo.sh
#
# Generated from the command table by `todo completions fish`; do not edit. Options and
# actions are listed here; add-ons, task numbers, projects, contexts, tags and file names
# come from `todo __complete`, which reads the same configuration and files as the tool.

function __todo_complete
    set -l before (commandline -opc)
    set -l cur (commandline -ct)
    set -l program $before[1]
    set -e before[1]
    set -l native 1
    string match -q -r '(^|/)todo\.sh$' -- $program; and set native 0

    # Options come before the action; -d and --config take a file.
    set -l n (count $before)
    set -l k 1
    set -l ended 0
    while test $k -le $n
        switch $before[$k]
            case --
                set k (math $k + 1)
                set ended 1
                break
            case --config --if-match
                set k (math $k + 2)
            case '--*'
                set k (math $k + 1)
            case '-*d'
                set k (math $k + 2)
            case '-?*'
                set k (math $k + 1)
            case '*'
                break
        end
    end

    if test $k -gt (math $n + 1)
        test "$before[-1]" = --if-match; or __fish_complete_path $cur
        return
    end
    if test $k -eq (math $n + 1); and test $ended -eq 0; and string match -q -- '-*' $cur
        printf '%s\t%s\n' '-@' 'Hide @context names in listings (given twice, show them again).'
        printf '%s\t%s\n' '-+' 'Hide +project names in listings (given twice, show them again).'
        printf '%s\t%s\n' '-c' 'Colour the listings.'
        printf '%s\t%s\n' '-d' 'Read this configuration file instead of the default ones.'
        printf '%s\t%s\n' '-f' 'Force: do not ask for confirmation or for missing text.'
        printf '%s\t%s\n' '-h' 'Show the short help.'
        printf '%s\t%s\n' '-p' 'Plain output: no colours.'
        printf '%s\t%s\n' '-P' 'Hide the priority labels in listings (given twice, show them again).'
        printf '%s\t%s\n' '-a' 'Leave done tasks in todo.txt when marking them done.'
        printf '%s\t%s\n' '-A' 'Move done tasks to done.txt when marking them done.'
        printf '%s\t%s\n' '-n' 'Remove the empty line a deleted or moved task leaves behind.'
        printf '%s\t%s\n' '-N' 'Keep the empty line a deleted or moved task leaves behind, so numbers stay.'
        printf '%s\t%s\n' '-t' 'Put today\'s date in front of added tasks.'
        printf '%s\t%s\n' '-T' 'Do not date added tasks.'
        printf '%s\t%s\n' '-v' 'More messages (-vv adds debugging lines).'
        printf '%s\t%s\n' '-V' 'Show the version.'
        printf '%s\t%s\n' '-x' 'Do not apply TODOTXT_FINAL_FILTER to listings.'
        if test $native -eq 1
            printf '%s\t%s\n' '--color=always' 'Colour listings always, never, or auto (only on a terminal, not with NO_COLOR).'
            printf '%s\t%s\n' '--color=auto' 'Colour listings always, never, or auto (only on a terminal, not with NO_COLOR).'
            printf '%s\t%s\n' '--color=never' 'Colour listings always, never, or auto (only on a terminal, not with NO_COLOR).'
            printf '%s\t%s\n' '--config' 'The same as -d.'
            printf '%s\t%s\n' '--force' 'The same as -f.'
            printf '%s\t%s\n' '--help' 'The same as -h.'
            printf '%s\t%s\n' '--if-match' 'Run the action only if the task it names still has this line, text or content hash (six or more hex digits).'
            printf '%s\t%s\n' '--plain' 'The same as -p.'
            printf '%s\t%s\n' '--verbose' 'The same as -v.'
            printf '%s\t%s\n' '--version' 'The same as -V.'
        end
        return
    end

    set -l output ($program __complete $before $cur 2>/dev/null)
    if test $status -ne 0; and test $k -eq (math $n + 1)
        printf '%s\t%s\n' 'add' 'Add a task at the end of todo.txt.'
        printf '%s\t%s\n' 'a' 'Add a task at the end of todo.txt.'
        printf '%s\t%s\n' 'addm' 'Add several tasks at once, one per line of the text.'
        printf '%s\t%s\n' 'addto' 'Add a task to another file in the todo directory.'
        printf '%s\t%s\n' 'append' 'Add text to the end of a task.'
        printf '%s\t%s\n' 'app' 'Add text to the end of a task.'
        printf '%s\t%s\n' 'archive' 'Move all done tasks from todo.txt to done.txt and remove empty lines.'
        printf '%s\t%s\n' 'command' 'Run a built-in action, bypassing any add-on of the same name.'
        printf '%s\t%s\n' 'deduplicate' 'Remove lines that repeat an earlier line exactly.'
        printf '%s\t%s\n' 'del' 'Delete tasks, or only some words of one.'
        printf '%s\t%s\n' 'rm' 'Delete tasks, or only some words of one.'
        printf '%s\t%s\n' 'depri' 'Remove the priority of one or more tasks.'
        printf '%s\t%s\n' 'dp' 'Remove the priority of one or more tasks.'
        printf '%s\t%s\n' 'do' 'Mark one or more tasks as done.'
        printf '%s\t%s\n' 'done' 'Mark one or more tasks as done.'
        printf '%s\t%s\n' 'help' 'Show the full help, or the help of the named actions.'
        printf '%s\t%s\n' 'list' 'List the tasks of todo.txt that match every TERM.'
        printf '%s\t%s\n' 'ls' 'List the tasks of todo.txt that match every TERM.'
        printf '%s\t%s\n' 'listall' 'List the tasks of todo.txt and done.txt together; done.txt\'s are numbered 0.'
        printf '%s\t%s\n' 'lsa' 'List the tasks of todo.txt and done.txt together; done.txt\'s are numbered 0.'
        printf '%s\t%s\n' 'listaddons' 'List the add-on actions found in the actions directory.'
        printf '%s\t%s\n' 'listcon' 'List the @contexts used in todo.txt (of the tasks matching every TERM).'
        printf '%s\t%s\n' 'lsc' 'List the @contexts used in todo.txt (of the tasks matching every TERM).'
        printf '%s\t%s\n' 'listfile' 'List the files of the todo directory, or the tasks of one of them.'
        printf '%s\t%s\n' 'lf' 'List the files of the todo directory, or the tasks of one of them.'
        printf '%s\t%s\n' 'listpri' 'List the tasks with a priority, or with the given priorities (A, A-C, ABR-Y).'
        printf '%s\t%s\n' 'lsp' 'List the tasks with a priority, or with the given priorities (A, A-C, ABR-Y).'
        printf '%s\t%s\n' 'listproj' 'List the +projects used in todo.txt (of the tasks matching every TERM).'
        printf '%s\t%s\n' 'lsprj' 'List the +projects used in todo.txt (of the tasks matching every TERM).'
        printf '%s\t%s\n' 'move' 'Move a task from one file of the todo directory to another.'
        printf '%s\t%s\n' 'mv' 'Move a task from one file of the todo directory to another.'
        printf '%s\t%s\n' 'prepend' 'Add text to the start of a task, after its priority and creation date.'
        printf '%s\t%s\n' 'prep' 'Add text to the start of a task, after its priority and creation date.'
        printf '%s\t%s\n' 'pri' 'Set the priority of one or more tasks.'
        printf '%s\t%s\n' 'p' 'Set the priority of one or more tasks.'
        printf '%s\t%s\n' 'replace' 'Replace the text of a task, keeping its priority and creation date.'
        printf '%s\t%s\n' 'report' 'Archive, then append the number of open and done tasks to report.txt.'
        printf '%s\t%s\n' 'shorthelp' 'List the usage line of every built-in and add-on action.'
        if test $native -eq 1
            printf '%s\t%s\n' 'completions' 'Print the completion script for bash, zsh or fish.'
            printf '%s\t%s\n' 'agenda' 'Show the open tasks that are overdue, due today, and due in the next DAYS days (7).'
            printf '%s\t%s\n' 'due' 'Show the open tasks that are overdue, due today, and due in the next DAYS days (7).'
            printf '%s\t%s\n' 'attach' 'Copy a file (a picture, a document) into the attachments folder and link it to a task.'
            printf '%s\t%s\n' 'attachments' 'List the paths of the files attached to a task.'
            printf '%s\t%s\n' 'note' 'Write or show the note of a task: a text file in the notes folder of the todo directory.'
            printf '%s\t%s\n' 'open' 'Open a task\'s note, attachment or web link with $TODO_OPEN, else xdg-open.'
            printf '%s\t%s\n' 'postpone' 'Move the due date of one or more tasks by a duration such as 3d, 1w, 2m, 1y or 5b, or to a date.'
            printf '%s\t%s\n' 'rec' 'Show, set or preview how a task recurs.'
            printf '%s\t%s\n' 'undo-done' 'Make done tasks open again.'
            printf '%s\t%s\n' 'reopen' 'Make done tasks open again.'
            printf '%s\t%s\n' 'unarchive' 'Move tasks back from done.txt to the end of todo.txt, open again.'
            printf '%s\t%s\n' 'show' 'Show one task with everything it holds: dates, names, dependencies, note and attachments.'
            printf '%s\t%s\n' 'reorder' 'Move a task to another line of todo.txt; the tasks in between shift by one.'
            printf '%s\t%s\n' 'tag' 'Set, replace or remove a key:value tag on one or more tasks.'
            printf '%s\t%s\n' 'undo' 'Undo the last change (or the last N changes) to todo.txt and done.txt.'
            printf '%s\t%s\n' 'redo' 'Redo the last undone change (or the last N).'
            printf '%s\t%s\n' 'log' 'Show the changes that can be undone (and redone), newest first.'
            printf '%s\t%s\n' 'shell' 'Start the interactive shell.'
            printf '%s\t%s\n' 'ui' 'Open the full-screen view of the list.'
            printf '%s\t%s\n' 'dep' 'Make a task wait for others (add), stop it waiting (rm), or list what waits for what (ls).'
            printf '%s\t%s\n' 'edit' 'Edit task NR, or the whole of todo.txt, in $VISUAL or $EDITOR.'
            printf '%s\t%s\n' 'find' 'List the tasks of todo.txt that match a query.'
            printf '%s\t%s\n' 'view' 'List the tasks of a view saved in the configuration, or list the views.'
            printf '%s\t%s\n' 'import' 'Add tasks read as JSON from standard input (one object per line, or an array).'
            printf '%s\t%s\n' 'next' 'List the open tasks to do next, the most urgent first.'
            printf '%s\t%s\n' 'projects' 'Count the open, overdue and done tasks of each +project, done.txt included.'
            printf '%s\t%s\n' 'contexts' 'Count the open, overdue and done tasks of each @context, done.txt included.'
            printf '%s\t%s\n' 'cal' 'Show a month as a calendar of due dates, then the open tasks due in it.'
            printf '%s\t%s\n' 'calendar' 'Show a month as a calendar of due dates, then the open tasks due in it.'
            printf '%s\t%s\n' 'stats' 'Count open, done, overdue and due tasks, and those added and done per week.'
            printf '%s\t%s\n' 'doctor' 'Check todo.txt and done.txt for lines this tool or other todo.txt apps would misread.'
            printf '%s\t%s\n' 'info' 'Show the version, the configuration file read, and the paths of the files and folders in use.'
            printf '%s\t%s\n' 'merge' 'Merge two versions of a todo.txt file task by task, writing the result to OURS.'
            printf '%s\t%s\n' 'git-setup' 'Register the task-by-task merge for todo.txt and done.txt in the todo directory\'s git repository.'
            printf '%s\t%s\n' 'sync' 'Commit the changes in the todo directory, merge the git remote\'s, and push the result.'
            printf '%s\t%s\n' 'conflicts' 'Merge the conflicted copies Dropbox or Syncthing left beside todo.txt and done.txt.'
            printf '%s\t%s\n' 'resolve' 'Show the merge conflicts in todo.txt and done.txt, or settle them by keeping a side or both.'
            printf '%s\t%s\n' 'caldav' 'Sync the list both ways with a CalDAV task collection (a phone\'s reminders or tasks).'
        end
        return
    end
    printf '%s\n' $output
end

complete -c todo -f -k -a '(__todo_complete)'
complete -c todo.sh -f -k -a '(__todo_complete)'

import Testing

/// Add-ons get todo.sh's helper functions (`die`, `getTodo`, `_list` …) in their environment,
/// as published add-ons expect.
@Suite struct AddonFunctionsTests {
  @Test func helpersWorkInsideAnAddon() throws {
    let box = try Sandbox()
    try box.write("todo.txt", "(A) first +proj\nsecond @ctx\n")
    let script = """
      #!/usr/bin/env bash
      action=$1; shift
      [ "$1" = usage ] && { echo "    show NR"; exit 0; }
      errmsg="usage: $TODO_SH show NR"
      getTodo "$1"
      echo "task: $todo"
      echo "prefix: $(getPrefix "$TODO_FILE")"
      echo "padding: $(getPadding)"
      echo "filter: $(filtercommand '' '' milk -bread)"
      input=$'a\\rb|c'; cleaninput "for sed"; echo "clean: $input"
      _list "$TODO_FILE" first
      listWordsWithSigil @
      _format "$TODO_FILE" 1 second; echo "counts: $NUMTASKS of $TOTALTASKS"
      getTodo 9
      echo "not reached"
      """
    try box.write(".todo.actions.d/show", script)
    _ = try Sandbox.makeExecutable(box.path(".todo.actions.d/show"))
    let run = try box.sh("-p", "show", "1")
    #expect(
      run.stdout == """
        task: (A) first +proj
        prefix: TODO
        padding: 1
        filter: grep -i milk | grep -v -i bread
        clean: a b\\|c
        1 (A) first +proj
        --
        TODO: 1 of 2 tasks shown
        @ctx
        2 second @ctx
        counts: 1 of 2

        """)
    #expect(run.stderr == "TODO: No task 9.\n")
    #expect(run.status == 1)
    #expect(try box.sh("abc").status == 1)
  }

  @Test func usageMustBeErrmsg() throws {
    let box = try Sandbox()
    try box.write(".todo.actions.d/bad", "#!/usr/bin/env bash\nerrmsg=\"usage: bad NR\"\ngetTodo x\n")
    _ = try Sandbox.makeExecutable(box.path(".todo.actions.d/bad"))
    let run = try box.todo("bad")
    #expect(run.stderr == "usage: bad NR\n")
    #expect(run.status == 1)
  }
}

@preconcurrency import Glibc
import TodoCommands
import TodoImages
import TodoREPL
import TodoStore
import TodoTxt

/// `todo ui`: the loop of the full-screen view. It reads keys, the window's resizes and the
/// file watch with one `poll`, hands keys to the ``ViewSession`` and draws what changed.
///
/// Only the rows that differ from the frame on screen are written, in one write: a key that
/// moves the selection rewrites two rows, whatever the size of the list.
package enum FullScreenView {
  /// Runs the view; fits ``ShellLauncher`` for ``ShellLaunch/FrontEnd/fullScreen``.
  package static func run(_ launch: ShellLaunch) -> ExitStatus {
    let context = launch.context
    let settings = context.settings
    let programName = settings.programName
    let bindings: KeyBindings
    do {
      bindings = try KeyBindings(settings.variables["TODO_UI_KEYS"] ?? "")
    } catch {
      context.console.errorLine("\(programName): \(error)")
      return .failure
    }
    let document: TodoDocument
    do {
      document = try TodoDocument(path: settings.todoFile, donePath: settings.doneFile, store: context.store)
    } catch {
      context.console.errorLine("\(programName): \(error)")
      return .failure
    }
    let imageProtocol: ImageProtocol
    do {
      imageProtocol = try PictureCache.imageProtocol(
        setting: settings.variables["TODO_UI_IMAGES"] ?? "", environment: launch.environment)
    } catch {
      context.console.errorLine("\(programName): TODO_UI_IMAGES: \(error)")
      return .failure
    }
    let cache = SessionCache()
    let input = ScriptedInput("")
    let session = ViewSession(
      document: document, settings: settings, today: context.today, bindings: bindings
    ) { words, shown in
      let console = CapturingConsole(isTerminal: false)
      cache.shownTasks = shown
      cache.reads.beginRound()
      let status = TodoCLI.run(
        arguments: [launch.programPath] + launch.options + words, environment: launch.environment,
        console: console, input: input, cache: cache)
      cache.shownTasks = [:]
      return CommandOutcome(
        status: status, output: String(decoding: console.output, as: UTF8.self),
        errors: String(decoding: console.errors, as: UTF8.self))
    }
    context.console.flush()
    guard let terminal = TerminalSession() else {
      context.console.errorLine("\(programName): ui needs a terminal for input and output")
      return .failure
    }
    let folders = [settings.todoFile, settings.doneFile].map { path in
      path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }
    let watch = FileWatch(folders: folders)
    session.worker = RowWorker(wakeUp: terminal.wakeUp.write)
    let pictures = PictureCache(
      renderer: ImageRenderer(
        imageProtocol: imageProtocol,
        symbolColors: settings.isPlain ? .none : SymbolColors.detect(environment: launch.environment)),
      document: document)
    var renderer = ScreenRenderer(settings: settings, today: context.today)
    renderer.picture = { pictures.outcome(path: $0, columns: $1, rows: $2) }
    var loop = Loop(terminal: terminal, session: session, watch: watch, renderer: renderer, pictures: pictures)
    loop.run(launch: launch)
    terminal.leave()
    return .success
  }

  /// The state of the loop: what is on screen, the keys half read.
  struct Loop {
    let terminal: TerminalSession
    let session: ViewSession
    let watch: FileWatch
    var renderer: ScreenRenderer
    let pictures: PictureCache
    var decoder = KeyDecoder()
    var shown: Frame?
    var size = (columns: 80, rows: 24)
    var lastStatusCheck = 0.0

    init(terminal: TerminalSession, session: ViewSession, watch: FileWatch, renderer: ScreenRenderer, pictures: PictureCache) {
      self.pictures = pictures
      self.terminal = terminal
      self.session = session
      self.watch = watch
      self.renderer = renderer
      size = terminal.size
    }

    mutating func run(launch: ShellLaunch) {
      draw()
      while !session.isFinished {
        var fds = [
          pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
          pollfd(fd: terminal.wakeUp.read, events: Int16(POLLIN), revents: 0),
          pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        // A lone ESC is the Escape key when nothing follows it within 30 ms; without inotify
        // the files' status is read every half second.
        let timeout: Int32 = decoder.hasPendingInput ? 30 : 500
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0 {
          if errno == EINTR { continue }
          break
        }
        var changed = false
        if fds[1].revents != 0, terminal.drainWakeUp() {
          // A resize, or rows made off the loop.
          if let (request, rows) = session.worker?.take() {
            session.receive(rows, for: request)
          }
          let newSize = terminal.size
          if newSize != size { shown = nil }
          size = newSize
          changed = true
        }
        if fds[2].revents != 0 {
          watch.drain()
          changed = session.reloadFromDisk() || changed
        } else if watch.descriptor < 0, now() - lastStatusCheck > 0.5 {
          lastStatusCheck = now()
          if session.document.changedOnDisk { changed = session.reloadFromDisk() || changed }
        }
        var keys: [Key] = []
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          guard let bytes = terminal.read() else { break }
          keys = decoder.feed(bytes)
        } else if ready == 0, decoder.hasPendingInput {
          keys = decoder.flushPendingEscape()
        }
        for key in keys {
          session.pageHeight = ScreenRenderer.listHeight(session, width: size.columns, height: size.rows)
          session.handle(key, time: now())
          changed = true
          if let suspension = session.suspension {
            suspend(suspension, launch: launch)
          }
          if session.isFinished { break }
        }
        if changed, !session.isFinished { draw() }
      }
    }

    /// Gives the terminal to a command (an editor, an opener, a line typed after `:`) and
    /// takes it back.
    mutating func suspend(_ suspension: ViewSession.Suspension, launch: ShellLaunch) {
      terminal.leave()
      var outcome: CommandOutcome?
      switch suspension {
      case .run(let words, let shown):
        let cache = SessionCache()
        cache.shownTasks = shown
        let status = TodoCLI.run(
          arguments: [launch.programPath] + launch.options + words, environment: launch.environment,
          console: launch.context.console, input: launch.context.input, cache: cache)
        launch.context.console.flush()
        if status != .success { waitForKey() }
        outcome = CommandOutcome(status: status, output: "", errors: status == .success ? "" : "\(words[0]) failed")
      case .commandLine(let line):
        let shell = REPLSession(
          launch: launch, reader: BatchLineReader(input: ScriptedInput("")), interactive: false, cache: SessionCache())
        _ = shell.handle(line)
        launch.context.console.flush()
        waitForKey()
        outcome = CommandOutcome(status: shell.failed ? .failure : .success, output: "", errors: shell.failed ? "the command failed" : "")
      case .stop:
        // Raw mode turned Ctrl-Z into a key; the terminal is given back first, so the shell
        // the view stops in is usable. Without job control the kernel discards the signal and
        // the view simply comes back. A stop signal the view was started with blocked (a
        // parent's mask is inherited) would wait unseen: it is let through first.
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &stop, nil)
        raise(SIGTSTP)
      }
      terminal.enter()
      shown = nil
      size = terminal.size
      session.resume(after: outcome)
    }

    /// "Press a key": the person reads what a command printed before the view comes back.
    func waitForKey() {
      terminal.write(Array("\n[press Enter to return to the view] ".utf8))
      var cooked = termios()
      tcgetattr(terminal.input, &cooked)
      var raw = cooked
      raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
      tcsetattr(terminal.input, TCSANOW, &raw)
      var byte: UInt8 = 0
      while Glibc.read(terminal.input, &byte, 1) == 1, byte != 0x0A, byte != 0x0D, byte != 0x71 {}
      tcsetattr(terminal.input, TCSANOW, &cooked)
    }

    /// Writes the rows that differ from the screen, and the cursor.
    mutating func draw() {
      session.pageHeight = ScreenRenderer.listHeight(session, width: size.columns, height: size.rows)
      let frame = renderer.render(session, width: size.columns, height: size.rows)
      var out: [UInt8] = Array("\u{1B}[?25l".utf8)
      // A picture drawn by the terminal (kitty, sixel) is not text the rows overwrite: a
      // new one, or none, takes the old one off first.
      if let old = shown?.picture, old != frame.picture {
        if pictures.renderer.imageProtocol == .kitty { out += Array(KittyGraphics.delete(.visibleAndData).utf8) }
        shown = nil
      }
      if shown == nil { out += Array("\u{1B}[2J".utf8) }
      for (row, line) in frame.lines.enumerated() where shown?.lines.indices.contains(row) != true || shown!.lines[row] != line {
        out += Array("\u{1B}[\(row + 1);1H\u{1B}[2K".utf8) + line
      }
      if let picture = frame.picture, picture != shown?.picture,
        let sequence = pictures.escapeSequence(path: picture.path, columns: picture.columns, rows: picture.rows)
      {
        out += Array("\u{1B}[\(picture.row);\(picture.column)H".utf8) + sequence
      }
      if let cursor = frame.cursor { out += Array("\u{1B}[\(cursor.row);\(cursor.column)H\u{1B}[?25h".utf8) }
      terminal.write(out)
      shown = frame
      session.drew()
    }

    func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
  }
}

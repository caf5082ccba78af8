import CalDAVSync
import Glibc

/// `todo-caldav`: the helper `todo caldav` runs, with the network libraries `todo` leaves out.
@main
struct Entrypoint {
  static func main() {
    let variables = CalDAVTool.processEnvironment()
    let tool = CalDAVTool(
      environment: variables, connector: ClientConnector(variables: variables),
      output: { print($0) }, errors: { CalDAVTool.writeError($0) }, showsProgress: isatty(2) == 1)
    exit(tool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
  }
}

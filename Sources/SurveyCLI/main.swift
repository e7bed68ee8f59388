import Foundation
import SurveyPluginLoader

/// `survey`: a thin shell over SurveyRendering and SurveyBuiltins.
let commands: [any Command.Type] = [
    RunCommand.self, TestCommand.self, ValidateCommand.self, LintCommand.self, GraphCommand.self, TypesCommand.self,
    ResponsesCommand.self, SimulateCommand.self, PathsCommand.self, CoverageCommand.self, ImportCommand.self,
    DeliverCommand.self, ReportCommand.self, ServeCommand.self, EligibleCommand.self, AuditCommand.self,
    PluginNewCommand.self, PluginCheckCommand.self,
]

/// The commands of two words (`plugin new`): the first word groups them.
let commandGroups = Set(
    commands.compactMap {
        $0.spec.name.split(separator: " ").count > 1 ? String($0.spec.name.split(separator: " ")[0]) : nil
    })

let overview = """
    survey — take, test and check surveys.

    Usage: survey <command> [options]

    Commands:
    \(commands.map { CommandSpec.row($0.spec.name, $0.spec.summary) }.joined())
    Run 'survey <command> --help' for a command's options.
    Exit codes: 0 success, 1 input problem or failed expectation, 2 wrong usage (eligible: 3 skip).
    """

@MainActor
func main(_ arguments: [String]) -> ExitCode {
    guard let name = arguments.first else {
        Console.error(overview)
        return .usage
    }
    if name == "--help" || name == "-h" || name == "help" {
        let wanted = arguments.dropFirst().prefix(2).joined(separator: " ")
        if name == "help", arguments.count > 1,
            let command = commands.first(where: { $0.spec.name == wanted || $0.spec.name == arguments[1] })
        {
            Console.out(command.spec.help)
        } else {
            Console.line(overview)
        }
        return .success
    }
    // Hidden: the child process of --isolate-plugins (docs/plugin-abi.md, "Isolated plugins").
    if name == "plugin-host" {
        return ExitCode(rawValue: PluginHostServer.serve(files: Array(arguments.dropFirst()))) ?? .failure
    }
    // A group's subcommand: `survey plugin new …`.
    var words = 1
    if commandGroups.contains(name) {
        let group = commands.filter { $0.spec.name.hasPrefix(name + " ") }
        let subcommands = group.map { String($0.spec.name.dropFirst(name.count + 1)) }
        let listing = group.map { CommandSpec.row($0.spec.name, $0.spec.summary) }.joined()
        if arguments.count > 1, arguments[1] == "--help" || arguments[1] == "-h" {
            Console.out("Usage: survey \(name) <\(subcommands.joined(separator: "|"))> [options]\n\n" + listing)
            return .success
        }
        guard arguments.count > 1, subcommands.contains(arguments[1]) else {
            let given = arguments.count > 1 ? "unknown subcommand '\(arguments[1])'" : "missing subcommand"
            Console.error("survey \(name): \(given); one of: \(subcommands.joined(separator: ", "))\n\n" + listing)
            return .usage
        }
        words = 2
    }
    let fullName = arguments.prefix(words).joined(separator: " ")
    guard let command = commands.first(where: { $0.spec.name == fullName }) else {
        Console.error("survey: unknown command '\(name)'\n\n" + overview)
        return .usage
    }
    let context = CommandContext(environment: ProcessInfo.processInfo.environment)
    do {
        let parsed = try command.spec.parse(Array(arguments.dropFirst(words)))
        if parsed.wantsHelp {
            Console.out(command.spec.help)
            return .success
        }
        return try command.run(parsed, context: context)
    } catch let error as UsageError {
        Console.error(
            "survey \(command.spec.name): \(error.message)\nRun 'survey \(command.spec.name) --help' for usage.")
        return .usage
    } catch let error as InputError {
        Console.error(error.description)
        return .failure
    } catch {
        Console.error("survey \(command.spec.name): \(error)")
        return .failure
    }
}

exit(main(Array(CommandLine.arguments.dropFirst())).rawValue)

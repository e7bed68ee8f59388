/// A small command-line parser: named options (`--name value`, `--name=value`, repeatable or not),
/// flags, positional arguments, `--` to end options, and `--help`/`-h`.
struct CommandSpec {
    /// One option or flag.
    struct Option {
        var name: String
        /// `nil` for a flag.
        var valueName: String?
        var help: String
        var isRepeatable = false
    }

    var name: String
    var summary: String
    var usage: String
    var positionalHelp: [(String, String)]
    var options: [Option]
    var minimumPositionals: Int
    var maximumPositionals: Int?
    var discussion: String = ""

    /// The `--help` text.
    var help: String {
        var text = "\(summary)\n\nUsage: survey \(usage)\n"
        if !positionalHelp.isEmpty {
            text += "\nArguments:\n"
            for (name, help) in positionalHelp { text += Self.row(name, help) }
        }
        text += "\nOptions:\n"
        for option in options {
            let head = option.name + (option.valueName.map { " " + $0 } ?? "")
            text += Self.row(head, option.help + (option.isRepeatable ? " (repeatable)" : ""))
        }
        text += Self.row("-h, --help", "Show this help.")
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }

    static func row(_ head: String, _ help: String) -> String {
        let padded = head.count < 24 ? head + String(repeating: " ", count: 24 - head.count) : head + "  "
        return "  " + padded + help + "\n"
    }

    /// Parses `arguments` (without the command name).
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        for option in options { parsed.declared[option.name] = option }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                let known = options.map(\.name)
                let hint =
                    known.first { $0.hasPrefix(name) || name.hasPrefix($0) }.map { " (did you mean \($0)?)" } ?? ""
                throw UsageError("unknown option '\(name)'\(hint)", command: self.name)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError("\(name) takes no value", command: self.name) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("\(name) needs a value (\(valueName))", command: self.name)
                }
                value = arguments[index]
                index += 1
            }
            if !option.isRepeatable, parsed.values[name] != nil {
                throw UsageError("\(name) is given more than once", command: self.name)
            }
            parsed.values[name, default: []].append(value)
        }
        guard !parsed.wantsHelp else { return parsed }
        if parsed.positionals.count < minimumPositionals {
            let missing = positionalHelp.dropFirst(parsed.positionals.count).first?.0 ?? "an argument"
            throw UsageError("missing \(missing)", command: self.name)
        }
        if let maximum = maximumPositionals, parsed.positionals.count > maximum {
            throw UsageError("unexpected argument '\(parsed.positionals[maximum])'", command: self.name)
        }
        return parsed
    }
}

/// The result of parsing.
///
/// Options are read by the constants that declare them (`arguments.value(storeOption)`,
/// `arguments.flag(Options.quiet)`), never by a name written again, so a misspelt option does not
/// compile. Reading an option the command's spec does not declare (which would always read as
/// absent), or a flag as a value, is a programming error: it stops a debug build, which the tests
/// run.
struct ParsedArguments {
    /// The options of the spec that parsed these arguments, by name.
    var declared: [String: CommandSpec.Option] = [:]
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// The last value of an option.
    func value(_ option: CommandSpec.Option) -> String? {
        check(option, isFlag: false)
        return values[option.name]?.last
    }

    /// Every value of a repeatable option.
    func all(_ option: CommandSpec.Option) -> [String] {
        check(option, isFlag: false)
        return values[option.name] ?? []
    }

    /// Whether a flag is given.
    func flag(_ option: CommandSpec.Option) -> Bool {
        check(option, isFlag: true)
        return flags.contains(option.name)
    }

    /// Whether the command declares `option`.
    func declares(_ option: CommandSpec.Option) -> Bool { declared[option.name] != nil }

    /// The last value of an option that only some of the commands calling a shared helper declare
    /// (`nil` for the others): the one deliberate way to read an option a command may not declare.
    func value(ifDeclared option: CommandSpec.Option) -> String? { declares(option) ? value(option) : nil }

    /// Whether a flag is given, for a flag that only some of the commands calling a shared helper declare.
    func flag(ifDeclared option: CommandSpec.Option) -> Bool { declares(option) && flag(option) }

    private func check(_ option: CommandSpec.Option, isFlag: Bool) {
        assert(declares(option), "the command reads \(option.name), which its spec does not declare")
        assert(
            (declared[option.name]?.valueName == nil) == isFlag,
            "the command reads \(option.name) as a \(isFlag ? "flag" : "value"), which its spec declares otherwise")
    }
}

/// Wrong use of the command line: exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var description: String { message }
}

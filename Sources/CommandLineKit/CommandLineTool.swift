import Foundation
import ParleyBasics

/// Parses a command line against a tree of `Command`s and runs the chosen one.
///
/// Syntax: subcommands by name, then positional arguments, flags (`--json`), options with a value
/// (`--seed 42` or `--seed=42`, or `-s 42` with a short name, or an alias such as `--folder` for `--saves`), and
/// `--` to end options. `--help` or `-h` anywhere shows the help of the command named so far. Options belong to the
/// command named just before them. The value of an option or a positional argument declared with a type is checked
/// as it is parsed.
///
/// Exit codes: whatever the handler returns (0 or 1 by convention), 0 for help, 64 for a usage mistake (a bad
/// value included), which is printed on standard error with the usage line and a did-you-mean hint for misspelt
/// options and subcommands.
///
/// ```swift
/// CommandLineTool(root: root).main()   // parses CommandLine.arguments, runs, exits
/// ```
public struct CommandLineTool: Sendable {
    /// The top command; its name is the program's name.
    public var root: Command

    /// A tool for a command tree.
    ///
    /// - Parameter root: The top command.
    public init(root: Command) {
        self.root = root
    }

    // MARK: - Parsing

    /// Parses arguments (without the program name).
    ///
    /// - Parameter arguments: The command line after the program's name, like `["content", "check", "--json"]`.
    /// - Returns: The command to run with its values, a help request, or a usage error.
    public func parse(_ arguments: [String]) -> ParseOutcome {
        var command = root
        var path = [root.name]
        var parsed = ParsedArguments()
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        func fail(_ message: String, hint: String? = nil) -> ParseOutcome {
            .usageError(UsageError(message, hint: hint), command: command, path: path)
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded, argument == "--help" || argument == "-h" {
                return .help(command: command, path: path)
            }
            if !optionsEnded, argument.hasPrefix("-"), argument.count > 1 {
                let isLong = argument.hasPrefix("--")
                let body = argument.dropFirst(isLong ? 2 : 1)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                let found =
                    isLong ? command.option(named: name) : (name.count == 1 ? command.option(short: name.first!) : nil)
                guard let option = found else {
                    let names = command.options.flatMap { ([$0.name] + $0.aliases).map { "--\($0)" } } + ["--help"]
                    let hint = Suggestions.didYouMean("--" + name, in: names, quotes: .single)
                    return fail("unknown option '\(isLong ? "--" : "-")\(name)'", hint: hint)
                }
                if option.isFlag {
                    if inline != nil { return fail("the flag '--\(option.name)' takes no value") }
                    parsed.setFlag(option.name)
                    continue
                }
                let text: String
                if let inline {
                    text = inline
                } else if index < arguments.count {
                    text = arguments[index]
                    index += 1
                } else {
                    return fail(
                        "the option '--\(option.name)' needs a value", hint: "--\(option.name) \(option.valueName!)")
                }
                if let check = option.check, !check.accepts(text) {
                    return .usageError(
                        check.error(option: (isLong ? "--" : "-") + name, text: text), command: command, path: path)
                }
                parsed.append(text, for: option.name)
                continue
            }
            if positionals.isEmpty, !command.subcommands.isEmpty {
                if let subcommand = command.subcommand(named: argument) {
                    command = subcommand
                    path.append(subcommand.name)
                    continue
                }
                if command.arguments.isEmpty {
                    let hint = Suggestions.didYouMean(argument, in: command.subcommands.map(\.name), quotes: .single)
                    return fail("unknown command '\(argument)'", hint: hint)
                }
            }
            positionals.append(argument)
        }

        if command.handler == nil {
            let names = command.subcommands.map(\.name).joined(separator: ", ")
            return fail("missing a subcommand", hint: "one of: \(names)")
        }
        var remaining = positionals[...]
        for declared in command.arguments {
            let given = declared.isRepeating ? Array(remaining) : remaining.popFirst().map { [$0] } ?? []
            if declared.isRepeating { remaining = [] }
            for value in given {
                if let check = declared.check, !check.accepts(value) {
                    return .usageError(check.error(argument: declared.name, text: value), command: command, path: path)
                }
                parsed.append(value, for: declared.name)
            }
            guard given.isEmpty, !declared.isRepeating else { continue }
            // A typed argument's default is applied when it is read, as a typed option's is.
            if declared.check == nil, let value = declared.defaultValue {
                parsed.setDefault(value, for: declared.name)
            } else if !declared.isOptional {
                return fail("missing argument \(declared.name)")
            }
        }
        if let extra = remaining.first { return fail("unexpected argument '\(extra)'") }
        // A typed option's default is applied when it is read, after its environment variable.
        for option in command.options where option.check == nil {
            if let value = option.defaultValue { parsed.setDefault(value, for: option.name) }
        }
        return .run(command: command, path: path, arguments: parsed)
    }

    // MARK: - Running

    /// Parses and runs a command line, writing to the given outputs.
    ///
    /// - Parameters:
    ///   - arguments: The command line after the program's name.
    ///   - environment: Environment variables for the handler.
    ///   - standardOutput: Writes text to standard output.
    ///   - standardError: Writes text to standard error.
    /// - Returns: The exit code.
    public func run(
        _ arguments: [String], environment: [String: String] = [:],
        standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void
    ) async -> ExitCode {
        switch parse(arguments) {
        case .help(let command, let path):
            standardOutput(command.help(path: path))
            return .success
        case .usageError(let error, let command, let path):
            standardError(Self.usageErrorText(error, command: command, path: path))
            return .usage
        case .run(let command, let path, let parsed):
            let context = CommandContext(
                arguments: parsed, commandPath: path, environment: environment, standardOutput: standardOutput,
                standardError: standardError)
            do {
                return try await command.handler!(context)
            } catch let error as UsageError {
                standardError(Self.usageErrorText(error, command: command, path: path))
                return .usage
            } catch {
                standardError("error: \(error)\n")
                return .failure
            }
        }
    }

    /// Parses `CommandLine.arguments`, runs the command with the process's environment, standard output and
    /// standard error, and exits with its code.
    public func main() async -> Never {
        let code = await run(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) })
        exit(code.rawValue)
    }

    /// `error: ...`, the usage line, and where to find help.
    static func usageErrorText(_ error: UsageError, command: Command, path: [String]) -> String {
        "error: \(error)\nusage: \(command.usageLine(path: path))\nSee '\(path.joined(separator: " ")) --help'.\n"
    }
}

// MARK: - Generated help

extension Command {
    /// `parley content check [DIR] [--json]`, or `parley content <subcommand>` for a group.
    ///
    /// - Parameter path: The command's full name.
    /// - Returns: The usage line.
    public func usageLine(path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if !subcommands.isEmpty { parts.append(handler == nil ? "<subcommand>" : "[<subcommand>]") }
        parts += arguments.map(\.usage)
        parts += options.map { "[\($0.usage)]" }
        return parts.joined(separator: " ")
    }

    /// The command's help: overview, usage, arguments, options and subcommands.
    ///
    /// - Parameter path: The command's full name.
    /// - Returns: The help text, ending with a newline.
    public func help(path: [String]) -> String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usageLine(path: path))\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                let suffix = argument.defaultValue.map { " (default: \($0))" } ?? ""
                text += Self.row(argument.name, argument.help + suffix)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options { text += Self.row(option.helpLabel, option.help + Self.notes(option)) }
        text += Self.row("-h, --help", "Show help information.")
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for subcommand in subcommands { text += Self.row(subcommand.name, subcommand.abstract) }
            text += "\nSee '\(path.joined(separator: " ")) <subcommand> --help' for a subcommand's help.\n"
        }
        return text
    }

    /// What help adds to an option's line: ` (alias: --folder; default: $PARLEY_SAVES if set, else SaveGames)`,
    /// ` (default: 7)`, or nothing.
    private static func notes(_ option: Option) -> String {
        var notes: [String] = []
        if !option.aliases.isEmpty {
            notes.append(
                (option.aliases.count == 1 ? "alias: " : "aliases: ")
                    + option.aliases.map { "--\($0)" }.joined(separator: ", "))
        }
        switch (option.environment, option.defaultValue) {
        case (let variable?, let value?): notes.append("default: $\(variable) if set, else \(value)")
        case (let variable?, nil): notes.append("default: $\(variable) if set")
        case (nil, let value?): notes.append("default: \(value)")
        case (nil, nil): break
        }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
    }

    /// A help row: the label in a 24-column field, then the text (on the next line if the label is longer).
    private static func row(_ label: String, _ text: String) -> String {
        let indent = "  "
        let width = 24
        if label.count + indent.count < width {
            return indent + label + String(repeating: " ", count: width - indent.count - label.count) + text + "\n"
        }
        return indent + label + "\n" + String(repeating: " ", count: width) + text + "\n"
    }
}

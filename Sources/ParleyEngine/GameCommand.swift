import Foundation
import GameWorld
import LanguageModels

/// What the player asked for, parsed from a line they typed.
///
/// ```swift
/// GameCommand.parse("go north", talking: false)      // .go("north")
/// GameCommand.parse("n", talking: false)             // .go("north")
/// GameCommand.parse("how much?", talking: true)      // .say("how much?")
/// GameCommand.parse("go on then", talking: true)     // .say("go on then"): speech wins while talking
/// GameCommand.parse("/go north", talking: true)      // .go("north"): a / line is always a command
/// ```
public enum GameCommand: Sendable, Equatable {
    /// Describe the place.
    case look
    /// `examine <thing>` (`x`, `look at`, `inspect`): describe an NPC here, or an item here or carried.
    case examine(String)
    /// Walk through an exit.
    case go(String)
    /// Pick up an item lying here.
    case take(String)
    /// Put down an item.
    case drop(String)
    /// Hand an item to the NPC you are talking to (or the one named).
    case give(item: String, to: String?)
    /// List what the player carries.
    case inventory
    /// Start talking to an NPC here.
    case talk(String)
    /// Say something to the NPC you are talking to.
    case say(String)
    /// List the offers waiting for an answer.
    case offers
    /// Accept the pending offer.
    case accept
    /// Decline the pending offer.
    case decline
    /// End the conversation.
    case bye
    /// Show this conversation so far.
    case history
    /// Report the NPC's last reply as wrong, with what the player expected.
    case report(expected: String?, category: LanguageModelFeedback.Issue.Category)
    /// Save the game to a slot (the autosave slot's sibling `save1`... when none is given), with a label.
    case save(slot: String?, label: String?)
    /// Load a saved game.
    case load(String)
    /// List the saved games.
    case saves
    /// Re-read the content pack from disk, keeping the game's state and conversations.
    case reload
    /// Show the commands.
    case help
    /// Leave the game.
    case quit
    /// An empty line.
    case nothing
    /// Something the game does not understand, with a hint.
    case unknown(String, hint: String)

    /// Parses a line.
    ///
    /// Commands are the lexicon's command words (`Lexicon.CommandTable`: English `go`, `give ... to`, `talk to`,
    /// German `gehe nach`, `gib ... an`, `rede mit`), matched at the start of the line, case-insensitively, the longest
    /// first; articles (`the`, `a`; German `das`, `ein`) are left out of names, and so is a particle at the end (`up` in
    /// "pick the apple up", German `auf`). `?` is always `help`, and a line starting with `'` or `"` is said.
    ///
    /// **Speech wins while talking.** While the player talks to an NPC, a line is speech unless it is unmistakably a
    /// command: a command's word followed by what the command takes in `scope`, or by nothing for the commands that
    /// take nothing. So `go north` walks (a direction), `give bread to mira` and `give mira the bread` give (an item
    /// and an NPC here), `take apple` takes (an apple lying here), `examine lantern` describes (an item of the catalog
    /// or an NPC here), `talk to pip` turns to Pip (an NPC here), `accept`, `bye`, `look` or `i` alone run; but "go
    /// on then, I'll buy a pie", "give me two loaves", "take two loaves" (none lie here) and "look, I'll pay 5" are
    /// said to the NPC. `say "..."` is always said; `report ...` always files a report; `save` and `load` take a
    /// slot's name (not a `speaker`, `listener` or `determiners` word of the lexicon: "save me a pie" is said), and
    /// `save` a label only in quotes (`save before "before the haggle"`). A line starting with `/` (`/go north`,
    /// `/take apple`) is always read as a command, talking or not.
    ///
    /// Not talking, every command word is a command, and a line that is none gets a hint.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - talking: Whether the player is in a conversation.
    ///   - scope: What the line can command here and the lexicon of its words (`CommandScope(state:)`); the default
    ///     knows only the English lexicon.
    /// - Returns: The command.
    public static func parse(_ line: String, talking: Bool, scope: CommandScope = CommandScope()) -> GameCommand {
        let lexicon = scope.lexicon
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .nothing }
        if trimmed.hasPrefix("/") {
            let command = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else { return .unknown(trimmed, hint: lexicon.text(.hintSlash)) }
            return parse(command, talking: false, scope: scope)
        }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let lowered = words.map { $0.lowercased() }
        if lowered[0] == "'" || lowered[0] == "\"" {
            let spoken = unquote(words.dropFirst().joined(separator: " "))
            return spoken.isEmpty ? .unknown(trimmed, hint: lexicon.text(.hintSay)) : .say(spoken)
        }
        if trimmed == "?" { return .help }
        let reader = Reader(words: words, talking: talking, scope: scope, line: trimmed)
        var hint: String?
        for (table, length) in reader.commandsStarting() {
            switch reader.command(table, after: length) {
            case .command(let command): return command
            case .hint(let text): hint = hint ?? text
            case nil: continue
            }
        }
        if let direction = lexicon.direction(named: lowered.joined(separator: " ")) { return .go(direction) }
        if talking { return .say(unquote(trimmed)) }
        return .unknown(trimmed, hint: hint ?? lexicon.text(.hintUnknown))
    }

    /// What a command word and the rest of a line make: a command, a hint for a command missing what it takes (not
    /// talking), or nothing (then the next command word starting the line is tried).
    private enum Reading {
        case command(GameCommand)
        case hint(String)
    }

    /// Reads one line against the lexicon's command words and the scope.
    private struct Reader {
        /// The line's words, as typed.
        let words: [String]
        /// Whether the player talks to an NPC: then a command needs what it takes.
        let talking: Bool
        /// What the line can command, and the lexicon.
        let scope: CommandScope
        /// The whole line, trimmed.
        let line: String

        var lexicon: Lexicon { scope.lexicon }
        var free: Bool { !talking }

        /// The command tables whose words start the line, with how many words they take, longest first (then in the
        /// tables' order).
        func commandsStarting() -> [(table: Lexicon.CommandTable, length: Int)] {
            let lowered = words.map { $0.lowercased() }
            var found: [(table: Lexicon.CommandTable, length: Int)] = []
            for table in Lexicon.CommandTable.commands {
                for phrase in lexicon.commands(table) {
                    let phraseWords = phrase.split(separator: " ").map(String.init)
                    if !phraseWords.isEmpty, lowered.starts(with: phraseWords),
                        !found.contains(where: { $0.table == table && $0.length == phraseWords.count })
                    {
                        found.append((table, phraseWords.count))
                    }
                }
            }
            return found.enumerated().sorted { ($1.element.length, $0.offset) < ($0.element.length, $1.offset) }
                .map(\.element)
        }

        /// The words after the command's, joined as typed.
        func rest(after length: Int) -> String { words.dropFirst(length).joined(separator: " ") }

        /// A name with its leading articles and trailing particles left out.
        func name(_ text: String) -> String {
            let articles = Set(lexicon.commands(.articles))
            let particles = Set(lexicon.commands(.particles))
            var words = text.split(separator: " ").map(String.init)
            while let first = words.first, articles.contains(first.lowercased()) { words.removeFirst() }
            while words.count > 1, let last = words.last, particles.contains(last.lowercased()) { words.removeLast() }
            return words.joined(separator: " ")
        }

        func command(_ table: Lexicon.CommandTable, after length: Int) -> Reading? {
            let rest = rest(after: length)
            let object = name(rest)
            let argumentWords = Array(words.dropFirst(length))
            switch table {
            case .say:
                let spoken = GameCommand.unquote(rest)
                return spoken.isEmpty ? .hint(lexicon.text(.hintSay)) : .command(.say(spoken))
            case .look:
                if rest.isEmpty || free { return .command(.look) }
            case .examine:
                if !object.isEmpty, free || scope.namesThing(object) { return .command(.examine(object)) }
                if free, object.isEmpty { return .hint(lexicon.text(.hintExamine)) }
            case .inventory: if rest.isEmpty { return .command(.inventory) }
            case .help: if rest.isEmpty { return .command(.help) }
            case .quit: if rest.isEmpty { return .command(.quit) }
            case .offers: if rest.isEmpty { return .command(.offers) }
            case .accept: if rest.isEmpty { return .command(.accept) }
            case .decline: if rest.isEmpty { return .command(.decline) }
            case .bye: if rest.isEmpty || free { return .command(.bye) }
            case .history: if rest.isEmpty { return .command(.history) }
            case .saves: if rest.isEmpty { return .command(.saves) }
            case .reload: if rest.isEmpty { return .command(.reload) }
            case .report: return .command(GameCommand.parseReport(rest, line: line))
            case .save:
                let slot = argumentWords.first
                let label = argumentWords.dropFirst().joined(separator: " ")
                // While talking: `save`, `save <slot>`, or `save <slot> "<label>"` with the label quoted.
                let quoted = label.isEmpty || (label.first.map { "\"“'".contains($0) } ?? false)
                if free || (slot.map(scope.isSlotName) ?? true) && quoted {
                    return .command(.save(slot: slot, label: label.isEmpty ? nil : GameCommand.unquote(label)))
                }
            case .load:
                if argumentWords.count == 1, free || scope.isSlotName(argumentWords[0]) {
                    return .command(.load(argumentWords[0]))
                }
                if free { return .hint(lexicon.text(.hintLoad)) }
            case .go:
                if object.isEmpty { return free ? .hint(lexicon.text(.hintGo)) : nil }
                if let direction = lexicon.direction(named: object) { return .command(.go(direction)) }
                if free || scope.namesDirection(object) { return .command(.go(object.lowercased())) }
            case .take:
                if object.isEmpty { return free ? .hint(lexicon.text(.hintTake)) : nil }
                if free || scope.namesItemHere(object) { return .command(.take(object)) }
            case .drop:
                if object.isEmpty { return free ? .hint(lexicon.text(.hintDrop)) : nil }
                if free || scope.namesItemCarried(object) { return .command(.drop(object)) }
            case .give: return give(argumentWords)
            case .talk:
                if !object.isEmpty, free || scope.namesNPCHere(object) { return .command(.talk(object)) }
                if free, object.isEmpty { return .hint(lexicon.text(.hintTalk)) }
            case .recipient, .articles, .particles: break
            }
            return nil
        }

        /// `give <item> to <npc>`, `give <npc> <item>`, or `give <item>` (to the NPC the player talks to).
        func give(_ arguments: [String]) -> Reading? {
            let recipients = Set(lexicon.commands(.recipient))
            if let split = arguments.firstIndex(where: { recipients.contains($0.lowercased()) }), split > 0,
                split + 1 < arguments.count
            {
                let item = name(arguments[..<split].joined(separator: " "))
                let npc = name(arguments[(split + 1)...].joined(separator: " "))
                if free || (scope.namesItem(item) && scope.namesNPCHere(npc)) {
                    return .command(.give(item: item, to: npc))
                }
                return nil
            }
            // "give mira the bread": an NPC here, then an item.
            for count in stride(from: arguments.count - 1, through: 1, by: -1) {
                let npc = name(arguments[..<count].joined(separator: " "))
                let item = name(arguments[count...].joined(separator: " "))
                if !npc.isEmpty, scope.namesNPCHere(npc), scope.namesItem(item) {
                    return .command(.give(item: item, to: npc))
                }
            }
            let object = name(arguments.joined(separator: " "))
            if !object.isEmpty, free || scope.namesItemCarried(object) { return .command(.give(item: object, to: nil)) }
            return nil
        }
    }

    /// `report [--category NAME] [what you expected]`.
    private static func parseReport(_ rest: String, line: String) -> GameCommand {
        var words = rest.split(separator: " ").map(String.init)
        var category = LanguageModelFeedback.Issue.Category.incorrect
        if let index = words.firstIndex(where: { $0 == "--category" || $0.hasPrefix("--category=") }) {
            let name: String
            if words[index].hasPrefix("--category="), let value = words[index].split(separator: "=").last {
                name = String(value)
                words.remove(at: index)
            } else if index + 1 < words.count {
                name = words[index + 1]
                words.removeSubrange(index...(index + 1))
            } else {
                name = ""
                words.remove(at: index)
            }
            guard let chosen = LanguageModelFeedback.Issue.Category.allCases.first(where: { "\($0)" == name }) else {
                let names = LanguageModelFeedback.Issue.Category.allCases.map { "\($0)" }.joined(separator: ", ")
                return .unknown(line, hint: "The category must be one of: \(names).")
            }
            category = chosen
        }
        let expected = unquote(words.joined(separator: " "))
        return .report(expected: expected.isEmpty ? nil : expected, category: category)
    }

    private static func unquote(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespaces)
        for quote in ["\"", "'", "“"] where result.hasPrefix(quote) { result.removeFirst() }
        for quote in ["\"", "'", "”"] where result.hasSuffix(quote) { result.removeLast() }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The commands, for `help`, in English (the built-in English lexicon's `help` text; a pack in another language
    /// has its own, `Lexicon.text(.help)`).
    public static var helpText: String { Lexicon.english.text(.help) }
}

import Foundation
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

    static let directions: [String: String] = [
        "n": "north", "s": "south", "e": "east", "w": "west", "u": "up", "d": "down",
        "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
    ]

    /// Parses a line.
    ///
    /// Commands are matched on their first word, case-insensitively; articles ("the", "a") are ignored in names.
    ///
    /// **Speech wins while talking.** While the player talks to an NPC, a line is speech unless it is unmistakably a
    /// command: a command's word followed by what the command takes in `scope`, or by nothing for the commands that
    /// take nothing. So `go north` walks (a direction), `give bread to mira` gives (an item and an NPC here), `take
    /// apple` takes (an apple lying here), `examine lantern` describes (an item of the catalog or an NPC here), `talk
    /// to pip` turns to Pip (an NPC here), `accept`, `bye`, `look` or `i` alone run; but "go on then, I'll buy a pie",
    /// "give me two loaves", "take two loaves" (none lie here) and "look, I'll pay 5" are said to the NPC. `say
    /// "..."` is always said; `report ...` always files a report; `save` and `load` take a slot's name (not a
    /// `speaker`, `listener` or `determiners` word of the lexicon: "save me a pie" is said), and `save` a label only in
    /// quotes (`save before "before the haggle"`). A line starting with `/` (`/go north`, `/take apple`) is always
    /// read as a command, talking or not.
    ///
    /// Not talking, every command word is a command, and a line that is none gets a hint.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - talking: Whether the player is in a conversation.
    ///   - scope: What the line can command here (`CommandScope(state:)`); the default knows only the compass.
    /// - Returns: The command.
    public static func parse(_ line: String, talking: Bool, scope: CommandScope = CommandScope()) -> GameCommand {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .nothing }
        if trimmed.hasPrefix("/") {
            let command = String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else {
                return .unknown(trimmed, hint: "Type a command after the /, for example: /go north")
            }
            return parse(command, talking: false, scope: scope)
        }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let verb = words[0].lowercased()
        let rest = words.dropFirst().joined(separator: " ")
        let object = stripArticles(rest)
        // While talking, a command needs what it takes; otherwise every command word is one.
        let free = !talking

        switch verb {
        case "say", "'", "\"":
            let spoken = unquote(rest)
            return spoken.isEmpty ? .unknown(trimmed, hint: #"Say what? For example: say "hello""#) : .say(spoken)
        case "look", "l":
            if object.lowercased().hasPrefix("at ") {
                let thing = stripArticles(String(object.dropFirst(3)))
                if !thing.isEmpty, free || scope.namesThing(thing) { return .examine(thing) }
            }
            if rest.isEmpty || free { return .look }
        case "examine", "x", "inspect":
            if !object.isEmpty, free || scope.namesThing(object) { return .examine(object) }
            if free { return .unknown(trimmed, hint: "Examine what? For example: examine lantern") }
        case "inventory", "inv", "i": if rest.isEmpty { return .inventory }
        case "help", "?", "commands": if rest.isEmpty { return .help }
        case "quit", "exit": if rest.isEmpty { return .quit }
        case "offers", "offer": if rest.isEmpty { return .offers }
        case "accept": if rest.isEmpty { return .accept }
        case "decline": if rest.isEmpty { return .decline }
        case "bye", "goodbye", "farewell", "leave": if rest.isEmpty || free { return .bye }
        case "history": if rest.isEmpty { return .history }
        case "save":
            let slot = words.dropFirst().first
            let label = words.dropFirst(2).joined(separator: " ")
            // While talking: `save`, `save <slot>`, or `save <slot> "<label>"` with the label quoted.
            let quoted = label.isEmpty || (label.first.map { "\"“'".contains($0) } ?? false)
            if free || (slot.map(scope.isSlotName) ?? true) && quoted {
                return .save(slot: slot, label: label.isEmpty ? nil : unquote(label))
            }
        case "load", "restore":
            if words.count == 2, free || scope.isSlotName(words[1]) { return .load(words[1]) }
            if free { return .unknown(trimmed, hint: "Load which save? Type saves to list them, then: load <slot>") }
        case "saves": if rest.isEmpty { return .saves }
        case "reload": if rest.isEmpty { return .reload }
        case "report": return parseReport(rest, line: trimmed)
        case "go", "walk", "move":
            if object.isEmpty, free { return .unknown(trimmed, hint: "Go where? For example: go north") }
            if !object.isEmpty, free || scope.namesDirection(object) {
                return .go(directions[object.lowercased()] ?? object.lowercased())
            }
        case "take", "get", "pick":
            let item = stripArticles(object.lowercased().hasPrefix("up ") ? String(object.dropFirst(3)) : object)
            if free {
                return item.isEmpty ? .unknown(trimmed, hint: "Take what? For example: take lantern") : .take(item)
            }
            if !item.isEmpty, scope.namesItemHere(item) { return .take(item) }
        case "drop":
            if free { return object.isEmpty ? .unknown(trimmed, hint: "Drop what?") : .drop(object) }
            if !object.isEmpty, scope.namesItemCarried(object) { return .drop(object) }
        case "give", "hand":
            if let range = object.range(of: " to ", options: .caseInsensitive) {
                let item = stripArticles(String(object[..<range.lowerBound]))
                let npc = stripArticles(String(object[range.upperBound...]))
                if free || (scope.namesItem(item) && scope.namesNPCHere(npc)) { return .give(item: item, to: npc) }
            } else if !object.isEmpty, free || scope.namesItemCarried(object) {
                return .give(item: object, to: nil)
            }
        case "talk", "speak":
            var target = object
            for prefix in ["to ", "with "] where target.lowercased().hasPrefix(prefix) {
                target = stripArticles(String(target.dropFirst(prefix.count)))
            }
            if !target.isEmpty, free || scope.namesNPCHere(target) { return .talk(target) }
            if free { return .unknown(trimmed, hint: "Talk to whom? For example: talk to mira") }
        default:
            if let direction = directions[verb] ?? (directions.values.contains(verb) ? verb : nil), rest.isEmpty {
                return .go(direction)
            }
        }
        if talking { return .say(unquote(trimmed)) }
        return .unknown(trimmed, hint: "Type help for the commands, or talk to someone to speak freely.")
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

    private static func stripArticles(_ text: String) -> String {
        var words = text.split(separator: " ").map(String.init)
        while let first = words.first, ["the", "a", "an", "some", "my"].contains(first.lowercased()) {
            words.removeFirst()
        }
        return words.joined(separator: " ")
    }

    private static func unquote(_ text: String) -> String {
        var result = text.trimmingCharacters(in: .whitespaces)
        for quote in ["\"", "'", "“"] where result.hasPrefix(quote) { result.removeFirst() }
        for quote in ["\"", "'", "”"] where result.hasSuffix(quote) { result.removeLast() }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The commands, for `help`.
    public static let helpText = """
        Commands:
          look (l)                   describe this place
          examine <thing> (x)        look closely at someone here, or an item here or carried
          go <exit> (n, s, e, w...)  walk somewhere
          take <item>, drop <item>   pick up or put down an item
          give <item> [to <npc>]     hand an item to someone
          inventory (i)              what you carry
          talk to <npc>              start a conversation; then just type what you say
          say "..."                  say something (while talking)
          /<command>                 a command even while talking (/go north, /take apple)
          offers                     offers waiting for your answer
          accept, decline            answer the pending offer
          history                    this conversation so far
          report [what you expected] report the last reply as wrong (--category tooVerbose, ...)
          bye                        end the conversation
          save [slot] [label]        save the game (the game also saves itself after every turn)
          load <slot>                load a saved game
          saves                      list the saved games
          reload                     re-read the content pack (for modders), keeping the game
          help                       this list
          quit                       leave the game
        While you talk to someone, what you type is said to them unless it is a command with what it
        needs: "go north", "give bread to mira", "take apple" (lying here), "accept". "give me two
        loaves" or "go on then" is said. Start a line with / to make it a command anyway.
        """
}

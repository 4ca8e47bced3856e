import GameWorld
import ParleyBasics
import ParleyJSON

/// One case of an evaluation corpus (`DIR/eval/*.jsonl`, one JSON object per line): what the player says to an NPC,
/// from which start, and what must follow. `parley eval` runs every case in a fresh game and reports how many
/// passed.
///
/// ```json
/// {"id": "mira-price-003", "npc": "mira", "kind": "price", "split": "tuning",
///  "start": {"gold": 30, "inventory": {"bread": 2}, "location": "market_square", "flags": ["met_mira"]},
///  "before": ["how much is the rope?", {"command": "decline"}],
///  "say": "what's the lantern going for?",
///  "expect": {"intent": "askPrice", "rule": "lantern_price", "calls": ["lookUpStock"], "noCalls": false,
///             "offer": "Brass Lantern for 25 gold", "state": ["gold = 30"],
///             "says": ["25"], "saysNot": ["lost me"]}}
/// ```
///
/// The format is documented in `docs/modding.md` ("Evaluating your NPCs") and by
/// `Content/schema/eval-case.schema.json`. A line is read by `EvalCase.read(line:file:number:)`, which reports
/// every problem as a `ContentDiagnostic`; `EvalCorpus` reads whole folders and checks the cases against a pack.
public struct EvalCase: Sendable, Equatable, Identifiable {
    /// Whether a case was looked at while tuning the model.
    public enum Split: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Looked at while tuning: the model may have been fitted to it.
        case tuning
        /// Held out from tuning: it measures sentences the model has never been fitted to.
        case heldOut

        /// `tuning` before `heldOut`.
        public static func < (lhs: Split, rhs: Split) -> Bool { lhs == .tuning && rhs == .heldOut }
    }

    /// Overrides of the player at the start of the case; `nil` members keep the pack's start.
    public struct Start: Sendable, Equatable {
        /// The player's gold.
        public var gold: Int?
        /// Everything the player carries (replacing the pack's starting inventory).
        public var inventory: Inventory?
        /// Where the player is; `nil` for the NPC's location.
        public var location: LocationID?
        /// Story flags set at the start.
        public var flags: [String]

        /// Creates a start.
        ///
        /// - Parameters:
        ///   - gold: The player's gold.
        ///   - inventory: What the player carries.
        ///   - location: Where the player is; `nil` for the NPC's location.
        ///   - flags: Story flags to set.
        public init(gold: Int? = nil, inventory: Inventory? = nil, location: LocationID? = nil, flags: [String] = []) {
            self.gold = gold
            self.inventory = inventory
            self.location = location
            self.flags = flags
        }
    }

    /// One thing done before the line under test: words said to the NPC, or a game command.
    ///
    /// In a case's file, words are a string (`"how much is the rope?"`) and a command an object
    /// (`{"command": "accept"}`). A string literal is words: `before: ["hello", .command("accept")]`.
    public enum Step: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// Words said to the NPC, as the player says them in `parley play`.
        case say(String)
        /// A line the player types in `parley play`, run as a game command (`accept`, `decline`,
        /// `give bread to mira`), even while talking: words that are no command are not said to the NPC.
        case command(String)

        /// Words said to the NPC.
        ///
        /// - Parameter value: The words.
        public init(stringLiteral value: String) { self = .say(value) }

        /// The words, quoted, or the command: `"hello"`, `accept`.
        public var description: String {
            switch self {
            case .say(let words): "\"\(words)\""
            case .command(let line): line
            }
        }
    }

    /// What must follow the case's line. Every member is optional; a case has at least one.
    public struct Expectation: Sendable, Equatable {
        /// The pending offer after the turn.
        public enum Offer: Sendable, Equatable {
            /// No offer may be pending (`"offer": null`).
            case none
            /// A pending offer's summary must contain this text.
            case containing(String)
        }

        /// How the case's line must be taken when typed as in `parley play` while talking (`"runs"`), for the
        /// `commandOrSpeech` cases: said to the NPC, or run as a game command.
        public enum Runs: Sendable, Equatable, CustomStringConvertible {
            /// `"say"`: the line is said to the NPC.
            case speech
            /// `"command"`: the line runs as a game command; with a name (`"go"`, `"give"`), as that command.
            case command(String?)

            /// The names of the game's commands, as `runs` names them.
            public static let commandNames = [
                "look", "examine", "go", "take", "drop", "give", "inventory", "talk", "offers", "accept", "decline",
                "bye", "history", "report", "save", "load", "saves", "reload", "help", "quit",
            ]

            /// `say`, `command` or the command's name.
            public var description: String {
                switch self {
                case .speech: "say"
                case .command(let name): name ?? "command"
                }
            }
        }

        /// The intent of the dialogue rule that answered (`when.intent`).
        public var intent: DialogueIntent?
        /// The id of the dialogue rule that answered.
        public var rule: String?
        /// Tools that must be called during the turn, in this order (others may come between).
        public var calls: [NPCTool]
        /// Whether no tool may be called at all.
        public var noCalls: Bool
        /// The pending offer after the turn, if checked.
        public var offer: Offer?
        /// Conditions that must hold after the turn.
        public var state: [Condition]
        /// Words or phrases the NPC's reply must contain (case-insensitive, plain text).
        public var says: [String]
        /// Words or phrases the NPC's reply must not contain (case-insensitive, plain text).
        public var saysNot: [String]
        /// How the line must be taken, when checked: with it, the line is typed as in `parley play` while talking
        /// (speech wins unless it is unmistakably a command) instead of being said.
        public var runs: Runs?

        /// Creates an expectation.
        ///
        /// - Parameters:
        ///   - intent: The answering rule's intent.
        ///   - rule: The answering rule's id.
        ///   - calls: Tools that must be called, in order.
        ///   - noCalls: Whether no tool may be called.
        ///   - offer: The pending offer after the turn.
        ///   - state: Conditions that must hold after the turn.
        ///   - says: Phrases the reply must contain.
        ///   - saysNot: Phrases the reply must not contain.
        ///   - runs: How the line must be taken: said, or run as a command.
        public init(
            intent: DialogueIntent? = nil, rule: String? = nil, calls: [NPCTool] = [], noCalls: Bool = false,
            offer: Offer? = nil, state: [Condition] = [], says: [String] = [], saysNot: [String] = [],
            runs: Runs? = nil
        ) {
            self.intent = intent
            self.rule = rule
            self.calls = calls
            self.noCalls = noCalls
            self.offer = offer
            self.state = state
            self.says = says
            self.saysNot = saysNot
            self.runs = runs
        }

        /// Whether nothing is expected at all.
        public var isEmpty: Bool {
            intent == nil && rule == nil && calls.isEmpty && !noCalls && offer == nil && state.isEmpty
                && says.isEmpty && saysNot.isEmpty && runs == nil
        }
    }

    /// The case's id, unique across the corpus.
    public var id: String
    /// The NPC spoken to.
    public var npc: NPCID
    /// A free label of what the case tests (`price`, `haggle`, `memory`...), for the report's accuracy per kind.
    public var kind: String
    /// Whether the case is for tuning or held out.
    public var split: Split
    /// The player at the start.
    public var start: Start
    /// What is done first, in order: lines said to the NPC and game commands; what follows them is not checked,
    /// but a command the game refuses fails the case.
    public var before: [Step]
    /// The line under test.
    public var say: String
    /// What must follow it.
    public var expect: Expectation
    /// The file the case was read from, as shown in messages (`Content/eval/mira.jsonl`).
    public var file: String
    /// The case's line in its file, from 1.
    public var line: Int

    /// Creates a case.
    ///
    /// - Parameters:
    ///   - id: The case's id.
    ///   - npc: The NPC spoken to.
    ///   - kind: What the case tests.
    ///   - split: Tuning or held out.
    ///   - start: The player at the start.
    ///   - before: What is done first: lines said and commands.
    ///   - say: The line under test.
    ///   - expect: What must follow.
    ///   - file: The file, as shown in messages.
    ///   - line: The line in the file.
    public init(
        id: String, npc: NPCID, kind: String, split: Split = .tuning, start: Start = Start(), before: [Step] = [],
        say: String, expect: Expectation, file: String = "", line: Int = 0
    ) {
        self.id = id
        self.npc = npc
        self.kind = kind
        self.split = split
        self.start = start
        self.before = before
        self.say = say
        self.expect = expect
        self.file = file
        self.line = line
    }

    /// `Content/eval/mira.jsonl:12`: where the case is written.
    public var location: String { "\(file):\(line)" }

    /// The members a case may have.
    static let members = ["id", "npc", "kind", "split", "start", "before", "say", "expect"]
    /// The members of `start`.
    static let startMembers = ["gold", "inventory", "location", "flags"]
    /// The members of a `before` entry written as an object.
    static let stepMembers = ["command"]
    /// The members of `expect`.
    static let expectMembers = ["intent", "rule", "calls", "noCalls", "offer", "state", "says", "saysNot", "runs"]
    /// The kind of the cases that check whether a line typed while talking is said or run as a command; such a case
    /// needs `expect.runs`.
    public static let commandOrSpeechKind = "commandOrSpeech"

    /// Whether a line of a corpus file holds no case: blank, or a `//` comment.
    ///
    /// - Parameter line: The line.
    /// - Returns: `true` when the line is skipped.
    public static func isSkipped(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0.isWhitespace }
        return trimmed.isEmpty || trimmed.hasPrefix("//")
    }

    /// Reads one line of a corpus file, reporting every problem instead of stopping at the first.
    ///
    /// Problems are diagnostics on `file:number` with the JSON path inside the line's object: a missing required
    /// member, a wrong type, an unknown intent or tool, a condition that does not parse are errors; an unknown
    /// member is a warning. Checks against a pack (unknown NPC, item, place) are `EvalCorpus`'s.
    ///
    /// - Parameters:
    ///   - line: The line's text (not blank, not a comment).
    ///   - file: The file as shown in messages.
    ///   - number: The line's number, from 1.
    /// - Returns: The case, `nil` when the line has an error, and every diagnostic.
    public static func read(
        line: String, file: String, number: Int
    ) -> (case: EvalCase?, diagnostics: [ContentDiagnostic]) {
        var reader = LineReader(file: "\(file):\(number)")
        let value = reader.parse(line)
        let read = value.flatMap { reader.evalCase($0, file: file, line: number) }
        return (reader.hasErrors ? nil : read, reader.diagnostics)
    }
}

// MARK: - Reading a line

/// Reads one corpus line into a case, collecting diagnostics.
private struct LineReader {
    let file: String
    var diagnostics: [ContentDiagnostic] = []
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    init(file: String) { self.file = file }

    mutating func error(_ path: JSONPath, _ message: String, hint: String? = nil) {
        diagnostics.append(ContentDiagnostic(.error, file: file, path: path.description, message: message, hint: hint))
    }

    mutating func warning(_ path: JSONPath, _ message: String, hint: String? = nil) {
        diagnostics.append(
            ContentDiagnostic(.warning, file: file, path: path.description, message: message, hint: hint))
    }

    mutating func parse(_ line: String) -> JSONValue? {
        do {
            return try JSONValue(parsing: line)
        } catch let problem {
            error(
                .root, "invalid JSON at column \(problem.column): \(problem.message)",
                hint: "write one case per line as a JSON object; blank lines and lines starting with // are skipped")
            return nil
        }
    }

    mutating func unknownMembers(of object: JSONObject, at path: JSONPath, known: [String]) {
        for key in object.keys where !known.contains(key) {
            let hint =
                Suggestions.didYouMean(key, in: known)
                ?? "known: \(known.joined(separator: ", "))"
            warning(path.key(key), "unknown field \"\(key)\"", hint: hint)
        }
    }

    /// A required or optional string member; reports a wrong type or an empty string.
    mutating func string(_ key: String, in object: JSONObject, at path: JSONPath, required: Bool) -> String? {
        guard let value = object[key] else {
            if required { error(path.key(key), "a case needs \"\(key)\"", hint: hint(forMissing: key)) }
            return nil
        }
        guard let text = value.stringValue else {
            error(path.key(key), "expected a string, found \(value.typeName)")
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            error(path.key(key), "must not be empty")
            return nil
        }
        return text
    }

    func hint(forMissing key: String) -> String {
        switch key {
        case "id": "give every case an id unique across the corpus, e.g. \"mira-price-003\""
        case "npc": "name the NPC's id, e.g. \"mira\""
        case "kind": "label what the case tests, e.g. \"price\""
        case "say": "write the player's line under test"
        default: "add it"
        }
    }

    /// An array of strings (a single string is an array of one when `single` is true).
    mutating func strings(
        _ key: String, in object: JSONObject, at path: JSONPath, allowsSingle: Bool = false
    )
        -> [String]
    {
        guard let value = object[key] else { return [] }
        if allowsSingle, let single = value.stringValue { return [single] }
        guard let elements = value.arrayValue else {
            error(path.key(key), "expected an array of strings, found \(value.typeName)")
            return []
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue, !text.allSatisfy(\.isWhitespace) else {
                error(
                    path.key(key).index(index),
                    element.stringValue == nil
                        ? "expected a string, found \(element.typeName)" : "must not be empty")
                continue
            }
            result.append(text)
        }
        return result
    }

    mutating func evalCase(_ value: JSONValue, file: String, line: Int) -> EvalCase? {
        guard case .object(let object) = value else {
            error(.root, "a case is a JSON object, found \(value.typeName)")
            return nil
        }
        let root = JSONPath.root
        unknownMembers(of: object, at: root, known: EvalCase.members)
        let id = string("id", in: object, at: root, required: true)
        let npc = string("npc", in: object, at: root, required: true)
        let kind = string("kind", in: object, at: root, required: true)
        let say = string("say", in: object, at: root, required: true)
        var split = EvalCase.Split.tuning
        if let text = string("split", in: object, at: root, required: false) {
            if let known = EvalCase.Split(rawValue: text) {
                split = known
            } else {
                error(
                    root.key("split"), "unknown split \"\(text)\"",
                    hint: Suggestions.didYouMean(text, in: EvalCase.Split.allCases.map(\.rawValue))
                        ?? "write \"tuning\" or \"heldOut\"")
            }
        }
        let before = steps(object["before"], at: root.key("before"))
        let start = object["start"].map { self.start($0, at: root.key("start")) } ?? EvalCase.Start()
        var expect = EvalCase.Expectation()
        if let value = object["expect"] {
            expect = expectation(value, at: root.key("expect"))
        } else {
            error(
                root.key("expect"), "a case needs \"expect\"",
                hint: "say what must follow, e.g. {\"says\": [\"25\"]} or {\"offer\": null}")
        }
        if kind == EvalCase.commandOrSpeechKind, object["expect"] != nil, expect.runs == nil {
            error(
                root.key("expect").key("runs"), "a \(EvalCase.commandOrSpeechKind) case needs \"runs\"",
                hint: "say how the line must be taken: \"say\", \"command\" or a command's name such as \"go\"")
        }
        guard let id, let npc, let kind, let say else { return nil }
        return EvalCase(
            id: id, npc: NPCID(npc), kind: kind, split: split, start: start, before: before, say: say, expect: expect,
            file: file, line: line)
    }

    /// `before`: an array whose entries are words (a string) or a command (`{"command": "accept"}`).
    mutating func steps(_ value: JSONValue?, at path: JSONPath) -> [EvalCase.Step] {
        guard let value else { return [] }
        let form = #"write words said as a string, a command as {"command": "accept"}"#
        guard let elements = value.arrayValue else {
            error(path, "expected an array, found \(value.typeName)", hint: form)
            return []
        }
        var steps: [EvalCase.Step] = []
        for (index, element) in elements.enumerated() {
            let entryPath = path.index(index)
            switch element {
            case .string(let words):
                guard !words.allSatisfy(\.isWhitespace) else {
                    error(entryPath, "must not be empty")
                    continue
                }
                steps.append(.say(words))
            case .object(let entry):
                // An entry is one command and nothing else: another member is a mistake (a typo of "command", or
                // words meant to be said), not something to skip.
                for key in entry.keys where !EvalCase.stepMembers.contains(key) {
                    error(
                        entryPath.key(key), "unknown field \"\(key)\"",
                        hint: key == "say"
                            ? "write words said as a string, not an object"
                            : Suggestions.didYouMean(key, in: EvalCase.stepMembers)
                                ?? "an entry has only \"command\"")
                }
                guard let command = entry["command"] else {
                    error(
                        entryPath.key("command"), "a command entry needs \"command\"",
                        hint: "the line the player types, e.g. {\"command\": \"accept\"}")
                    continue
                }
                guard let line = command.stringValue else {
                    error(entryPath.key("command"), "expected a string, found \(command.typeName)")
                    continue
                }
                guard !line.allSatisfy(\.isWhitespace) else {
                    error(
                        entryPath.key("command"), "must not be empty",
                        hint: "the line the player types, e.g. \"accept\" or \"give bread to mira\"")
                    continue
                }
                steps.append(.command(line))
            default:
                error(entryPath, "expected a string or an object, found \(element.typeName)", hint: form)
            }
        }
        return steps
    }

    mutating func start(_ value: JSONValue, at path: JSONPath) -> EvalCase.Start {
        guard case .object(let object) = value else {
            error(path, "expected an object, found \(value.typeName)")
            return EvalCase.Start()
        }
        unknownMembers(of: object, at: path, known: EvalCase.startMembers)
        var start = EvalCase.Start()
        if let gold = object["gold"] {
            if let amount = gold.intValue, (0...GameLimits.maximumGold).contains(amount) {
                start.gold = amount
            } else {
                error(path.key("gold"), "gold is a whole number from 0 to \(GameLimits.maximumGold)")
            }
        }
        if let location = object["location"] {
            if let id = location.stringValue, !id.isEmpty {
                start.location = LocationID(id)
            } else {
                error(path.key("location"), "a location is an id, found \(location.typeName)")
            }
        }
        start.flags = strings("flags", in: object, at: path)
        if let inventory = object["inventory"] {
            start.inventory = self.inventory(inventory, at: path.key("inventory"))
        }
        return start
    }

    /// An inventory in either form (`Inventory.read`): `{"bread": 2}` or `[{"item": "bread", "quantity": 2}]`.
    /// Its items are checked against the pack by `EvalCorpus`.
    mutating func inventory(_ value: JSONValue, at path: JSONPath) -> Inventory? {
        let read = Inventory.read(value, file: file, at: path, knownItems: nil)
        diagnostics += read.diagnostics
        return read.inventory
    }

    mutating func expectation(_ value: JSONValue, at path: JSONPath) -> EvalCase.Expectation {
        var expect = EvalCase.Expectation()
        guard case .object(let object) = value else {
            error(path, "expected an object, found \(value.typeName)")
            return expect
        }
        unknownMembers(of: object, at: path, known: EvalCase.expectMembers)
        if let text = string("intent", in: object, at: path, required: false) {
            if let intent = DialogueIntent(rawValue: text) {
                expect.intent = intent
            } else {
                error(
                    path.key("intent"), "unknown intent \"\(text)\"",
                    hint: Suggestions.didYouMean(text, in: DialogueIntent.allCases.map(\.rawValue)))
            }
        }
        expect.rule = string("rule", in: object, at: path, required: false)
        for (index, name) in strings("calls", in: object, at: path).enumerated() {
            if let tool = NPCTool(rawValue: name) {
                expect.calls.append(tool)
            } else {
                error(
                    path.key("calls").index(index), "unknown tool \"\(name)\"",
                    hint: Suggestions.didYouMean(name, in: NPCTool.allCases.map(\.rawValue))
                        ?? "the tools are " + NPCTool.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        if let noCalls = object["noCalls"] {
            if let flag = noCalls.boolValue {
                expect.noCalls = flag
                if flag, !expect.calls.isEmpty {
                    error(path.key("noCalls"), "\"noCalls\": true contradicts \"calls\"", hint: "keep one of them")
                }
            } else {
                error(path.key("noCalls"), "expected true or false, found \(noCalls.typeName)")
            }
        }
        if let offer = object["offer"] {
            if offer.isNull {
                expect.offer = EvalCase.Expectation.Offer.none
            } else if let text = offer.stringValue, !text.isEmpty {
                expect.offer = .containing(text)
            } else {
                error(
                    path.key("offer"), "expected text the offer must contain, or null for no offer",
                    hint: "e.g. \"Brass Lantern for 25 gold\"")
            }
        }
        for (index, text) in strings("state", in: object, at: path, allowsSingle: true).enumerated() {
            let statePath = object["state"]?.stringValue != nil ? path.key("state") : path.key("state").index(index)
            switch Condition.parse(text) {
            case .success(let condition): expect.state.append(condition)
            case .failure(let problem): error(statePath, "\(problem.message) in \"\(text)\"", hint: problem.hint)
            }
        }
        expect.says = strings("says", in: object, at: path, allowsSingle: true)
        expect.saysNot = strings("saysNot", in: object, at: path, allowsSingle: true)
        if let text = string("runs", in: object, at: path, required: false) {
            let names = EvalCase.Expectation.Runs.commandNames
            switch text {
            case "say": expect.runs = .speech
            case "command": expect.runs = .command(nil)
            case _ where names.contains(text): expect.runs = .command(text)
            default:
                error(
                    path.key("runs"), "unknown way to take a line \"\(text)\"",
                    hint: Suggestions.didYouMean(text, in: ["say", "command"] + names)
                        ?? "write \"say\", \"command\" or a command's name: " + names.joined(separator: ", "))
            }
        }
        if object.isEmpty {
            error(
                path, "expect at least one thing",
                hint: "any of " + EvalCase.expectMembers.joined(separator: ", "))
        }
        return expect
    }
}

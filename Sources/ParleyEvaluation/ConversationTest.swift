import ContentPacks
import Foundation
import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyJSON

/// A conversation test plan from a content pack's `tests/` folder: lines the player types, and what must follow.
///
/// ```json
/// {
///   "name": "Mira haggles over the lantern",
///   "player": {"gold": 30},
///   "steps": [
///     {"do": "talk to mira", "says": "friend"},
///     {"do": "how much is the lantern?", "calls": ["lookUpStock"], "saysExactly": "The Brass Lantern? 25 gold, friend."},
///     {"do": "would you take 20?", "offer": "Brass Lantern for 20 gold"},
///     {"do": "accept", "state": ["has lantern", "gold = 10"]}
///   ]
/// }
/// ```
///
/// Wording checks (`says`, `saysExactly`) apply to the scripted model, which is deterministic; with any other model
/// only the checks on state, tool calls, offers, refusals and feedback apply. See `docs/modding.md`.
public struct ConversationTest: Sendable, Equatable {
    /// One line and its expectations.
    public struct Step: Sendable, Equatable {
        /// What the player types.
        public var input: String
        /// A regular expression the NPC's words must match.
        public var says: String?
        /// The NPC's exact words (re-recorded by `parley test --record`).
        public var saysExactly: String?
        /// Tools the NPC must call during the step.
        public var calls: [String]
        /// Text the pending offer must contain after the step; `""` for "no offer may be pending".
        public var offer: String?
        /// Conditions (the content's expression form) that must hold after the step.
        public var state: [Condition]
        /// How many offers the game must refuse during the step.
        public var refused: Int?
        /// How many feedback reports the game must file during the step.
        public var feedback: Int?
        /// The game's answers to its actions (`actions.json`) the NPC takes during the step, by action id; an action
        /// without one goes unanswered.
        public var answers: [GameActionID: GameActionAnswer] = [:]
        /// The step's JSON path, for messages.
        public var path: String
    }

    /// The plan's name.
    public var name: String
    /// The file it came from, as given.
    public var file: String
    /// Overrides of the player at the start: name, gold, location, inventory.
    public var player: JSONObject
    /// The steps, in order.
    public var steps: [Step]
    /// The plan's JSON as read, for re-recording.
    public var source: JSONValue

    /// A problem in a test plan file: `file: JSON path: problem`.
    public struct PlanError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file.
        public var file: String
        /// The JSON path.
        public var path: String
        /// What is wrong.
        public var problem: String
        /// `tests/mira.json: $.steps[2].state[0]: ...`.
        public var description: String { "\(file): \(path): \(problem)" }
    }

    /// Where a plan writes the player's inventory, in either form (`Inventory.read`).
    static let inventoryPath = "$.player.inventory"

    /// The folder of a pack that holds its plans.
    public static let folderName = "tests"

    /// The names of a pack's plan files: the `.json` files in its `tests/` folder, sorted.
    ///
    /// - Parameters:
    ///   - pack: The pack's directory.
    ///   - displayPath: How messages name the pack's directory, as the user typed it.
    /// - Returns: The file names (`mira.json`); empty when the pack has no `tests/` folder.
    /// - Throws: `PlanError` on the folder when it is not a folder (a FIFO, a symbolic link loop...) or cannot be
    ///   listed: an unreadable folder is an error, never an empty one.
    public static func planFiles(in pack: URL, displayPath: String) throws(PlanError) -> [String] {
        let folder = pack.appendingPathComponent(folderName)
        guard ContentFile.exists(at: folder) else { return [] }
        do {
            return try ContentFile.entries(of: folder).filter { $0.hasSuffix(".json") }
        } catch {
            throw PlanError(
                file: "\(displayPath)/\(folderName)", path: "$", problem: "\(error.problem) (\(error.hint))")
        }
    }

    /// Reads a plan from its file. Only a plain file is read (`ContentFile`): a FIFO, a device or a symbolic link
    /// loop is an error naming what it is, never a hang.
    ///
    /// - Parameters:
    ///   - url: The plan's file.
    ///   - file: The file's name as shown in messages.
    /// - Throws: `PlanError` naming the JSON path and the problem, or `$` and why the file cannot be read.
    public init(contentsOf url: URL, file: String) throws(PlanError) {
        let bytes: [UInt8]
        do {
            bytes = try ContentFile.read(at: url)
        } catch {
            throw PlanError(file: file, path: "$", problem: "\(error.problem) (\(error.hint))")
        }
        try self.init(json: bytes, file: file)
    }

    /// Reads a plan.
    ///
    /// - Parameters:
    ///   - text: The file's JSON text.
    ///   - file: The file's name as shown in messages.
    /// - Throws: `PlanError` naming the JSON path and the problem.
    public init(json text: String, file: String) throws(PlanError) {
        try self.init(json: Array(text.utf8), file: file)
    }

    /// Reads a plan from the file's bytes.
    init(json bytes: [UInt8], file: String) throws(PlanError) {
        func fail(_ path: String, _ problem: String) -> PlanError {
            PlanError(file: file, path: path, problem: problem)
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw fail("$", "not JSON: \(error)")
        }
        guard case .object(let root) = value else { throw fail("$", "a test plan is a JSON object") }
        guard let name = root["name"]?.stringValue, !name.isEmpty else { throw fail("$.name", "a plan needs a name") }
        guard let stepValues = root["steps"]?.arrayValue, !stepValues.isEmpty else {
            throw fail("$.steps", "a plan needs at least one step")
        }
        if let inventory = root["player"]?["inventory"],
            let problem = Inventory.read(inventory, file: file, path: Self.inventoryPath).diagnostics.first
        {
            throw PlanError(problem)
        }
        let known: Set<String> = [
            "do", "says", "saysExactly", "calls", "offer", "state", "refused", "feedback", "answers",
        ]
        var steps: [Step] = []
        for (index, stepValue) in stepValues.enumerated() {
            let path = "$.steps[\(index)]"
            guard case .object(let step) = stepValue else { throw fail(path, "a step is a JSON object") }
            guard let input = step["do"]?.stringValue else {
                throw fail(path + ".do", "a step needs \"do\": the line the player types")
            }
            if let unknown = step.keys.first(where: { !known.contains($0) }) {
                throw fail(path + ".\(unknown)", "unknown field (known: \(known.sorted().joined(separator: ", ")))")
            }
            if let pattern = step["says"]?.stringValue, (try? NSRegularExpression(pattern: pattern)) == nil {
                throw fail(path + ".says", "\"\(pattern)\" is not a regular expression")
            }
            var conditions: [Condition] = []
            let stateValues = step["state"].map { $0.arrayValue ?? [$0] } ?? []
            for (position, expression) in stateValues.enumerated() {
                guard let text = expression.stringValue else {
                    throw fail(path + ".state[\(position)]", "a condition is a string")
                }
                switch Condition.parse(text) {
                case .success(let condition): conditions.append(condition)
                case .failure(let error): throw fail(path + ".state[\(position)]", "\(error)")
                }
            }
            func count(_ key: String) throws(PlanError) -> Int? {
                guard let member = step[key] else { return nil }
                guard let number = member.intValue, number >= 0 else {
                    throw fail(path + ".\(key)", "must be a whole number")
                }
                return number
            }
            var answers: [GameActionID: GameActionAnswer] = [:]
            if let value = step["answers"] {
                guard case .object(let byAction) = value else {
                    throw fail(path + ".answers", "expected an object: each action's answer by its id")
                }
                for (action, answer) in byAction {
                    let answerPath = path + ".answers.\(action)"
                    switch (answer["output"], answer["error"], answer.objectValue?.count) {
                    case (let output?, nil, 1): answers[GameActionID(action)] = .output(output)
                    case (nil, .string(let error)?, 1): answers[GameActionID(action)] = .error(error)
                    default:
                        throw fail(answerPath, "an answer is {\"output\": ANY} or {\"error\": \"...\"}")
                    }
                }
            }
            var read = Step(
                input: input, says: step["says"]?.stringValue, saysExactly: step["saysExactly"]?.stringValue,
                calls: step["calls"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                offer: step["offer"].map { $0.isNull ? "" : ($0.stringValue ?? "") }, state: conditions,
                refused: try count("refused"), feedback: try count("feedback"), path: path)
            read.answers = answers
            steps.append(read)
        }
        self.init(
            name: name, file: file, player: root["player"]?.objectValue ?? JSONObject(), steps: steps, source: value)
    }

    init(name: String, file: String, player: JSONObject, steps: [Step], source: JSONValue) {
        self.name = name
        self.file = file
        self.player = player
        self.steps = steps
        self.source = source
    }

    /// The plan's starting state: the pack's, with the plan's player overrides.
    /// What in the plan does not fit the pack: a start at an unknown place, unknown items, and conditions that
    /// name items, places, quests or stages the pack does not have (each with the name it probably meant).
    ///
    /// - Parameter pack: The pack the plan runs against.
    /// - Returns: The problems, in file order; empty when the plan fits.
    public func problems(in pack: ContentPack) -> [PlanError] {
        let world = pack.initialState.world
        var problems: [PlanError] = []
        func unknown(_ kind: String, _ name: String, among names: some Sequence<String>, at path: String) {
            let guess = Suggestions.didYouMean(name, in: names).map { " (\($0))" } ?? ""
            problems.append(PlanError(file: file, path: path, problem: "unknown \(kind) \"\(name)\"\(guess)"))
        }
        let items = world.items.keys.map(\.rawValue)
        let locations = world.locations.keys.map(\.rawValue)
        if let location = player["location"] {
            if let name = location.stringValue {
                if world.locations[LocationID(name)] == nil {
                    unknown("location", name, among: locations, at: "$.player.location")
                }
            } else {
                problems.append(PlanError(file: file, path: "$.player.location", problem: "a location is an id"))
            }
        }
        if let gold = player["gold"], !(0...GameLimits.maximumGold).contains(gold.intValue ?? -1) {
            problems.append(
                PlanError(
                    file: file, path: "$.player.gold",
                    problem: "gold is a whole number from 0 to \(GameLimits.maximumGold)"))
        }
        if let inventory = player["inventory"] {
            let read = Inventory.read(
                inventory, file: file, path: Self.inventoryPath, knownItems: Set(world.items.keys))
            problems += read.diagnostics.map(PlanError.init)
        }
        for step in steps {
            for action in step.answers.keys.sorted() where world.actions[action] == nil {
                unknown(
                    "action", action.rawValue, among: world.actions.keys.map(\.rawValue), at: step.path + ".answers")
            }
            for (position, condition) in step.state.enumerated() {
                let path = "\(step.path).state[\(position)]"
                for term in condition.terms {
                    switch term {
                    case .has(let item, _) where world.items[item] == nil:
                        unknown("item", item.rawValue, among: items, at: path)
                    case .location(let location) where world.locations[location] == nil:
                        unknown("location", location.rawValue, among: locations, at: path)
                    case .quest(let quest, _, let stage):
                        if let known = world.quests[quest] {
                            if !known.stages.contains(stage) {
                                unknown("stage of \(quest)", stage, among: known.stages, at: path)
                            }
                        } else {
                            unknown("quest", quest.rawValue, among: world.quests.keys.map(\.rawValue), at: path)
                        }
                    default: break
                    }
                }
            }
        }
        return problems
    }

    func startingState(in pack: ContentPack) -> GameState {
        let state = pack.initialState
        var player = state.player
        if let name = self.player["name"]?.stringValue { player.name = name }
        if let gold = self.player["gold"]?.intValue { player.gold = gold }
        if let location = self.player["location"]?.stringValue { player.location = LocationID(location) }
        if let value = self.player["inventory"],
            let inventory = Inventory.read(value, file: file, path: Self.inventoryPath).inventory
        {
            player.inventory = inventory
        }
        return GameState(world: state.world, player: player, story: state.story)
    }
}

extension ConversationTest.PlanError {
    /// A problem as the content checker words it: its message, then its hint in parentheses.
    init(_ diagnostic: ContentDiagnostic) {
        self.init(
            file: diagnostic.file, path: diagnostic.path,
            problem: diagnostic.message + (diagnostic.hint.map { " (\($0))" } ?? ""))
    }
}

import ParleyJSON

/// The id of an action a game declares in its pack's `actions.json`, by the name NPCs' models call it by: `openGate`.
public typealias GameActionID = Identifier<GameAction>

/// Something the game lets NPCs do that only the game can do: open a gate, ring a bell, call the guards. A pack
/// declares its actions in `actions.json`; each reaches the NPCs it lists as a tool of their models, and dialogue rules
/// call it like the built-in NPC tools (`"calls": [{"tool": "openGate", "arguments": {}}]`).
///
/// ```json
/// {"id": "openGate", "description": "Asks the gatehouse to open the North Gate.",
///  "arguments": {"type": "object", "properties": {"gate": {"enum": ["north"]}}, "required": ["gate"]},
///  "npcs": ["oona"], "await": true, "timeoutSeconds": 5}
/// ```
///
/// Parley performs no action itself: it checks a call's arguments against `arguments` and hands the call to the game
/// (the engine's action handler, or an `action` event of `parley serve`). With `awaitsAnswer` the NPC's turn waits for
/// the game's answer for at most `timeoutSeconds`; the answer is what the NPC's model reads as the tool's output.
/// docs/modding.md describes the file.
public struct GameAction: Hashable, Sendable, Codable {
    /// The action's id, the tool's name: a letter, then letters, digits and `_` (`openGate`, `ring_bell`).
    public var id: GameActionID
    /// What the action does and when to use it, for models.
    public var description: String
    /// The JSON Schema of the call's arguments: an object schema (`{"type": "object", "properties": {…}}`).
    public var arguments: JSONValue
    /// The NPCs whose models may call it.
    public var npcs: [NPCID]
    /// Whether the NPC waits for the game's answer (`await` in the file); otherwise the game is only told.
    public var awaitsAnswer: Bool
    /// The longest the NPC waits for the game's answer, in seconds (`timeoutSeconds`).
    public var timeoutSeconds: Double

    /// The longest wait an action may declare, in seconds: the default time limit of a whole turn.
    public static let maximumTimeoutSeconds = 60.0
    /// The wait of an action that declares none, in seconds.
    public static let defaultTimeoutSeconds = 5.0
    /// The arguments' schema of an action that declares none: an object with no properties.
    public static let noArguments: JSONValue = .object(
        JSONObject([("type", .string("object")), ("properties", .object(JSONObject()))]))

    /// Creates an action.
    ///
    /// - Parameters:
    ///   - id: The action's id.
    ///   - description: What it does, for models.
    ///   - arguments: The JSON Schema of its arguments; an object with no properties by default.
    ///   - npcs: The NPCs that may call it.
    ///   - awaitsAnswer: Whether the NPC waits for the game's answer.
    ///   - timeoutSeconds: The longest wait, in seconds.
    public init(
        id: GameActionID, description: String, arguments: JSONValue = GameAction.noArguments, npcs: [NPCID],
        awaitsAnswer: Bool = false, timeoutSeconds: Double = GameAction.defaultTimeoutSeconds
    ) {
        self.id = id
        self.description = description
        self.arguments = arguments
        self.npcs = npcs
        self.awaitsAnswer = awaitsAnswer
        self.timeoutSeconds = timeoutSeconds
    }

    /// The outcomes a call of a game action can end in, for the replies of the rule that calls it.
    public static let outcomes: [DialogueOutcome] = [.answered, .failed, .unanswered, .told, .refused]

    /// The longest the NPC waits for the game's answer.
    public var timeout: Duration { .milliseconds(Int64((timeoutSeconds * 1_000).rounded())) }

    /// Whether an NPC may call the action.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: `true` when `npcs` lists it.
    public func isAvailable(to npc: NPCID) -> Bool { npcs.contains(npc) }

    /// Whether `text` is a well-formed action id: an ASCII letter, then at most 63 ASCII letters, digits and `_`
    /// (what model servers accept as a function's name).
    ///
    /// - Parameter text: The candidate id.
    /// - Returns: `true` for `openGate` or `ring_bell_2`, `false` for `open gate`, `2open` or an empty string.
    public static func isWellFormedID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }
        guard let first = bytes.first, isLetter(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
        }
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, description, arguments, npcs
        case awaitsAnswer = "await"
        case timeoutSeconds
    }

    /// Decodes an action as `actions.json` writes it; `arguments`, `await` and `timeoutSeconds` may be missing.
    ///
    /// - Throws: `DecodingError` when a required member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(GameActionID.self, forKey: .id)
        description = try container.decode(String.self, forKey: .description)
        arguments = try container.decodeIfPresent(JSONValue.self, forKey: .arguments) ?? Self.noArguments
        npcs = try container.decode([NPCID].self, forKey: .npcs)
        awaitsAnswer = try container.decodeIfPresent(Bool.self, forKey: .awaitsAnswer) ?? false
        timeoutSeconds =
            try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? Self.defaultTimeoutSeconds
    }

    /// Encodes the action as `actions.json` writes it.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(description, forKey: .description)
        try container.encode(arguments, forKey: .arguments)
        try container.encode(npcs, forKey: .npcs)
        try container.encode(awaitsAnswer, forKey: .awaitsAnswer)
        try container.encode(timeoutSeconds, forKey: .timeoutSeconds)
    }
}

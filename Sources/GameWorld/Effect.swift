import ParleyJSON

/// Something content makes happen when a beat fires or a dialogue rule answers, written as a small JSON object.
///
/// | JSON                                                      | Effect                                             |
/// |-----------------------------------------------------------|----------------------------------------------------|
/// | `{"set": "met_aurelio"}`                                  | sets a flag                                        |
/// | `{"clear": "gate_open"}`                                  | clears a flag                                      |
/// | `{"counter": "visits", "add": 1}`                         | adds to a counter (negative to count down)         |
/// | `{"counter": "visits", "set": 0}`                         | sets a counter                                     |
/// | `{"attitude": 5}`                                         | changes the NPC's attitude toward the player       |
/// | `{"quest": "locket", "stage": "found"}`                   | advances a quest to a stage (never back)           |
/// | `{"give": "brass_compass", "quantity": 1}`                | the NPC gives the player an item                   |
/// | `{"take": "moonpetal_locket", "quantity": 1}`             | the player gives the NPC an item                   |
/// | `{"giveGold": 10}`                                        | the NPC gives the player gold                      |
/// | `{"takeGold": 10}`                                        | the player gives the NPC gold                      |
/// | `{"offer": {"action": "sell", "item": "lantern", "price": 20}}` | the NPC makes a trade offer                  |
///
/// Effects never change the game themselves: each one means events (`events(for:in:)`) that go through
/// `GameState.apply(_:rules:)` like any other, so the world's rules still decide (an NPC cannot give what it does
/// not carry). An offer means no event: it is data for the engine, which puts it through its trade guard.
/// `GameState.apply(_:npc:rules:)` runs a list of effects.
///
/// An effect encodes as its JSON object, and decodes from one.
public enum Effect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `{"set": NAME}`: sets the flag.
    case setFlag(String)
    /// `{"clear": NAME}`: clears the flag.
    case clearFlag(String)
    /// `{"counter": NAME, "add": N}`: adds `amount` to the counter (clamped to `StoryState.counterRange`).
    case addToCounter(String, amount: Int)
    /// `{"counter": NAME, "set": N}`: sets the counter to `value`.
    case setCounter(String, value: Int)
    /// `{"attitude": N}`: changes the NPC's attitude toward the player by `N` (clamped to -100...100).
    case changeAttitude(by: Int)
    /// `{"quest": ID, "stage": STAGE}`: advances the quest to the stage; nothing happens if it is there or past it.
    case advanceQuest(QuestID, stage: String)
    /// `{"give": ITEM, "quantity": N}`: the NPC gives the player `quantity` of the item.
    case give(ItemID, quantity: Int)
    /// `{"take": ITEM, "quantity": N}`: the player gives the NPC `quantity` of the item.
    case take(ItemID, quantity: Int)
    /// `{"giveGold": N}`: the NPC gives the player `N` gold.
    case giveGold(Int)
    /// `{"takeGold": N}`: the player gives the NPC `N` gold.
    case takeGold(Int)
    /// `{"offer": {...}}`: the NPC makes a trade offer, which the engine checks like any other.
    case offer(OfferTerms)

    /// The names of the members that say what an effect does: exactly one per effect (`set` goes with `counter`
    /// for a counter).
    public static let kinds = [
        "set", "clear", "counter", "attitude", "quest", "give", "take", "giveGold", "takeGold", "offer",
    ]

    /// The offer the effect makes, if it is an `offer`.
    public var offerTerms: OfferTerms? {
        if case .offer(let terms) = self { return terms }
        return nil
    }

    /// The flag the effect sets, if it is a `set`.
    public var flagSet: String? {
        if case .setFlag(let name) = self { return name }
        return nil
    }

    /// The effect as written in content, compactly: `{"quest": "locket", "stage": "found"}`.
    public var description: String { jsonValue.jsonString() }

    // MARK: - Codable

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes an effect from its JSON object.
    ///
    /// - Throws: `DecodingError` when the object is not an effect.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func string(_ key: String) throws -> String { try container.decode(String.self, forKey: Key(key)) }
        func int(_ key: String) throws -> Int { try container.decode(Int.self, forKey: Key(key)) }
        func quantity() throws -> Int { try container.decodeIfPresent(Int.self, forKey: Key("quantity")) ?? 1 }
        let keys = Set(container.allKeys.map(\.stringValue))
        if keys.contains("counter") {
            let name = try string("counter")
            if keys.contains("add") {
                self = .addToCounter(name, amount: try int("add"))
            } else {
                self = .setCounter(name, value: try int("set"))
            }
        } else if keys.contains("set") {
            self = .setFlag(try string("set"))
        } else if keys.contains("clear") {
            self = .clearFlag(try string("clear"))
        } else if keys.contains("attitude") {
            self = .changeAttitude(by: try int("attitude"))
        } else if keys.contains("quest") {
            self = .advanceQuest(QuestID(try string("quest")), stage: try string("stage"))
        } else if keys.contains("give") {
            self = .give(ItemID(try string("give")), quantity: try quantity())
        } else if keys.contains("take") {
            self = .take(ItemID(try string("take")), quantity: try quantity())
        } else if keys.contains("giveGold") {
            self = .giveGold(try int("giveGold"))
        } else if keys.contains("takeGold") {
            self = .takeGold(try int("takeGold"))
        } else if keys.contains("offer") {
            self = .offer(try container.decode(OfferTerms.self, forKey: Key("offer")))
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "an effect needs one of: " + Self.kinds.joined(separator: ", ")))
        }
    }

    /// Encodes the effect as its JSON object.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .setFlag(let name): try container.encode(name, forKey: Key("set"))
        case .clearFlag(let name): try container.encode(name, forKey: Key("clear"))
        case .addToCounter(let name, let amount):
            try container.encode(name, forKey: Key("counter"))
            try container.encode(amount, forKey: Key("add"))
        case .setCounter(let name, let value):
            try container.encode(name, forKey: Key("counter"))
            try container.encode(value, forKey: Key("set"))
        case .changeAttitude(let amount): try container.encode(amount, forKey: Key("attitude"))
        case .advanceQuest(let quest, let stage):
            try container.encode(quest, forKey: Key("quest"))
            try container.encode(stage, forKey: Key("stage"))
        case .give(let item, let quantity):
            try container.encode(item, forKey: Key("give"))
            try container.encode(quantity, forKey: Key("quantity"))
        case .take(let item, let quantity):
            try container.encode(item, forKey: Key("take"))
            try container.encode(quantity, forKey: Key("quantity"))
        case .giveGold(let amount): try container.encode(amount, forKey: Key("giveGold"))
        case .takeGold(let amount): try container.encode(amount, forKey: Key("takeGold"))
        case .offer(let terms): try container.encode(terms, forKey: Key("offer"))
        }
    }

    /// The effect as its JSON object, members in the documented order.
    public var jsonValue: JSONValue {
        switch self {
        case .setFlag(let name): ["set": .string(name)]
        case .clearFlag(let name): ["clear": .string(name)]
        case .addToCounter(let name, let amount): ["counter": .string(name), "add": .integer(amount)]
        case .setCounter(let name, let value): ["counter": .string(name), "set": .integer(value)]
        case .changeAttitude(let amount): ["attitude": .integer(amount)]
        case .advanceQuest(let quest, let stage): ["quest": .string(quest.rawValue), "stage": .string(stage)]
        case .give(let item, let quantity): ["give": .string(item.rawValue), "quantity": .integer(quantity)]
        case .take(let item, let quantity): ["take": .string(item.rawValue), "quantity": .integer(quantity)]
        case .giveGold(let amount): ["giveGold": .integer(amount)]
        case .takeGold(let amount): ["takeGold": .integer(amount)]
        case .offer(let terms):
            [
                "offer": [
                    "action": .string(terms.action.rawValue), "item": .string(terms.item.rawValue),
                    "quantity": .integer(terms.quantity), "price": .integer(terms.price),
                ]
            ]
        }
    }
}

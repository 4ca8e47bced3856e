import ContentPacks
import GameWorld

/// A tiny pack written in the tests, to exercise the dialogue format feature by feature: a tinker, Tam, who trades
/// in a yard, and a mute statue without any dialogue.
enum HandBuiltPack {
    static let world = """
        {
          "id": "tiny", "title": "Tiny",
          "start": { "name": "Kit", "location": "yard", "gold": 50, "inventory": [{ "item": "kettle" }, { "item": "gem" }] },
          "locations": [{ "id": "yard", "name": "Yard", "description": "A yard." }],
          "goal": { "description": "Give the gem to Tam.", "requirements": [{ "type": "npcHasItem", "npc": "tam", "item": "gem" }] }
        }
        """
    static let items = """
        {
          "items": [
            { "id": "kettle", "name": "Copper Kettle", "aliases": ["pot"], "description": "A kettle.", "value": 10, "category": "tool" },
            { "id": "nail", "name": "Iron Nail", "description": "A nail.", "value": 1, "category": "tool" },
            { "id": "gem", "name": "Green Gem", "description": "A gem.", "value": 50, "category": "curio", "tags": ["quest"] }
          ]
        }
        """

    /// Tam's file, with `dialogue` replaced when given.
    static func tam(dialogue: String? = nil) -> String {
        """
        {
          "id": "tam", "name": "Tam the Tinker", "persona": "A tinker.", "location": "yard", "gold": 30,
          "inventory": [{ "item": "nail", "quantity": 20 }],
          "trade": { "sells": ["tool"], "buys": ["tool"], "sellMarkup": 2.0, "buyBackRate": 0.5, "minimumPriceRatio": 1.0 }\(dialogue.map { ",\n  \"dialogue\": " + $0 } ?? "")
        }
        """
    }

    static let statue = """
        { "id": "statue", "name": "Statue", "persona": "Stone.", "location": "yard" }
        """

    static let dialogue = """
        {
          "synonyms": { "weather": ["rain", "sun", "weather", "clouds"] },
          "rules": [
            { "id": "gem", "when": { "intent": "offerGift", "item": "gem" },
              "calls": [{ "tool": "acceptGift", "arguments": { "item": "{item}", "quantity": "{quantity}" } }],
              "outcomes": { "accepted": ["The {item}! You found it!"], "refused": ["Keep it, then."] } },
            { "id": "nails_by_number", "when": { "intent": "buy", "item": "nail", "number": true },
              "outcomes": { "pending": ["{quantity} nails, {price} gold. Count them."] } },
            { "id": "greet_name", "when": { "intent": "greet" }, "replies": ["Hello, {player}!"] },
            { "id": "greet_plain", "when": { "intent": "greet" }, "replies": ["Hello, stranger!"] },
            { "id": "weather", "when": { "keywords": ["@weather", "blue sky"] }, "replies": ["Weather's weather."] },
            { "id": "numbers", "when": { "number": true }, "replies": ["You said {number}."] },
            { "id": "anything", "when": {}, "replies": ["Tam shrugs."] }
          ]
        }
        """

    static func files(dialogue: String? = HandBuiltPack.dialogue) -> [String: String] {
        [
            "world.json": world, "items.json": items, "npcs/tam.json": tam(dialogue: dialogue),
            "npcs/statue.json": statue,
        ]
    }

    static func pack() throws -> ContentPack {
        try ContentPack.load(files: files(), displayPath: "Tiny").get()
    }
}

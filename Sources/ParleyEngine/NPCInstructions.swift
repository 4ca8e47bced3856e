import GameWorld
import LanguageModels
import ParleyJSON

/// The instructions an NPC's session starts with: who the NPC is, the world's rules, and the game as it is at
/// first contact.
///
/// The text is for language models; the `GameContext` structured segment carries the same facts as data, for the
/// scripted model and for anyone reading the transcript.
enum NPCInstructions {
    static func make(npc: NPC, state: GameState, hasTradeTools: Bool) -> Instructions {
        let world = state.world
        let place = world.name(of: npc.location)
        let carried = state.player.inventory.map { "\($0.quantity) × \(world.name(of: $0.item))" }
        var lines = [
            "You are \(npc.name) in \(world.title). \(npc.persona)",
            "You are at \(place). You are talking with \(state.player.name), a traveller.",
            "Stay in character and answer in one to three sentences, in your own voice.",
        ]
        if hasTradeTools {
            lines.append(
                "Prices are in gold. Check your stock with lookUpStock before you quote a price, and make every "
                    + "offer with offerTrade: the game decides whether it is allowed, and tells you why not.")
        } else {
            lines.append("You do not trade. If asked to, refuse politely.")
        }
        lines.append(
            "\(state.player.name) has \(state.player.gold) gold"
                + (carried.isEmpty ? "." : " and carries \(carried.joined(separator: ", ")).")
        )
        let context = GeneratedContent(jsonValue: [
            "npc": .string(npc.id.rawValue),
            "player": [
                "name": .string(state.player.name), "gold": .integer(state.player.gold),
                "inventory": .array(
                    state.player.inventory.map {
                        ["item": .string($0.item.rawValue), "quantity": .integer($0.quantity)]
                    }),
            ],
            "location": .string(npc.location.rawValue),
        ])
        return Instructions(segments: [
            .text(.init(content: lines.joined(separator: "\n"))),
            .structure(.init(source: "GameContext", content: context)),
        ])
    }
}

/// Something the NPC witnesses, sent to its session as a prompt: words for language models, data for programs.
struct WitnessedEvent {
    /// What a language model reads, for example `(Ada gives you the Moonpetal Locket.)`.
    var text: String
    /// The event as data, for example `{"event": "gave", "item": "moonpetal_locket", "quantity": 1}`.
    var data: JSONValue

    var prompt: Prompt {
        Prompt(segments: [
            .text(.init(content: text)),
            .structure(.init(source: "GameEvent", content: GeneratedContent(jsonValue: data))),
        ])
    }

    static func arrived(player: String) -> WitnessedEvent {
        WitnessedEvent(text: "(\(player) comes up to you.)", data: ["event": "arrived"])
    }

    static func left(player: String) -> WitnessedEvent {
        WitnessedEvent(text: "(\(player) says goodbye and turns to go.)", data: ["event": "left"])
    }

    static func gave(player: String, item: Item, quantity: Int) -> WitnessedEvent {
        WitnessedEvent(
            text: "(\(player) gives you \(quantity == 1 ? "the \(item.name)" : "\(quantity) × \(item.name)").)",
            data: ["event": "gave", "item": .string(item.id.rawValue), "quantity": .integer(quantity)])
    }

    static func offerAccepted(player: String, summary: String) -> WitnessedEvent {
        WitnessedEvent(
            text: "(\(player) accepts your offer: \(summary))",
            data: ["event": "offerAccepted", "summary": .string(summary)])
    }

    static func offerDeclined(player: String, summary: String) -> WitnessedEvent {
        WitnessedEvent(
            text: "(\(player) declines your offer: \(summary))",
            data: ["event": "offerDeclined", "summary": .string(summary)])
    }
}

import GameWorld
import LanguageModels
import NPCContract

/// The instructions an NPC's session starts with: who the NPC is, the world's rules, and the game as it is at
/// first contact.
///
/// The text is for language models; the `GameContext` structured segment (`NPCContract.GameContext`) carries the
/// same facts as data, for the scripted model and for anyone reading the transcript.
package enum NPCInstructions {
    /// The instructions for an NPC in a game state.
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - state: The game at first contact.
    ///   - hasTradeTools: Whether the NPC trades (the text then tells it how to use its trade tools).
    /// - Returns: The text, then the game context.
    package static func make(npc: NPC, state: GameState, hasTradeTools: Bool) -> Instructions {
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
                "Prices are in gold. Check your stock with \(LookUpStock.tool) before you quote a price, and make every "
                    + "offer with \(OfferTrade.tool): the game decides whether it is allowed, and tells you why not.")
        } else {
            lines.append("You do not trade. If asked to, refuse politely.")
        }
        lines.append(
            "\(state.player.name) has \(state.player.gold) gold"
                + (carried.isEmpty ? "." : " and carries \(carried.joined(separator: ", ")).")
        )
        return Instructions(segments: [
            .text(.init(content: lines.joined(separator: "\n"))),
            GameContext(npc: npc, state: state).segment,
        ])
    }
}

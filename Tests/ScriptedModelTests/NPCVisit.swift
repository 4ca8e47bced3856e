import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import ScriptedModel
import Testing

/// A visit to one NPC in a real game, for driving the scripted model the way the engine does: the engine's own NPC
/// tools (`NPCToolbox`) over a real `SharedGameState` under the standard `TradeRules`, the engine's instructions
/// with their `GameContext`, and the contract's witnessed events as prompts.
final class NPCVisit: Sendable {
    /// The NPC visited.
    let npc: NPCID
    /// The game state the tools read and change.
    let shared: SharedGameState
    /// The engine's tools for the NPC.
    let toolbox: NPCToolbox

    /// A visit to one NPC, with the player moved to the NPC.
    init(_ game: GameState, npc: NPCID) throws {
        var game = game
        let location = try #require(game.world.npcs[npc]).location
        if game.player.location != location {
            game = GameState(
                world: game.world,
                player: Player(
                    name: game.player.name, location: location, gold: game.player.gold,
                    inventory: game.player.inventory))
        }
        self.npc = npc
        shared = SharedGameState(game)
        toolbox = NPCToolbox(npc: npc, state: shared, onRefusal: { _ in })
    }

    /// The game now.
    var game: GameState { shared.game }
    /// The offer the NPC made that waits for the player's answer.
    var pending: PendingOffer? { shared.read { $0.pendingOffers[npc] } }

    /// All five NPC tools, as the engine gives them.
    var tools: [any Tool] { toolbox.tools() }

    /// The tools a guard on duty gets: none that trade.
    var guardTools: [any Tool] { tools.filter { $0.name == InspectPlayer.tool.rawValue } }

    // MARK: - Sessions

    /// A session with the NPC, its instructions the engine's: the NPC's persona and the game context now.
    func session(seed: UInt64 = 0, tools: [any Tool]? = nil) throws -> LanguageModelSession {
        let game = self.game
        let npc = try #require(game.world.npcs[self.npc])
        return LanguageModelSession(
            model: ScriptedModel(npc: npc, world: game.world, seed: seed), tools: tools ?? self.tools,
            instructions: NPCInstructions.make(npc: npc, state: game, hasTradeTools: npc.trade.trades))
    }

    /// The tool calls made in a session, in order, as `name(arguments)`.
    static func calls(in session: LanguageModelSession) -> [String] {
        session.transcript.flatMap { entry -> [String] in
            if case .toolCalls(let calls) = entry { return calls.map(\.description) }
            return []
        }
    }

    // MARK: - What the NPC witnesses

    /// The prompt of an event the NPC witnesses, as the engine words it for this player.
    func witnessing(_ event: WitnessedEvent) -> Prompt { event.prompt(player: game.player.name, in: game.world) }

    /// The player comes up to the NPC.
    var arrived: Prompt { witnessing(.arrived) }
    /// The player says goodbye.
    var left: Prompt { witnessing(.left) }

    /// The player accepts the pending offer: the trade is applied; returns the event prompt for the NPC.
    func acceptPending() throws -> Prompt {
        let pending = try #require(self.pending)
        try shared.apply(.traded(offer: pending.offer))
        shared.update { $0.pendingOffers[npc] = nil }
        return witnessing(.offerAccepted(summary: pending.summary))
    }

    /// The player declines the pending offer.
    func declinePending() throws -> Prompt {
        let pending = try #require(self.pending)
        shared.update { $0.pendingOffers[npc] = nil }
        return witnessing(.offerDeclined(summary: pending.summary))
    }

    /// The player gives the NPC an item (the `give` command): applied, then the event prompt.
    func give(_ item: ItemID, quantity: Int = 1) throws -> Prompt {
        try shared.apply(.gave(item: item, quantity: quantity, to: npc))
        return witnessing(.gave(item: item, quantity: quantity))
    }

    /// Puts an item in the player's inventory, as if found where they stand.
    func playerFinds(_ item: ItemID, quantity: Int = 1) throws {
        let rules = shared.rules
        try shared.update { contents in
            var world = contents.game.world
            var location = try #require(world.locations[contents.game.player.location])
            location.items.add(item, quantity: quantity)
            world.locations[location.id] = location
            let moved = GameState(world: world, player: contents.game.player)
            contents.game = try moved.applying(
                .tookItem(item: item, quantity: quantity, from: location.id), rules: rules)
        }
    }
}

import ContentPacks
import Foundation
import GameWorld
import Testing

/// The content packs the tests play: the shipped one, and small ones built by hand.
enum Packs {
    /// The package's root directory, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped pack, `Content/`, loaded once.
    static func shipped() throws -> ContentPack { try loaded.get() }

    private static let loaded = Result {
        try ContentPack.load(from: root.appendingPathComponent("Content"), displayPath: "Content").get()
    }
}

extension Packs {
    /// The shipped game's start, with a player of another name and purse.
    static func start(name: String = "Ada", gold: Int = 14, inventory: Inventory? = nil) throws -> GameState {
        let state = try shipped().initialState
        let player = Player(
            name: name, location: state.player.location, gold: gold, inventory: inventory ?? state.player.inventory)
        return GameState(world: state.world, player: player)
    }

    /// A visit at one of the shipped NPCs, with the player's start belongings unless `inventory` says otherwise.
    static func visit(_ npc: NPCID, name: String = "Ada", gold: Int = 14, inventory: Inventory? = nil) throws
        -> NPCVisit
    {
        try NPCVisit(start(name: name, gold: gold, inventory: inventory), npc: npc)
    }

    /// A shipped NPC's voice.
    static func voice(_ npc: NPCID) throws -> Voice {
        Voice(try #require(try shipped().world.npcs[npc]))
    }
}

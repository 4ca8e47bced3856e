import Foundation
import GameWorld
import LanguageModels
import SaveGames
import SyntheticWorlds
import Testing

/// An autosave's cost depends on what changed, not on the size of the world or of other conversations.
///
/// The test counts SQL statements and rows written, which do not depend on the machine; timings belong in the
/// benchmarks.
@Suite struct AutosaveCostTests {
    /// Saves a world in full, with `otherConversations` long conversations, then autosaves one turn: the player
    /// walks and takes what lies there, and one NPC's conversation gets a turn. Returns the autosave's summary.
    func autosaveOneTurn(in pack: ContentPack, otherConversations: Int, folder: URL) throws -> SaveWriteSummary {
        let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "cost-\(pack.world.npcs.count)")
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for index in 0..<otherConversations {
            conversations[NPCID("npc_\(index + 1)")] = SampleTranscripts.conversation("npc_\(index + 1)", turns: 20)
        }
        let talk = SampleTranscripts.conversation("npc_0", turns: 2)
        conversations["npc_0"] = talk
        try save.writeFull(SaveSnapshot(state: pack.initialState, conversations: conversations, playTime: .seconds(1)))

        // The player walks through the first exit of loc_0.
        var state = pack.initialState
        let destination = try #require(state.world.locations["loc_0"]?.exits.first?.destination)
        var events: [GameEvent] = [.moved(from: "loc_0", to: destination)]
        try state.apply(events[0])
        let gift = GameEvent.droppedItem(
            item: try #require(state.player.inventory.stacks.first?.item), quantity: 1, at: destination)
        try state.apply(gift)
        events.append(gift)
        let next = SampleTranscripts.continuing(talk, npc: "npc_0", turn: 2)
        let summary = try save.autosave(
            SaveDelta(state: state, events: events, conversations: ["npc_0": next], playTime: .seconds(2)))
        #expect(try save.load(pack: pack).state == state)
        #expect(try save.transcript(npc: "npc_0") == next)
        return summary
    }

    @Test("An autosave in a 2,000-NPC world with long conversations writes what it writes in a 10-NPC world")
    func costDoesNotGrowWithTheWorld() throws {
        let small = SyntheticWorld.generate(seed: 11, locations: 4, npcs: 10, items: 20)
        let large = SyntheticWorld.generate(seed: 11, locations: 400, npcs: 2_000, items: 500)
        try withTemporaryDirectory { folder in
            let smallCost = try autosaveOneTurn(in: small, otherConversations: 0, folder: folder)
            let largeCost = try autosaveOneTurn(in: large, otherConversations: 50, folder: folder)
            #expect(smallCost.entriesAppended == 6)
            #expect(largeCost == smallCost)
            // The delta: player row, one item row, the location's row and item row, 6 entries and their turn's
            // annotations, the conversation's count, and a little metadata; far fewer than the world's rows.
            #expect(smallCost.rowsWritten < 25)
            #expect(smallCost.statements < 40)
        }
    }
}

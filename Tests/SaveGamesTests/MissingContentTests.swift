import Foundation
import GameWorld
import LanguageModels
import SaveGames
import Testing

/// A save whose content pack changed loads what it can and reports the rest.
@Suite struct MissingContentTests {
    @Test("Removed NPCs, items and locations are left out and reported; the rest loads")
    func removedContent() throws {
        let original = SaveTestWorld.pack()
        // The player carries a lantern, Mira stands in the cellar, Oona has a conversation, Brannoc has an offer.
        var state = original.initialState
        try state.apply(.received(item: "lantern", quantity: 1, from: "mira"))
        try state.apply(.npcMoved(npc: "mira", from: "square", to: "cellar"))
        try state.apply(.droppedItem(item: "bread", quantity: 1, at: "square"))
        let offer = SavedOffer(offer: .selling("lantern", to: "brannoc", for: 8), summary: "Brannoc buys the lantern.")
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            try save.writeFull(
                SaveSnapshot(
                    state: state, conversations: ["oona": SampleTranscripts.conversation("oona")],
                    pendingOffers: ["brannoc": offer]))

            let changed = SaveTestWorld.pack(
                removingNPCs: ["oona"], removingItems: ["lantern"], removingLocations: ["cellar"],
                contentHash: ContentHash(value: 42))
            let loaded = try save.load(pack: changed)
            #expect(loaded.contentChanged)
            let missing = Set(loaded.missing.map { "\($0.kind.rawValue) \($0.id)" })
            #expect(missing == ["npc oona", "item lantern", "location cellar"])
            // Each line says what the save had there.
            let lines = loaded.missing.map(\.description)
            #expect(
                lines.contains(
                    "item \"lantern\" (1 in the player's inventory) is not in the content pack and was left out"))
            #expect(lines.contains { $0.contains("item \"lantern\" (1 carried by mira)") })
            #expect(lines.contains { $0.contains("item \"lantern\" (in the pending offer of brannoc)") })
            #expect(lines.contains { $0.contains("npc \"oona\" (at smithy with 10 gold)") })
            #expect(lines.contains { $0.contains("npc \"oona\" (a conversation of 7 entries, kept in the save)") })
            #expect(lines.contains { $0.contains("location \"cellar\" (where mira stood; mira is at square instead)") })
            #expect(
                lines.contains { $0.contains("location \"cellar\" (a location of the save, 1 × old_key lying there)") })

            // What remains is the saved state.
            #expect(loaded.state.player.inventory == [:])
            #expect(loaded.state.world.locations["square"]?.items == ["apple": 3, "bread": 1])
            #expect(loaded.state.world.npcs["mira"]?.inventory == ["bread": 5])
            #expect(loaded.state.world.npcs["mira"]?.location == "square")
            #expect(loaded.state.world.npcs["oona"] == nil)
            #expect(loaded.pendingOffers == [:])
            #expect(loaded.conversations == ["oona"])
            #expect(try save.transcript(npc: "oona") == SampleTranscripts.conversation("oona"))
        }
    }

    @Test("Content the pack added since the save keeps its initial state; a changed hash alone is reported")
    func addedContent() throws {
        let smaller = SaveTestWorld.pack(removingNPCs: ["oona"], removingLocations: ["cellar"])
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: smaller.initialState))
            let bigger = SaveTestWorld.pack(contentHash: ContentHash(value: 7))
            let loaded = try save.load(pack: bigger)
            #expect(loaded.missing == [])
            #expect(loaded.contentChanged)
            #expect(loaded.state == bigger.initialState)
        }
    }
}

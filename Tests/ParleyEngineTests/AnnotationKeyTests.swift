import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import SaveGames
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// The annotations of an NPC's conversation are written and read through `AnnotationKey`'s constants, and saved under
/// the keys docs/save-format.md lists (spelt out here, so that a constant whose raw value changed fails).
@Suite struct AnnotationKeyTests {
    /// The keys of a whole conversation's annotations, as saves keep them.
    static let conversationKeys: Set<String> = ["npc", "npc.name", "model.id", "model.version", "parley.version"]
    /// The keys of a turn's annotations, as saves keep them (`story` only once the story has something).
    static let turnKeys: Set<String> = ["player", "gold", "location", "inventory", "world", "npc"]

    @Test func whatTheGameWritesIsReadBackFromItsSaveThroughTheConstants() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let model = MockLanguageModel(id: "annotated", version: "4") { _ in .text("Good day.") }
        let host = GameHost(pack: pack, models: { _, _ in model }, store: store)
        for line in ["take apple", "talk to mira", "how much is the rope?", "save annotated"] {
            await host.perform(line) { _ in }
        }
        let live = try #require(await host.game.annotatedTranscripts["mira"])
        let saved = try #require(try store.open(slot: "annotated", access: .readOnly).transcript(npc: "mira"))
        #expect(saved.annotations == live.annotations)
        #expect(saved.turnAnnotations == live.turnAnnotations)

        // The whole conversation: what it is of.
        #expect(Set(saved.annotations.keys) == Self.conversationKeys)
        #expect(saved.annotations[.npc] == "mira")
        #expect(saved.annotations[.npcName] == "Mira Quickcoin")
        #expect(saved.annotations[.modelID] == "annotated")
        #expect(saved.annotations[.modelVersion] == "4")
        #expect(saved.annotations[.parleyVersion] == ParleyVersion.current)

        // Each turn: the game as it was when the player spoke.
        #expect(saved.turnAnnotations.count == 2)
        let state = await host.game.state
        for turn in saved.turnAnnotations.values {
            #expect(Set(turn.keys).subtracting(["story"]) == Self.turnKeys, "\(turn)")
            #expect(turn[.player] == state.player.name)
            #expect(turn[.gold] == String(state.player.gold))
            #expect(turn[.location] == "market_square")
            #expect(turn[.inventory]?.contains("1 × apple") == true, "\(turn)")
            #expect(turn[.world] == state.world.id)
            #expect(turn[.npc] == "mira")
            #expect(turn[.voicing] == nil)
        }

        // And through the annotated transcript's JSON.
        let read = try AnnotatedTranscript(json: saved.jsonString())
        #expect(read.annotations[.npcName] == "Mira Quickcoin")
        #expect(read == saved)
    }

    @Test func aTrimmedConversationsWorkingContextIsWrittenAndReadThroughTheConstants() throws {
        let model = MockLanguageModel(replies: [])
        let session = LanguageModelSession(
            model: model, tools: [],
            transcript: Transcript(entries: [
                .instructions(.init(id: "i", segments: [.text(.init(content: "You are Mira."))], toolDefinitions: [])),
                .prompt(.init(id: "p1", segments: [.text(.init(content: "Hello"))])),
                .response(.init(assetIDs: [], segments: [.text(.init(content: "Good day."))])),
                .prompt(.init(id: "p2", segments: [.text(.init(content: "A rope?"))])),
            ]))
        var conversation = NPCConversation(npc: "mira", session: session)
        conversation.trims = 2
        conversation.workingStart = 3
        conversation.summary = "They greeted each other."
        conversation.notes = "Earlier: they greeted each other."
        let written = NPCConversation.WorkingContext.annotations(of: conversation)
        #expect(
            written == [
                "context.trims": "2", "context.workingStart": "3", "context.summary": "They greeted each other.",
                "context.notes": "Earlier: they greeted each other.",
            ])
        let read = try #require(NPCConversation.WorkingContext(annotations: written, historyCount: 4))
        #expect(read.trims == 2)
        #expect(read.workingStart == 3)
        #expect(read.summary == conversation.summary)
        #expect(read.notes == conversation.notes)
        // The conversation's annotations carry them beside what the conversation is of.
        let annotated = conversation.annotated(npcName: "Mira Quickcoin")
        #expect(annotated.annotations[.contextTrims] == "2")
        #expect(Set(annotated.annotations.keys) == Self.conversationKeys.union(written.keys))
    }

    @Test func aKeyReadsAndWritesTheAnnotationUnderItsRawValue() {
        var annotations = [String: String](annotations: [.npc: "mira", .modelID: "scripted"])
        #expect(annotations == ["npc": "mira", "model.id": "scripted"])
        annotations[.modelVersion] = "7"
        #expect(annotations["model.version"] == "7")
        annotations["npc.name"] = "Mira Quickcoin"
        #expect(annotations[.npcName] == "Mira Quickcoin")
        annotations[.npc] = nil
        #expect(annotations["npc"] == nil)
        #expect(annotations[AnnotationKey(rawValue: "somethingElse")] == nil)
        #expect(TurnVoicing.annotationKey == AnnotationKey.voicing.rawValue)
    }
}

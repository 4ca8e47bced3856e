import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import ParleySpeech
import Testing

/// An NPC's `speech` block, as the content loader reads and checks it.
@Suite struct NPCSpeechLoadingTests {
    static func load(npcField field: String) -> ContentLoadResult {
        ContentPack.load(
            files: [
                "world.json":
                    #"{"id": "w", "title": "W", "start": {"name": "Ada", "location": "square"}, "locations": [{"id": "square", "name": "Square", "description": "A square."}], "goal": {"description": "Be.", "requirements": [{"type": "npcHasItem", "npc": "mira", "item": "coin"}]}}"#,
                "items.json":
                    #"{"items": [{"id": "coin", "name": "Coin", "description": "A coin.", "value": 1, "category": "curio"}]}"#,
                "npcs/mira.json":
                    #"{"id": "mira", "name": "Mira", "persona": "A merchant.", "location": "square", \#(field) "gold": 1}"#,
            ], displayPath: "Pack")
    }

    @Test(arguments: [
        (
            #""speech": {"voice": "en-gb", "pitch": 40, "rate": 160, "variant": "f3"},"#,
            NPCSpeech(voice: "en-gb", pitch: 40, rate: 160, variant: "f3")
        ),
        (#""speech": {"pitch": 0, "rate": 80},"#, NPCSpeech(pitch: 0, rate: 80)),
        (#""speech": {"pitch": 99, "rate": 450},"#, NPCSpeech(pitch: 99, rate: 450)),
        (#""speech": {},"#, NPCSpeech()),
        ("", nil),
    ])
    func aValidSpeechBlockIsRead(_ field: String, _ speech: NPCSpeech?) throws {
        let result = Self.load(npcField: field)
        let shown = result.diagnostics.map(\.description)
        #expect(result.errors.isEmpty, "\(shown)")
        let mira = try #require(result.pack?.world.npcs["mira"], "\(shown)")
        #expect(mira.speech == speech)
        #expect(mira.speechOrDefault == speech ?? NPCSpeech.default(for: "mira"))
    }

    @Test(arguments: [
        (#""speech": {"pitch": 100},"#, "Pack/npcs/mira.json: $.speech.pitch: pitch must be from 0 to 99, found 100"),
        (#""speech": {"pitch": -1},"#, "Pack/npcs/mira.json: $.speech.pitch: pitch must be from 0 to 99, found -1"),
        (#""speech": {"rate": 79},"#, "Pack/npcs/mira.json: $.speech.rate: rate must be from 80 to 450, found 79"),
        (#""speech": {"rate": 451},"#, "Pack/npcs/mira.json: $.speech.rate: rate must be from 80 to 450, found 451"),
        (
            #""speech": "en","#,
            "Pack/npcs/mira.json: $.speech: expected a speech block (an object), found string \"en\""
        ),
        (
            #""speech": {"voice": "en+f3"},"#,
            "Pack/npcs/mira.json: $.speech.voice: a speech voice must be an espeak-ng voice name"
        ),
        (
            #""speech": {"variant": "../f3"},"#,
            "Pack/npcs/mira.json: $.speech.variant: a speech variant must be an espeak-ng variant name"
        ),
    ])
    func anInvalidSpeechBlockIsAnError(_ field: String, _ diagnostic: String) {
        let result = Self.load(npcField: field)
        let shown = result.diagnostics.map(\.description)
        #expect(result.pack == nil, "\(shown)")
        #expect(shown.contains { $0.hasPrefix(diagnostic) }, "\(shown)")
    }

    @Test func anUnknownSpeechFieldIsAWarningWithAHint() throws {
        let result = Self.load(npcField: #""speech": {"voice": "en", "pich": 40},"#)
        let shown = result.diagnostics.map(\.description)
        #expect(
            shown.contains(
                #"Pack/npcs/mira.json: $.speech.pich: warning: unknown field "pich" (did you mean "pitch"?)"#),
            "\(shown)")
        #expect(result.errors.isEmpty, "\(shown)")
    }

    @Test func aSavedNPCKeepsItsSpeechAndAnOlderSaveHasNone() throws {
        let speech = NPCSpeech(voice: "de", pitch: 30, rate: 150, variant: "m2")
        let npc = NPC(id: "mira", name: "Mira", persona: "A merchant.", location: "square", speech: speech)
        var object = try #require(
            try JSONValue(parsing: String(decoding: JSONEncoder().encode(npc), as: UTF8.self)).objectValue)
        let decoded = try JSONDecoder().decode(NPC.self, from: Data(JSONValue.object(object).jsonString().utf8))
        #expect(decoded.speech == speech)
        object["speech"] = nil
        let older = try JSONDecoder().decode(NPC.self, from: Data(JSONValue.object(object).jsonString().utf8))
        #expect(older.speech == nil)
    }
}

/// The shipped packs' NPCs have voices of their own: a `speech` block each, in the pack's language, that espeak-ng
/// speaks, no two alike.
@Suite struct ShippedVoicesTests {
    /// The package's root, where `Content` and `Examples` are.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [("Content", "en"), ("Examples/Marktplatz", "de")])
    func eachNPCHasItsOwnVoiceInThePacksLanguage(_ folder: String, _ language: String) async throws {
        let result = ContentPack.load(from: Self.root.appendingPathComponent(folder), displayPath: folder)
        #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
        let pack = try #require(result.pack)
        var voices: Set<SpeechVoice> = []
        for npc in pack.world.npcs.values {
            let speech = try #require(npc.speech, "\(npc.id) has no speech block")
            let voice = try #require(speech.voice, "\(npc.id) has no voice")
            #expect(voice == language || voice.hasPrefix(language + "-"), "\(npc.id): \(voice)")
            #expect(speech.pitch != nil && speech.rate != nil && speech.variant != nil, "\(npc.id): \(speech)")
            let spoken = SpeechVoice(of: npc, in: pack.world)
            #expect(voices.insert(spoken).inserted, "\(npc.id) sounds like another NPC")
            guard ESpeakTests.enabled else { continue }
            let sample = try await ESpeakSynthesizer().synthesize("Hello there.", voice: spoken)
            #expect(sample.samples.contains { abs(Int($0)) > 1_000 }, "\(npc.id): \(spoken.espeakName) is silent")
        }
    }
}

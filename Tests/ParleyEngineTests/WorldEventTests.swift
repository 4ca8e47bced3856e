import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ParleyJSON
import SaveGames
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation
@testable import ParleyHost

/// The game tells its NPCs what happened (`WorldEvent`, `Game.tell(_:output:)`): each witness gets it in its
/// conversation, saved with it; with `react` it answers, by its dialogue rules (`"event"` kinds, keywords on the
/// event's words).
@Suite struct WorldEventTests {
    static func models() -> Game.ModelProvider { { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) } }

    static func game() throws -> Game { Game(state: try shippedPack().initialState, models: models()) }

    /// The words said, as `Name: words` lines.
    static func speech(_ screen: Screen) -> String {
        var lines: [String] = []
        for output in screen.all {
            switch output {
            case .speechBegan(let npc): lines.append("\(npc): ")
            case .speech(let words): lines[lines.count - 1] += words
            default: break
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func aWitnessReactsByTheRuleForTheEventsKindOrItsWords() async throws {
        let game = try Self.game()
        let screen = Screen()
        // Oona is at the North Gate, the player in the market square: the game decides she sees it.
        let witnesses = try await game.tell(
            WorldEvent(
                text: "The player draws a sword.", kind: "weaponDrawn", witnesses: .npcs(["oona"]), react: true),
            output: screen.record)
        #expect(witnesses == ["oona"])
        #expect(
            Self.speech(screen).hasPrefix("Sergeant Oona Vell: Rule 3, citizen: no bare steel"),
            "\(Self.speech(screen))")
        screen.clear()
        try await game.tell(
            WorldEvent(text: "Smoke pours from the smithy's roof.", witnesses: .npcs(["oona"]), react: true),
            output: screen.record)
        #expect(Self.speech(screen).contains("Rule 7"), "\(Self.speech(screen))")
        screen.clear()
        try await game.tell(
            WorldEvent(text: "A cart rolls past.", kind: "cart", witnesses: .npcs(["oona"]), react: true),
            output: screen.record)
        #expect(Self.speech(screen) == "Sergeant Oona Vell: Noted, citizen.")
        // Each event is in her conversation as a witnessed event, with its kind.
        let history = await game.history(of: "oona")
        let events = history.compactMap { entry -> WitnessedEvent? in
            if case .prompt(let prompt) = entry { prompt.witnessedEvent } else { nil }
        }
        #expect(
            events == [
                .happened(text: "The player draws a sword.", kind: "weaponDrawn"),
                .happened(text: "Smoke pours from the smithy's roof.", kind: nil),
                .happened(text: "A cart rolls past.", kind: "cart"),
            ])
        // The player talks to nobody new: the game decided who saw it.
        #expect(await game.partner == nil)
    }

    @Test func withoutReactTheEventJoinsTheConversationAndNoModelIsAsked() async throws {
        let model = MockLanguageModel { request in
            let seen = request.transcript.filter { entry in
                if case .prompt(let prompt) = entry { prompt.witnessedEvent?.kind == "bellRang" } else { false }
            }
            return .text("I heard \(seen.count) bell.")
        }
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        let witnesses = try await game.tell(
            WorldEvent(text: "The tower bell rings twice.", kind: "bellRang"), output: screen.record)
        #expect(witnesses == ["mira"])
        #expect(screen.all.isEmpty)
        #expect(model.requests.isEmpty)
        // Her next turn reads it.
        await game.perform("talk to mira", output: screen.record)
        #expect(Self.speech(screen).contains("I heard 1 bell."), "\(Self.speech(screen))")
    }

    @Test func aQuietEventIsSavedAndRecordedButNotReplayed() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let pack = try shippedPack()
        let host = GameHost(pack: pack, models: Self.models(), store: store)
        await host.begin(continuing: false) { _ in }
        try await host.tell(WorldEvent(text: "A crow lands on the gate.", witnesses: .npcs(["oona"]))) { _ in }
        try await host.tell(
            WorldEvent(text: "The player draws a sword.", kind: "weaponDrawn", witnesses: .npcs(["oona"]), react: true)
        ) { _ in }
        await host.close()
        let file = try store.open(slot: "autosave", access: .readOnly)
        defer { file.close() }
        let saved = try #require(try file.transcript(npc: "oona"))
        let prompts = saved.transcript.compactMap { entry -> Transcript.Prompt? in
            if case .prompt(let prompt) = entry { prompt } else { nil }
        }
        #expect(
            prompts.map(\.witnessedEvent?.happenedText) == ["A crow lands on the gate.", "The player draws a sword."])
        #expect(saved.turnAnnotations[prompts[0].id]?["npc"] == "oona")
        let recordings = try file.recordings().map { try TurnRecording(jsonValue: try JSONValue(parsing: $0.json)) }
        #expect(recordings.map(\.modelID).first == TurnRecording.witnessedModelID)
        #expect(recordings.count == 2)
        let report = await Replay.run(recordings, pack: pack, models: Self.models())
        #expect(report.turns.count == 1)
        #expect(report.same == 1, "\(report.turns)")
    }

    @Test func theNPCsHereWitnessByDefaultAndNobodyWhenNobodyIsHere() async throws {
        let game = try Self.game()
        #expect(try await game.tell(WorldEvent(text: "It starts to rain.")) { _ in } == ["mira"])
        try await game.apply(StatePatch(player: .init(location: "north_gate")))
        #expect(try await game.tell(WorldEvent(text: "It rains harder.")) { _ in } == ["oona"])
        try await game.apply(StatePatch(player: .init(location: "mill_cellar")))
        #expect(try await game.tell(WorldEvent(text: "Water drips.")) { _ in } == [])
    }

    @Test(arguments: [
        (
            #"{"text": "x", "witnesses": ["oona", "mria"]}"#,
            #"$.witnesses[1]: unknown NPC "mria" (did you mean "mira"?)"#
        ),
        (#"{"text": "  "}"#, "$.text: is empty: say what happened"),
        (
            #"{"text": "x", "kind": "sword drawn"}"#,
            #"$.kind: "sword drawn" is not a kind of event: a letter, then letters, digits and _ (at most 64), as dialogue rules name it ("swordDrawn")"#
        ),
        (#"{"text": "x", "witnesses": []}"#, #"$.witnesses: names no NPC: name one, or say "here""#),
        (
            #"{"text": "x", "witnesses": "everyone"}"#,
            #"$.witnesses: expected "here" or an array of NPC ids, found "everyone""#
        ),
        (#"{"text": "x", "react": "yes"}"#, "$.react: expected true or false, found string"),
        (
            #"{"txt": "x"}"#,
            #"$.txt: unknown member "txt" (did you mean "text"?); known here: text, kind, witnesses, react"#
        ),
        (
            #"{"kind": "a"}"#,
            #"$.text: missing: say what happened, in words an NPC reads ("The player draws a sword.")"#
        ),
    ])
    func aBadEventIsRefusedAtItsPath(json: String, problem: String) async throws {
        let world = try shippedPack().initialState.world
        var problems: [String] = []
        do {
            let event = try WorldEvent(json: try JSONValue(parsing: Array(json.utf8)))
            try event.check(in: world)
        } catch let error as WorldEventError {
            problems = error.problems.map(\.description)
        }
        #expect(problems.contains(problem), "\(problems)")
        // And the game refuses it without a change.
        let game = try Self.game()
        await #expect(throws: WorldEventError.self) {
            try await game.tell(WorldEvent(text: "x", witnesses: .npcs(["nobody"]))) { _ in }
        }
        #expect(await game.npcsTalkedTo.isEmpty)
    }
}

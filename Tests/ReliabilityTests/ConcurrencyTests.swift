import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import SaveGames
import ScriptedModel
import SyntheticWorlds
import Testing

/// Many NPCs answering at once: sessions, games and saves under concurrent load lose no entry, duplicate none,
/// and never mix one NPC's words into another's conversation.
@Suite struct ConcurrencyTests {
    /// A tool the mock calls on some turns, so turns interleave tool rounds too.
    struct Stock: Tool {
        let name = "lookUpStock"
        let description = "Looks up an item."
        struct Arguments: CodableGenerable {
            var item: String
            static var generationSchema: GenerationSchema {
                GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
            }
        }
        func call(arguments: Arguments) async throws -> String {
            try await Task.sleep(for: .microseconds(200))
            return "\(arguments.item): 3 gold"
        }
    }

    /// A mock that echoes the last prompt, after a tool call when the prompt asks about stock.
    static func echo(_ npc: Int) -> MockLanguageModel {
        MockLanguageModel(streamChunkSize: 3, delay: .microseconds(100)) { request in
            guard case .prompt(let prompt)? = request.transcript.last else {
                return .text("npc-\(npc) checked the stock.")
            }
            let words = prompt.segments.map(\.description).joined()
            return words.contains("stock")
                ? .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#)
                : .text("npc-\(npc) heard: \(words)")
        }
    }

    @Test func fiftySessionsAnsweringAtOnceKeepExactlyTheirOwnEntries() async throws {
        let sessions = (0..<50).map { npc in
            LanguageModelSession(model: Self.echo(npc), tools: [Stock()], instructions: "You are npc-\(npc).")
        }
        let turns = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (npc, session) in sessions.enumerated() {
                group.addTask {
                    for turn in 0..<turns {
                        let words = "npc-\(npc) turn-\(turn)" + (turn % 3 == 1 ? " stock?" : "")
                        if turn % 2 == 0 {
                            try await session.respond(to: words)
                        } else {
                            _ = try await session.streamResponse(to: words).collect()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for (npc, session) in sessions.enumerated() {
            var ids = Set<String>()
            let transcript = session.transcript
            // Instructions, then per turn a prompt and a response, plus a tool call and its output on stock turns.
            let stockTurns = (0..<turns).filter { $0 % 3 == 1 }.count
            #expect(transcript.count == 1 + 2 * turns + 2 * stockTurns, "npc-\(npc)")
            let prompts = transcript.compactMap { entry -> String? in
                if case .prompt(let prompt) = entry { prompt.segments.map(\.description).joined() } else { nil }
            }
            #expect(prompts == (0..<turns).map { "npc-\(npc) turn-\($0)" + ($0 % 3 == 1 ? " stock?" : "") })
            for entry in transcript {
                #expect(ids.insert(entry.id).inserted, "entry \(entry.id) appears twice")
                let text = entry.description
                for other in [npc - 1, npc + 1] where other >= 0 && other < sessions.count {
                    #expect(!text.contains("npc-\(other) "), "npc-\(npc)'s conversation has npc-\(other)'s words")
                }
            }
        }
    }

    @Test func twentyGamesOnTheScriptedModelPlayAtOnce() async throws {
        let pack = SyntheticWorld.generate(seed: 77, locations: 1, npcs: 20, items: 12)
        let lines = ["what do you sell?", "how much is it?", "thanks", "bye"]
        let results = try await withThrowingTaskGroup(of: (NPCID, Int, Int).self) { group in
            for npc in pack.world.npcs.values {
                group.addTask {
                    let game = Game(
                        state: pack.initialState,
                        models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 3) })
                    let screen = Screen()
                    await game.perform("talk to \(npc.id.rawValue)", output: screen.record)
                    for line in lines { await game.perform(line, output: screen.record) }
                    let transcript = try #require(await game.session(of: npc.id)).transcript
                    let prompts = transcript.filter { if case .prompt = $0 { true } else { false } }.count
                    return (npc.id, prompts, screen.problems.count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 20)
        for (npc, prompts, problems) in results {
            // The arrival, four lines (the last, bye, is witnessed as leaving).
            #expect(prompts == 1 + lines.count, "\(npc)")
            #expect(problems == 0, "\(npc)")
        }
    }

    @Test func concurrentAutosavesThroughOneSaveFileLoseAndDuplicateNothing() async throws {
        let folder = TemporaryFolder()
        let pack = SyntheticWorld.generate(seed: 5, locations: 2, npcs: 40, items: 6)
        let state = pack.initialState
        let file = try SaveGameStore(folder: folder.url).open(slot: "concurrent")
        try file.writeFull(SaveSnapshot(state: state, playTime: .zero, label: "start"))
        let npcs = state.world.npcs.keys.sorted()
        let turns = 12
        let written = try await withThrowingTaskGroup(of: (NPCID, [String]).self) { group in
            for npc in npcs {
                group.addTask {
                    var conversation = AnnotatedTranscript(
                        transcript: Transcript(entries: [
                            .instructions(
                                .init(segments: [.text(.init(content: "You are \(npc)."))], toolDefinitions: []))
                        ]),
                        annotations: ["npc": npc.rawValue])
                    for turn in 0..<turns {
                        let prompt = Transcript.Entry.prompt(
                            .init(segments: [.text(.init(content: "\(npc.rawValue) turn \(turn)"))]))
                        conversation.transcript.append(prompt)
                        conversation.transcript.append(
                            .response(.init(segments: [.text(.init(content: "\(npc.rawValue) answers \(turn)"))])))
                        conversation.turnAnnotations[prompt.id] = ["turn": String(turn)]
                        try file.autosave(
                            SaveDelta(state: state, conversations: [npc: conversation], playTime: .seconds(turn)))
                        await Task.yield()
                    }
                    return (npc, conversation.transcript.map { $0.jsonString() })
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let reopened = try SaveGameStore(folder: folder.url).open(slot: "concurrent", access: .readOnly)
        #expect(try reopened.integrityCheck() == [])
        #expect(try reopened.conversationLengths().count == npcs.count)
        for npc in npcs {
            let saved = try #require(try reopened.transcript(npc: npc))
            #expect(saved.transcript.map { $0.jsonString() } == written[npc], "\(npc)")
            #expect(saved.turnAnnotations.count == turns, "\(npc)")
        }
    }

    @Test func sixteenSessionsStreamingAtOnceFromOneServerGetTheirOwnAnswers() async throws {
        let server = try ChatServer()
        let model = try server.model()
        let sessions = (0..<16).map { LanguageModelSession(model: model, instructions: "You are npc-\($0).") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (npc, session) in sessions.enumerated() {
                group.addTask {
                    for turn in 0..<4 {
                        let reply = try await session.streamResponse(to: "npc-\(npc) says \(turn)").collect()
                        #expect(reply.content == "You said: npc-\(npc) says \(turn).")
                    }
                }
            }
            try await group.waitForAll()
        }
        for (npc, session) in sessions.enumerated() {
            let answers = session.transcript.compactMap { entry -> String? in
                if case .response(let response) = entry { response.segments.map(\.description).joined() } else { nil }
            }
            #expect(answers == (0..<4).map { "You said: npc-\(npc) says \($0)." })
        }
        #expect(server.chatRequests.count == 64)
    }
}

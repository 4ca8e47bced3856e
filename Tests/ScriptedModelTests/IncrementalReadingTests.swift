import GameWorld
import LanguageModels
import ParleyEngine
import Synchronization
import Testing

@testable import ScriptedModel

/// The scripted model reads each request's transcript incrementally (`ConversationMemory`, and its running token
/// counts): what it answers and counts must be what a model reading the whole transcript from its first entry
/// answers and counts, after every turn of a long conversation, across the trims that keep it inside a small context
/// window, and after the conversation is restored into a new game.
@Suite struct IncrementalReadingTests {
    /// A model that forwards every request to `model` (which remembers what it read) and checks the answer and the
    /// counts against a scripted model made afresh for each request, which reads everything.
    final class Checking: LanguageModel {
        let model: ScriptedModel
        let fresh: @Sendable () -> ScriptedModel
        /// Every request's prefix history, read incrementally by a memory of the test's own, against one read whole.
        let memory = ConversationMemory()
        private let log = Mutex<(requests: Int, counts: Int, mismatches: [String])>((0, 0, []))

        init(_ model: ScriptedModel, fresh: @escaping @Sendable () -> ScriptedModel) {
            self.model = model
            self.fresh = fresh
        }

        var id: String { model.id }
        var version: String { model.version }
        var capabilities: LanguageModelCapabilities { model.capabilities }
        var writesFreeText: Bool { model.writesFreeText }
        var contextSize: Int { model.contextSize }
        var requests: Int { log.withLock { $0.requests } }
        var counts: Int { log.withLock { $0.counts } }
        var mismatches: [String] { log.withLock { $0.mismatches } }

        private func note(_ mismatch: String?) {
            log.withLock { log in if let mismatch { log.mismatches.append(mismatch) } }
        }

        func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
            let counted = try await model.tokenCount(for: entries)
            let whole = try await fresh().tokenCount(for: entries)
            log.withLock { $0.counts += 1 }
            note(counted == whole ? nil : "\(entries.count) entries counted as \(counted), read whole \(whole)")
            return counted
        }

        func tokenCount(for schema: GenerationSchema) async throws -> Int { try await model.tokenCount(for: schema) }

        func generate(_ request: GenerationRequest) async throws -> Generation {
            let answer = try await model.generate(request)
            let whole = try await fresh().generate(request)
            let transcript = request.transcript
            let end = transcript.lastIndex { if case .prompt = $0 { true } else { false } } ?? transcript.endIndex
            let remembered = memory.history(of: transcript, upTo: end, resolver: ItemResolver.shared(for: model.world))
            let read = ConversationHistory(
                reading: transcript.entries[..<end], resolver: ItemResolver.shared(for: model.world))
            log.withLock { $0.requests += 1 }
            note(answer == whole ? nil : "request \(requests) of \(transcript.count) entries: \(answer) against \(whole)")
            note(remembered == read ? nil : "request \(requests): the remembered history differs from the one read whole")
            return answer
        }
    }

    /// What the player says to Mira, over and over: prices, purchases, haggling, offers taken and declined, names,
    /// questions about the past, small talk.
    static let lines = [
        "hello", "what do you sell?", "how much is the lantern?", "would you take 10 for it?", "decline",
        "how much for 2 candles?", "yes", "accept", "my name is Wren", "what's my name?", "do you have any rope?",
        "I'll buy the rope", "accept", "what did I buy from you?", "tell me about the town", "how much is bread?",
        "buy 3 bread", "decline", "what's the lantern again?", "thanks", "do you buy boots?", "bye", "talk to mira",
    ]

    @Test func answersAndCountsEqualThoseOfAModelReadingEverythingAcrossTrimsAndARestore() async throws {
        let pack = try Packs.shipped()
        let mira = try #require(pack.world.npcs["mira"])
        // A small window, so the conversation is trimmed several times (the engine writes the summary itself).
        let contextSize = 3_000
        let checking = Checking(ScriptedModel(npc: mira, world: pack.world, seed: 1, contextSize: contextSize)) {
            ScriptedModel(npc: mira, world: pack.world, seed: 1, contextSize: contextSize)
        }
        var game = Game(state: try Packs.start(gold: 10_000), models: { _, _ in checking })
        _ = await game.perform("talk to mira") { _ in }
        for round in 0..<12 {
            if round == 6 {
                // A restore: the conversation continues in a new game from its saved transcript, with the same model
                // (which still remembers the old game's requests).
                let saved = try #require(await game.annotatedTranscripts["mira"])
                let restored = RestoredConversations(npcs: ["mira"], pendingOffers: [:]) { _ in saved }
                game = Game(state: await game.state, models: { _, _ in checking }, restoring: restored)
                _ = await game.perform("talk to mira") { _ in }
            }
            for line in Self.lines { _ = await game.perform(line) { _ in } }
        }
        #expect(checking.mismatches.count == 0, "\(checking.mismatches.prefix(3))")
        // Not vacuous: many requests and counts were compared, and the conversation was trimmed.
        #expect(checking.requests > 300)
        #expect(checking.counts > 300)
        let history = try #require(await game.annotatedTranscripts["mira"]).transcript.count
        let working = try #require(await game.session(of: "mira")).transcript.count
        #expect(working < history / 2, "the working transcript was trimmed: \(working) of \(history) entries")
        // Incremental: over all requests the model read about as many entries as the conversation has (each trim
        // and the restore make it read one working transcript again), not one transcript per request.
        let read = checking.model.memory.entriesRead
        #expect(read < 4 * history, "read \(read) entries for a conversation of \(history)")
    }
}

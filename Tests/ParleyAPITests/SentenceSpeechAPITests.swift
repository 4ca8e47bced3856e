import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ScriptedModel
import Synchronization
import Testing

/// Speech sentence by sentence over HTTP: with a server model, each sentence arrives as its own SSE `speech` event,
/// the first while the model is still generating.
@Suite(.timeLimit(.minutes(10))) struct SentenceSpeechAPITests {
    /// A gate the mock voice waits at until the test, having read the first `speech` event, opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if isOpen { continuation.resume() }
            }
        }
    }

    @Test func eachSentenceIsItsOwnSpeechEventAndTheFirstComesBeforeTheModelEnds() async throws {
        let gate = Gate()
        let released = Mutex(0)
        let voice = MockLanguageModel { request in
            let asked = request.transcript.last { if case .prompt = $0 { true } else { false } }
            guard asked?.description.contains("lantern") == true else { return .text("Hello there, friend!") }
            return .deltas(["Well now, friend. T", "he Brass Lantern? ", "25 gold, friend, and cheap at that."]) {
                index in
                if index >= 1 { await gate.wait() }
                released.withLock { $0 = index + 1 }
            }
        }
        let models: Game.ModelProvider = { npc, world in
            VoicedModel(
                voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: .free,
                firstWordsDeadline: .seconds(600))
        }
        try await ActionAPITests.withFixture(models: models) { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let response = try await fixture.stream(game, "how much is the lantern?")
            var speech: [String] = []
            var releasedAtFirst: Int?
            var ended: String?
            for try await event in response.serverSentEvents {
                let json = try JSONValue(parsing: event.data)
                if event.event == "speech", let text = json["text"]?.stringValue {
                    if releasedAtFirst == nil { releasedAtFirst = released.withLock { $0 } }
                    speech.append(text)
                    gate.open()
                }
                if event.event == "speechEnded" { ended = json["text"]?.stringValue }
                if event.event == "ended" { break }
            }
            #expect(releasedAtFirst == 1)
            #expect(speech == ["Well now, friend.", " The Brass Lantern?", " 25 gold, friend, and cheap at that."])
            #expect(ended == speech.joined())
        }
    }
}

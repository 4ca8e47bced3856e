import Foundation
import GameWorld
import HTTPTestSupport
import LanguageModels
import ParleyEngine
import ParleyHost
import SaveGames
import Testing

/// The HTTP backend's faults as the player meets them: a game on a loopback server that breaks in every way a
/// real one can, mid-conversation. Every fault must end the turn with a problem that says the player's words were
/// not lost, leave the conversation (in memory and in the autosave) exactly as it was, and let the same words be
/// said again once the server is back. `Tests/OpenAICompatibleTests/ServerFaultTests.swift` checks the same faults
/// at the session level.
@Suite struct GameFaultTests {
    /// A server fault, injected into `/chat/completions`.
    enum Fault: String, CaseIterable, Sendable {
        case hangMidStream, hangBeforeAnswering, reset, emptyReply, garbage, notAStream, cutMidToken,
            endsWithoutDone, errorMidStream, rateLimited, internalError, unavailable, unauthorized

        var response: LoopbackResponse {
            let words = Array(ChatStreams.text("Fine steel, fair prices.").prefix(3))
            switch self {
            case .hangMidStream: return .eventStream(words, ending: .hang)
            case .hangBeforeAnswering: return .hang
            case .reset: return .reset
            case .emptyReply: return .close
            case .garbage: return .garbage(Data("HTTP/9 banana\r\n\r\n\u{0}\u{1}".utf8))
            case .notAStream: return .json("<html>Bad gateway</html>")
            case .cutMidToken:
                return .eventStream(words + [#"data: {"choices":[{"index":0,"delta":{"content":"pri"#], ending: .cut)
            case .endsWithoutDone: return .eventStream(words)
            case .errorMidStream:
                return .eventStream(words + [#"data: {"error":{"message":"the slot crashed"}}"# + "\n\n"])
            case .rateLimited:
                return .respond(
                    status: 429, headers: [("Retry-After", "20")],
                    body: Data(#"{"error":{"message":"slow down"}}"#.utf8))
            case .internalError: return .json(#"{"error":{"message":"out of memory"}}"#, status: 500)
            case .unavailable: return .json(#"{"error":{"message":"loading model"}}"#, status: 503)
            case .unauthorized: return .json(#"{"error":{"message":"bad key"}}"#, status: 401)
            }
        }
    }

    /// The turn time limit these tests play under: they are about faults, not time, and on a machine busy with
    /// compiles a healthy turn beside a thousand other tests can take longer than the game's 60 s.
    static let generousTurnTimeout = Duration.seconds(900)

    @Test(arguments: Fault.allCases)
    func aFaultLosesNothingAndTheSameWordsCanBeSaidAgain(_ fault: Fault) async throws {
        try await Game.$turnTimeout.withValue(Self.generousTurnTimeout) { try await play(fault) }
    }

    func play(_ fault: Fault) async throws {
        let server = try ChatServer()
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let model = try server.model(retries: 1, idle: .seconds(2))
        let host = GameHost(pack: try shippedPack(), models: { _, _ in model }, store: store)
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        let session = try #require(await host.game.session(of: "mira"))
        let before = session.transcript.map { $0.jsonString() }
        #expect(before.count == 3, "instructions, the arrival and the greeting: \(screen.text)")

        server.set(.fault(fault.response))
        screen.clear()
        let words = "how much is the lantern?"
        await host.perform(words, output: screen.record)
        #expect(screen.problems.count == 1, "\(screen.text)")
        #expect(screen.problems.first?.contains("Your words were not lost") == true, "\(screen.text)")
        #expect(session.transcript.map { $0.jsonString() } == before, "a half turn is in the transcript")
        #expect(!session.isResponding)
        if let began = screen.all.firstIndex(where: { if case .speechBegan = $0 { true } else { false } }) {
            let ended = screen.all.firstIndex(of: .speechEnded)
            #expect(ended.map { $0 > began } == true, "the speech that began was not closed: \(screen.text)")
        }
        let autosave = try store.open(slot: "autosave", access: .readOnly)
        #expect(try autosave.transcript(npc: "mira")?.transcript.map { $0.jsonString() } == before)

        // The server is back: the same words go through once, and only once.
        server.set(.echo)
        screen.clear()
        await host.perform(words, output: screen.record)
        #expect(screen.problems.isEmpty, "\(screen.text)")
        #expect(screen.speech == "You said: \(words).", "\(screen.text)")
        let after = session.transcript
        #expect(after.count == before.count + 2)
        let said = after.filter { entry in
            if case .prompt(let prompt) = entry { prompt.segments.map(\.description).joined() == words } else { false }
        }
        #expect(said.count == 1)
        let saved = try store.open(slot: "autosave", access: .readOnly).transcript(npc: "mira")
        #expect(saved?.transcript.map { $0.jsonString() } == after.map { $0.jsonString() })
    }

    @Test func aServerThatRefusesConnectionsIsReportedAndNothingIsWritten() async throws {
        try await Game.$turnTimeout.withValue(Self.generousTurnTimeout) { try await refusedConnections() }
    }

    func refusedConnections() async throws {
        let server = try ChatServer()
        let model = try server.model()
        server.server.stop()
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(pack: try shippedPack(), models: { _, _ in model }, store: store)
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        #expect(screen.problems.contains { $0.contains("Your words were not lost") }, "\(screen.text)")
        #expect(screen.problems.contains { $0.contains("scripts/llm-server start") }, "\(screen.text)")
        let session = try #require(await host.game.session(of: "mira"))
        #expect(session.transcript.count == 1, "only the instructions")
        let saved = try store.open(slot: "autosave", access: .readOnly).transcript(npc: "mira")
        #expect((saved?.transcript.count ?? 1) == 1)
    }
}

import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import ParleyJSON
import Synchronization
import Testing

/// A game's action called by a language-model server, end to end over the wire: the OpenAI-compatible backend sends
/// Oona's `openGate` as a function with the action's own JSON Schema, a loopback chat server asks for a call, the game
/// answers it, and the server's next request carries the answer as the tool's output.
@Suite struct GameActionServerTests {
    @Test func aServerModelCallsTheGamesActionAndReadsItsAnswer() async throws {
        let chat = try ChatServer(
            .script([
                ChatStreams.text("Halt. State your business, citizen."),
                ChatStreams.toolCall("openGate", arguments: #"{"gate": "north", "requestedBy": "Wren"}"#),
                ChatStreams.text("The gatehouse says the gate is open. Proceed."),
            ]))
        let model = try chat.model()
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: { _, _ in model })
        let calls = Mutex<[GameActionCall]>([])
        game.onAction { call in
            calls.withLock { $0.append(call) }
            return .output(["opened": true, "message": "The North Gate grinds open."])
        }
        let screen = Screen()
        for line in ["n", "talk to oona", "open the gate, please"] { await game.perform(line, output: screen.record) }

        #expect(screen.speech.contains("The gatehouse says the gate is open. Proceed."), "\(screen.text)")
        #expect(calls.withLock { $0.map(\.arguments) } == [["gate": "north", "requestedBy": "Wren"]])
        let requests = chat.chatRequests
        #expect(requests.count == 3)
        // The action went to the server as a function whose parameters are the action's schema, as written.
        let asked = try JSONValue(parsing: Array(try #require(requests.dropFirst().first).body))
        let function = asked["tools"]?.arrayValue?.first { $0["function"]?["name"] == "openGate" }?["function"]
        #expect(function?["parameters"] == pack.world.actions["openGate"]?.arguments)
        #expect(function?["description"] == .string(pack.world.actions["openGate"]?.description ?? ""))
        // The game's answer went back as the tool's output.
        let answered = try JSONValue(parsing: Array(try #require(requests.last).body))
        let tool = try #require(answered["messages"]?.arrayValue?.last { $0["role"] == "tool" })
        let output = try JSONValue(parsing: try #require(tool["content"]?.stringValue))
        #expect(output == ["status": "answered", "output": ["opened": true, "message": "The North Gate grinds open."]])
        let results = (await game.session(of: "oona")?.transcript ?? Transcript()).compactMap { entry in
            if case .toolOutput(let output) = entry { GameActionResult(output) } else { nil }
        }
        #expect(results.map(\.status) == [.answered])
    }
}

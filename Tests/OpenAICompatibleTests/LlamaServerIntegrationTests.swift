import Foundation
import LLMTestSupport
import LanguageModels
import ParleyJSON
import Synchronization
import Testing

@testable import OpenAICompatible

/// The backend against a real llama-server serving SmolLM2-135M-Instruct, which each test starts on a free
/// loopback port and stops. Skipped when the server is not installed, unless PARLEY_LLM_TESTS=1.
@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(10)))
struct LlamaServerIntegrationTests {
    static let greedy = GenerationOptions(sampling: .greedy, maximumResponseTokens: 24)

    func connect(
        _ server: LlamaServerProcess, contextSize: Int? = nil, cache: Bool = true
    ) async throws
        -> OpenAICompatibleLanguageModel
    {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL, apiKey: nil, contextSize: contextSize)
        if !cache { configuration.extraBody = JSONObject([("cache_prompt", false)]) }
        configuration.maximumRetries = 0
        return try await OpenAICompatibleLanguageModel.connect(configuration)
    }

    @Test func plainChat() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await connect(server)
            #expect(model.id == "SmolLM2-135M-Instruct")
            #expect(model.version.hasPrefix("SmolLM2-135M-Instruct.gguf"))
            let session = LanguageModelSession(model: model, instructions: "You are Mira, a cheerful merchant.")
            let response = try await session.respond(to: "Hello! What do you sell?", options: Self.greedy)
            // What the model says is its own business; the protocol is ours: one prompt and one response entry,
            // the model named on it, and token counts within what was asked.
            #expect(session.transcript.count == 3)
            guard case .response(let entry)? = session.transcript.last else { Issue.record("no response"); return }
            #expect(entry.assetIDs == ["\(model.id)@\(model.version)"])
            let usage = try #require(response.generationUsage)
            #expect(usage.promptTokens > 0)
            #expect((0...24).contains(usage.completionTokens))
        }
    }

    @Test func streamingEqualsNonStreamingUnderGreedySampling() async throws {
        try await LlamaServerProcess.with { server in
            // Prompt caching may change results (llama.cpp's docs say so), so this test turns it off.
            let model = try await connect(server, cache: false)
            let options = GenerationOptions(
                sampling: .random(top: 1, seed: 42), temperature: 0, maximumResponseTokens: 20)
            let whole = try await LanguageModelSession(model: model, instructions: "You are a guard.")
                .respond(to: "Who goes there?", options: options)
            var snapshots: [String] = []
            let stream = LanguageModelSession(model: model, instructions: "You are a guard.")
                .streamResponse(to: "Who goes there?", options: options)
            for try await snapshot in stream { snapshots.append(snapshot.content) }
            let streamed = try await stream.collect()
            // Under greedy sampling without the cache, the server gives the same answer either way, whatever it is;
            // each snapshot extends the one before, and the last is the answer.
            #expect(streamed.content == whole.content)
            for (a, b) in zip(snapshots, snapshots.dropFirst()) { #expect(b.hasPrefix(a)) }
            #expect((snapshots.last ?? "") == streamed.content)
        }
    }

    @Test func structuredGenerationFollowsTheSchema() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await connect(server)
            let session = LanguageModelSession(model: model, instructions: "You are a merchant.")
            let response = try await session.respond(
                to: "Offer me a lantern.", generating: Offer.self,
                options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 80))
            #expect(Offer.generationSchema.validate(response.rawContent).isEmpty)
            #expect((1...1000).contains(response.content.price))
            guard case .response(let entry)? = session.transcript.last,
                case .structure(let segment)? = entry.segments.first
            else {
                Issue.record("no structured response"); return
            }
            #expect(segment.source == "Offer")
        }
    }

    @Test func aToolRoundTripThroughConstrainedOutput() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await connect(server)
            #expect(try await model.serverInfo().supportsToolCalls == false)  // SmolLM2's template has no tools
            let tool = CountingStockTool()
            let session = LanguageModelSession(model: model, tools: [tool], instructions: "You are Mira, a merchant.")
            session.maximumToolRounds = 2
            let before = session.transcript
            let response: LanguageModelSession.Response<String>
            do {
                response = try await session.respond(
                    to: "How much is the lantern?",
                    options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
            } catch let error as LanguageModelSession.ToolRoundLimitExceeded {
                // A model that keeps calling the tool: the turn is refused whole and rolled back.
                #expect(error.limit == 2)
                #expect(session.transcript == before)
                return
            }
            let kinds = response.transcriptEntries.map { entry -> String in
                switch entry {
                case .prompt: "prompt"
                case .toolCalls(let calls): "calls:" + calls.map(\.toolName).joined()
                case .toolOutput(let output): "output:" + output.toolName
                case .response: "response"
                default: "other"
                }
            }
            // Whether the model looks the price up is its choice (ToolLoopTests and WireFormatTests drive both paths
            // with scripted replies); the protocol is ours: the turn starts with the prompt and ends with a
            // response, each tool call is answered by the tool's output right after it, and the tool ran exactly
            // as often as the transcript says it was called.
            #expect(kinds.first == "prompt")
            #expect(kinds.last == "response")
            for (index, kind) in kinds.enumerated() where kind.hasPrefix("calls:") {
                #expect(kind == "calls:lookUpStock")
                #expect(index + 1 < kinds.count && kinds[index + 1] == "output:lookUpStock", "\(kinds)")
            }
            let called = response.transcriptEntries.reduce(0) { count, entry in
                if case .toolCalls(let calls) = entry { count + calls.count } else { count }
            }
            #expect(tool.calls.count == called)
            #expect(called <= 2)
        }
    }

    @Test func aPromptLargerThanTheContextIsContextSizeExceeded() async throws {
        try await LlamaServerProcess.with(contextSize: 256) { server in
            let long = String(repeating: "The market is busy today. ", count: 60)
            // The session's own check, with the context read from the server.
            let model = try await connect(server)
            #expect(try await model.contextSize == 256)
            do {
                try await LanguageModelSession(model: model).respond(to: long, options: Self.greedy)
                Issue.record("no error")
            } catch LanguageModelError.contextSizeExceeded(let info) {
                #expect(info.contextSize == 256)
                #expect(info.tokenCount > 256)
            }
            // The server's check, when the client believes the context is larger.
            let optimistic = try await connect(server, contextSize: 100_000)
            let session = LanguageModelSession(model: optimistic, instructions: "x")
            do {
                try await session.respond(to: long, options: Self.greedy)
                Issue.record("no error")
            } catch LanguageModelError.contextSizeExceeded(let info) {
                #expect(info.contextSize == 256)
                #expect(info.tokenCount > 256)
            }
            #expect(session.transcript.count == 1)
        }
    }

    @Test func eachSlotGetsItsShareOfTheContext() async throws {
        try await LlamaServerProcess.with(contextSize: 1024, parallel: 2) { server in
            let model = try await connect(server)
            #expect(try await model.contextSize == 512)
        }
    }

    @Test func tokenCountsEqualTheServers() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await connect(server)
            let session = LanguageModelSession(model: model, instructions: "You are Brom, the blacksmith.")
            try await session.respond(to: "Do you have a hatchet?", options: Self.greedy)
            let transcript = session.transcript
            let next = Transcript(
                entries: Array(transcript) + [.prompt(.init(segments: [.text(.init(content: "And a hammer?"))]))])
            let counted = try await model.tokenCount(for: GenerationRequest(transcript: next))
            let response = try await session.respond(to: "And a hammer?", options: Self.greedy)
            #expect(counted == response.generationUsage?.promptTokens)
        }
    }

    @Test func aSecondTurnReportsCachedPromptTokens() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await connect(server)
            let session = LanguageModelSession(
                model: model, instructions: "You are Ada, the innkeeper of the Blue Boar.")
            let first = try await session.respond(to: "A room for the night?", options: Self.greedy)
            let second = try await session.respond(to: "How much is supper?", options: Self.greedy)
            let cached = try #require(second.generationUsage?.cachedPromptTokens)
            #expect(cached > 0)
            #expect(cached >= (first.generationUsage?.promptTokens ?? 0) / 2)
        }
    }

    @Test func aServerKilledMidStreamGivesACleanErrorAndAnUnchangedTranscript() async throws {
        let server = try await LlamaServerProcess()
        defer { server.stop() }
        let model = try await connect(server)
        let session = LanguageModelSession(model: model, instructions: "You are a bard.")
        let before = session.transcript
        let stream = session.streamResponse(
            to: "Sing me a very long song about the sea.",
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 400))
        var killed = false
        do {
            for try await _ in stream where !killed {
                server.kill()
                killed = true
            }
            _ = try await stream.collect()
            Issue.record("no error after the server died")
        } catch {
            #expect(error is ModelServerError, "\(error)")
        }
        #expect(killed)
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }
}

/// An offer, for structured generation.
struct Offer: CodableGenerable {
    var item: String
    var price: Int
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Offer.self, description: "An offer to sell an item",
            properties: [
                .init(name: "item", type: String.self),
                .init(name: "price", description: "In gold", type: Int.self, guides: [.range(1...1000)]),
            ])
    }
}

/// A stock tool that counts its calls.
struct CountingStockTool: Tool {
    let name = "lookUpStock"
    let description = "Looks up the price of an item the merchant sells."
    let calls = SharedCounter()
    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
        }
    }
    func call(arguments: Arguments) async throws -> String {
        calls.increment()
        return "\(arguments.item): 12 gold, 3 in stock"
    }
}

/// A counter shared by copies of a tool.
final class SharedCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

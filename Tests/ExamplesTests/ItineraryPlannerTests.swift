import ChildProcess
import Foundation
import HTTPTestSupport
import ParleyJSON
import Testing

/// `Examples/ItineraryPlanner`: a sample written for Apple's FoundationModels, built unchanged against the
/// FoundationModels module, run against a loopback server (named by `PARLEY_MODEL`) as it would run against
/// llama-server.
@Suite struct ItineraryPlannerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = packageRoot.appendingPathComponent("Examples/ItineraryPlanner")

    @Test("The port is Apple's sample unchanged")
    func theSampleIsUnchanged() throws {
        let apple = try String(
            contentsOf: Self.example.appendingPathComponent("FoundationModels/ItineraryPlanner.swift"), encoding: .utf8)
        let port = try String(
            contentsOf: Self.example.appendingPathComponent("ItineraryPlanner.swift"), encoding: .utf8)
        #expect(apple.contains("import FoundationModels"))
        #expect(apple.contains("let model = SystemLanguageModel.default"))
        #expect(port == apple)
        #expect(port.components(separatedBy: "\n").count > 40, "the comparison saw the whole sample")
        // And the sample uses what it is there to show.
        for feature in [
            "@Generable", "@Guide(", "model.availability", "streamResponse(generating: Itinerary.self)",
            "LanguageModelSession.GenerationError", "snapshot.content.title",
        ] {
            #expect(port.contains(feature), "the sample no longer uses \(feature)")
        }
    }

    @Test("It streams the itinerary's snapshots, then prints the whole itinerary")
    func plansATrip() async throws {
        let itinerary = #"""
            {"title": "Three days in Eastmarch", "rationale": "The market never sleeps.", "days": [
             {"title": "Stalls", "activities": ["Haggle with Mira", "Buy a lantern"]},
             {"title": "The smithy", "activities": ["Watch Brannoc work", "Order a hatchet"]},
             {"title": "The river", "activities": ["Fish at dawn", "Eat figs"]}]}
            """#
        // The JSON arrives in small pieces, as a model writes it.
        let pieces = stride(from: 0, to: itinerary.count, by: 12).map { start -> String in
            let from = itinerary.index(itinerary.startIndex, offsetBy: start)
            let to = itinerary.index(from, offsetBy: min(12, itinerary.count - start))
            return String(itinerary[from..<to])
        }
        let chunks =
            pieces.map { piece in
                #"data: {"choices":[{"index":0,"delta":{"content":"# + JSONValue.string(piece).jsonString() + "}}]}\n\n"
            } + [#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n", "data: [DONE]\n\n"]
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/v1/models": .json(#"{"object":"list","data":[{"id":"planner","object":"model"}]}"#)
            case "/v1/chat/completions": .eventStream(chunks)
            default: .text("not found", status: 404)
            }
        }
        defer { server.stop() }
        let run = try await planner(modelURL: server.url("/v1"))
        #expect(run.status == 0, "\(run.err)")
        let drafts = run.out.components(separatedBy: "\n").filter { $0.hasPrefix("Drafting: ") }
        #expect(drafts.count >= 2, "snapshots before the whole itinerary: \(run.out)")
        #expect(drafts.last == "Drafting: Three days in Eastmarch")
        #expect(
            run.out.contains("Three days in Eastmarch\nThe market never sleeps.\nDay 1: Stalls\n  - Haggle with Mira"))
        #expect(run.out.contains("Day 3: The river\n  - Fish at dawn\n  - Eat figs"))
        // The request asked for the schema the macro wrote.
        let request = try #require(server.requests.first { $0.path == "/v1/chat/completions" })
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body.contains(#""activities""#) && body.contains(#""rationale""#), "\(body)")
    }

    @Test("With no server, it says the model is unavailable, as Apple's sample does without Apple Intelligence")
    func saysWhenTheModelIsUnavailable() async throws {
        let server = try LoopbackHTTPServer { _ in .text("") }
        let url = server.url("/v1")
        server.stop()
        let run = try await planner(modelURL: url)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("The model is unavailable: "), "\(run.out)")
        #expect(!run.out.contains("Drafting"))
    }

    /// Runs the built example with `PARLEY_MODEL` set, off the cooperative pool.
    func planner(modelURL: String) async throws -> (status: Int32, out: String, err: String) {
        let binary = Bundle.main.bundleURL.appendingPathComponent("itinerary-planner")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no itinerary-planner next to the tests at \(binary.path); build it with 'swift build --build-tests'")
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODEL"] = modelURL
        let finished = environment
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let run = try ChildProcess.run(binary.path, arguments: [], environment: finished, input: nil)
                    continuation.resume(
                        returning: (
                            run.termination.status, String(decoding: run.output, as: UTF8.self),
                            String(decoding: run.error, as: UTF8.self)
                        ))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

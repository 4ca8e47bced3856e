import Foundation
import LanguageModels
import LanguageModelsTesting
import Synchronization
import Testing

@Suite struct StreamingTests {
    @Test func snapshotsAreCumulativeAndCollectEqualsRespond() async throws {
        let text = "Fine steel, fair prices, and no haggling before noon."
        let streamed = LanguageModelSession(
            model: MockLanguageModel(replies: [.text(text)], streamChunkSize: 3), instructions: "x")
        var snapshots: [String] = []
        let stream = streamed.streamResponse(to: "Hello")
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        #expect(snapshots.count > 1)
        for (previous, next) in zip(snapshots, snapshots.dropFirst()) { #expect(next.hasPrefix(previous)) }
        #expect(snapshots.last == text)
        let collected = try await stream.collect()

        let plain = LanguageModelSession(model: MockLanguageModel(replies: [.text(text)]), instructions: "x")
        let responded = try await plain.respond(to: "Hello")
        #expect(collected.content == responded.content)
        #expect(collected.transcriptEntries.map(\.description) == responded.transcriptEntries.map(\.description))
        #expect(streamed.transcript.count == plain.transcript.count)
    }

    @Test func collectWithoutIteratingWaitsForTheWholeResponse() async throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: [.text("All of it.")], streamChunkSize: 2))
        let response = try await session.streamResponse(to: "Hi").collect()
        #expect(response.content == "All of it.")
        #expect(session.transcript.count == 2)
    }

    @Test func toolCallsRunDuringAStream() async throws {
        let stock = LookUpStock()
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [
                .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("Rope is 3 gold."),
            ]),
            tools: [stock])
        let response = try await session.streamResponse(to: "Rope?").collect()
        #expect(response.content == "Rope is 3 gold.")
        #expect(stock.log.items == ["rope"])
        #expect(response.transcriptEntries.count == 4)
    }

    @Test func typedSnapshotsConvertAsSoonAsTheyCan() async throws {
        let offer = TradeOffer(item: "lantern", price: 12, remarks: ["bright", "sturdy"])
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.structured(offer.generatedContent)], streamChunkSize: 5))
        var partials: [TradeOffer] = []
        let stream = session.streamResponse(to: "Offer?", generating: TradeOffer.self)
        for try await snapshot in stream { partials.append(snapshot.content) }
        #expect(partials.last == offer)
        #expect(partials.count >= 2)  // snapshots while the remarks array fills
        #expect(try await stream.collect().content == offer)
    }

    @Test func schemaSnapshotsArePartialContent() async throws {
        let offer = TradeOffer(item: "lantern", price: 12, remarks: [])
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.text(offer.generatedContent.jsonString)], streamChunkSize: 4))
        var incomplete = 0
        let stream = session.streamResponse(to: "Offer?", schema: TradeOffer.generationSchema)
        for try await snapshot in stream where !snapshot.rawContent.isComplete { incomplete += 1 }
        #expect(incomplete > 0)
        #expect(try await stream.collect().content == offer.generatedContent)
    }

    @Test func cancellingTheConsumerRollsTheTurnBack() async throws {
        // After its first piece the stream waits for what only the cancellation ends, so the cancellation certainly
        // comes mid-turn (with a pause per chunk instead, a loaded machine could finish the turn first).
        let model = MockLanguageModel(replies: [
            .deltas(["word ", "never said"]) { index in
                if index > 0 { try? await Task.sleep(for: .seconds(600)) }
            },
            .text("again"),
        ])
        let session = LanguageModelSession(model: model, instructions: "x")
        let before = session.transcript
        let firstSnapshot = Mutex(false)
        let task = Task {
            for try await _ in session.streamResponse(to: "Talk") { firstSnapshot.withLock { $0 = true } }
        }
        while !firstSnapshot.withLock({ $0 }) { await Task.yield() }
        task.cancel()
        // The consumer's loop ends with the cancellation, and only once the turn has rolled back: the session is
        // free the moment it returns (a game retrying at once must not find it "already responding").
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(!session.isResponding)
        #expect(session.transcript == before)
        #expect(try await session.respond(to: "Talk again").content == "again")
    }

    @Test func turnsStartedInACancelledTaskEachFailWithCancellationNotWithABusySession() async throws {
        // A game loop whose task was cancelled (a time limit, a closed window) keeps calling the session: each
        // call must end with the cancellation, and only once its turn has ended, so the next one does not find
        // the session "already responding" to a turn that is still winding down.
        let model = MockLanguageModel(replies: Array(repeating: .text("hello there"), count: 5))
        let session = LanguageModelSession(model: model)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var errors: [any Error] = []
            for _ in 0..<5 {
                do { _ = try await session.streamResponse(to: "Talk").collect() } catch { errors.append(error) }
            }
            return errors
        }
        let errors = await task.value
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { $0 is CancellationError }, "\(errors)")
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
    }

    @Test func aStreamErrorRollsBackAndTheSessionStaysUsable() async throws {
        struct Cut: Error {}
        let model = MockLanguageModel(replies: [.failure(Cut()), .text("ok")])
        let session = LanguageModelSession(model: model)
        await #expect(throws: Cut.self) { try await session.streamResponse(to: "a").collect() }
        #expect(session.transcript.isEmpty)
        #expect(try await session.streamResponse(to: "b").collect().content == "ok")
    }

    @Test func aStreamStartedWhileBusyFailsWithConcurrentRequests() async throws {
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.text("a"), .text("b")], delay: .milliseconds(50)))
        let first = session.streamResponse(to: "one")
        let second = session.streamResponse(to: "two")
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) { try await second.collect() }
        #expect(try await first.collect().content == "a")
    }
}

import LanguageModels
import LanguageModelsTesting
import Observation
import Synchronization
import Testing

/// `LanguageModelSession` is `Observable`: `isResponding` and `transcript` tell observers when a turn changes them.
@Suite struct ObservationTests {
    /// What fired, in order.
    final class Log: Sendable {
        private let names = Mutex<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Tracks one property of a session once, recording when its change fires.
    static func track(_ read: @escaping @Sendable () -> Void, named name: String, into log: Log) {
        withObservationTracking {
            read()
        } onChange: {
            log.append(name)
        }
    }

    @Test func aRespondCallFiresForIsRespondingAndTranscript() async throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: [.text("Hello."), .text("Still here.")]))
        let log = Log()
        Self.track({ _ = session.isResponding }, named: "isResponding", into: log)
        Self.track({ _ = session.transcript }, named: "transcript", into: log)
        try await session.respond(to: "Hi")
        // Each tracking fires once, at the first change: isResponding when the turn began, transcript at its end.
        #expect(log.all == ["isResponding", "transcript"])
        Self.track({ _ = session.usage }, named: "usage", into: log)
        try await session.respond(to: "Again")
        #expect(log.all == ["isResponding", "transcript", "usage"])
    }

    @Test func isRespondingFiresWhenTheTurnBeginsAndAgainWhenItEnds() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let model = MockLanguageModel { _ in
            for await _ in gate { break }
            return .text("done")
        }
        let session = LanguageModelSession(model: model)
        let log = Log()
        Self.track({ _ = session.isResponding }, named: "began", into: log)
        let turn = Task { try await session.respond(to: "Hi") }
        while log.all.isEmpty { await Task.yield() }
        #expect(session.isResponding)
        Self.track({ _ = session.isResponding }, named: "ended", into: log)
        #expect(log.all == ["began"])
        open.yield()
        _ = try await turn.value
        #expect(log.all == ["began", "ended"])
        #expect(!session.isResponding)
    }

    @Test func aFailedTurnFiresForIsRespondingButNotTheTranscript() async throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: [.failure(BrokenTool.Failure())]))
        let log = Log()
        Self.track({ _ = session.transcript }, named: "transcript", into: log)
        Self.track({ _ = session.isResponding }, named: "isResponding", into: log)
        await #expect(throws: BrokenTool.Failure.self) { try await session.respond(to: "Hi") }
        #expect(log.all == ["isResponding"])
        // Setting the transcript fires for it, and an observer that reads the session does not deadlock.
        Self.track({ _ = session.transcript }, named: "set", into: log)
        withObservationTracking {
            _ = session.transcript
        } onChange: {
            log.append("read \(session.transcript.count)")
        }
        session.transcript = Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "x"))]))])
        // Every transcript tracking fires (the first one too, which the failed turn left alone), in any order; the
        // reading one ran before the change, as `willSet` observers do.
        #expect(log.all.first == "isResponding")
        #expect(Set(log.all.dropFirst()) == ["transcript", "set", "read 0"])
    }
}

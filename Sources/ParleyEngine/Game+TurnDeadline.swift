import Foundation
import LanguageModels
import ParleyBasics

// A turn's time limit, and what the player sees while a turn waits on a model server.
//
// A turn streams through `watch(until:limit:start:handle:)`: the session's stream, the server's notices
// (`ModelServerNotice`, sent by the backend through the task-local `ModelServerContext`) and a timer meet in one
// loop on the game's actor. When the timer wins, the turn's task is cancelled, the session rolls the turn back
// before the call returns (so nothing from it can reach a later turn), and the turn fails with `TurnTimeout`.

extension Game {
    /// The longest one turn may take: the player's words to the NPC's last word, with every model call of its tool
    /// loop, the server's retries and waits, and the trims of a long conversation. Default 60 s.
    ///
    /// A turn that takes longer fails like any failed turn: the NPC's session rolls it back, the player is told
    /// (`GameOutput.problem`, saying the words were not lost), and the failure is recorded. Bind it around the
    /// calls that run turns:
    ///
    /// ```swift
    /// await Game.$turnTimeout.withValue(.seconds(120)) {
    ///     await host.perform(line, output: render)
    /// }
    /// ```
    @TaskLocal public static var turnTimeout: Duration = .seconds(60)

    /// When a turn that started at `started` must be over: `limit` later, or, for a model that answers in this process
    /// (`LanguageModelCapabilities.Capability.inProcess`: the scripted model, a mock), a century later, which stands
    /// for never. The limit bounds waiting on a server; a model with nothing to wait on is never cut short, however
    /// busy the machine (many games on a shared server, a test suite beside two compiles).
    static func deadline(
        of model: any LanguageModel, startedAt started: ContinuousClock.Instant, limit: Duration
    ) -> ContinuousClock.Instant {
        model.capabilities.contains(.inProcess) ? started + .seconds(100 * 365 * 86_400) : started + limit
    }

    /// What a streaming turn reports while it runs.
    enum TurnProgress {
        /// The answer's text so far.
        case text(String)
        /// News from the model server: a retry, a rate limit.
        case notice(ModelServerNotice)
    }

    /// What the tasks of a watched turn tell the loop that waits for them.
    private enum TurnEvent: Sendable {
        case text(String)
        case notice(ModelServerNotice)
        case finished(LanguageModelSession.Response<String>)
        case failed(any Error)
        case deadlinePassed
        case firstWordsDeadlinePassed
    }

    /// Runs a streaming turn until `deadline`, handing its text and the server's notices to `handle` as they come.
    ///
    /// - Parameters:
    ///   - deadline: When the turn must be over.
    ///   - limit: The turn's time limit, for the error.
    ///   - start: Starts the turn's stream; it runs with a `ModelServerContext` holding the deadline, so a server
    ///     backend neither waits past it nor keeps its retries to itself.
    ///   - firstWordsDeadline: When the first words must have come, if they must; text that is not there by then
    ///     ends the turn with `FirstWordsMissed`.
    ///   - firstWordsSaid: Whether the first words count as come, for a caller that says its text sentence by
    ///     sentence (a first sentence said); by default, any text counts.
    ///   - handle: Called in the caller's isolation (the game's actor) with each piece of progress; an error it
    ///     throws ends the turn (a sentence that failed its checks): the stream is dropped and the error rethrown.
    /// - Returns: The turn's response.
    /// - Throws: `TurnTimeout` at the deadline, `FirstWordsMissed` at the first-words deadline, `handle`'s error,
    ///   else the turn's error. Either way the turn has been rolled back when this returns.
    nonisolated(nonsending) static func watch(
        until deadline: ContinuousClock.Instant, limit: Duration,
        firstWordsBy firstWordsDeadline: ContinuousClock.Instant? = nil, firstWordsSaid: (() -> Bool)? = nil,
        start: () -> LanguageModelSession.ResponseStream<String>, handle: (TurnProgress) throws -> Void
    ) async throws -> LanguageModelSession.Response<String> {
        let (notices, noticeSink) = AsyncStream<ModelServerNotice>.makeStream()
        let stream = ModelServerContext.$current.withValue(
            ModelServerContext(deadline: deadline, notices: noticeSink), operation: start)
        let (events, sink) = AsyncStream<TurnEvent>.makeStream()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await snapshot in stream { sink.yield(.text(snapshot.content)) }
                    sink.yield(.finished(try await stream.collect()))
                } catch {
                    // Apple 27's types whatever the trait (the game's recovery matches them).
                    sink.yield(.failed(LanguageModelSession.apple27Form(of: error)))
                }
            }
            group.addTask {
                for await notice in notices { sink.yield(.notice(notice)) }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { sink.yield(.deadlinePassed) }
            }
            if let firstWordsDeadline {
                group.addTask {
                    try? await Task.sleep(until: firstWordsDeadline, clock: .continuous)
                    if !Task.isCancelled { sink.yield(.firstWordsDeadlinePassed) }
                }
            }
            var spoke = false
            // Leaving this closure cancels what still runs and waits for it: the turn's stream settles (commits or
            // rolls back) before the caller sees the result.
            defer { group.cancelAll() }
            for await event in events {
                switch event {
                case .text(let text):
                    spoke = spoke || !text.isEmpty
                    try handle(.text(text))
                case .notice(let notice): try handle(.notice(notice))
                case .finished(let response): return response
                case .failed(let error): throw error
                case .deadlinePassed: throw TurnTimeout(limit: limit)
                case .firstWordsDeadlinePassed: if !(firstWordsSaid?() ?? spoke) { throw FirstWordsMissed() }
                }
            }
            throw CancellationError()
        }
    }

    /// Runs a whole turn of `model` that does not stream (a replayed one) within `Game.turnTimeout` (none for a model
    /// that answers in this process: see `deadline(of:startedAt:limit:)`).
    ///
    /// - Throws: `TurnTimeout` when the time limit passes, else the turn's error.
    package static func withinTurnTimeout<T: Sendable>(
        of model: any LanguageModel, _ turn: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let limit = turnTimeout
        return try await runUntil(deadline(of: model, startedAt: .now, limit: limit), limit: limit, turn)
    }

    /// Runs work that is part of a turn (trimming a long conversation, which may ask the model for a summary)
    /// until `deadline`.
    ///
    /// - Throws: `TurnTimeout` at the deadline, else the work's error.
    static func runUntil<T: Sendable>(
        _ deadline: ContinuousClock.Instant, limit: Duration, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await ModelServerContext.$current.withValue(ModelServerContext(deadline: deadline)) {
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await LanguageModelSession.withApple27Errors(work) }
                group.addTask {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else { throw TurnTimeout(limit: limit) }
                return value
            }
        }
    }

    /// Text without the secrets of an NPC's model (a server's API key, through `LanguageModel.redactingSecrets(in:)`),
    /// nor any bearer token, whatever the backend: for failures the game keeps (recordings) and shows. The backend
    /// already removes its secrets from its errors; this makes sure.
    static func withoutSecrets(_ text: String, model: any LanguageModel) -> String {
        model.redactingSecrets(in: text).redactingBearerTokens()
    }

    /// `text` without the secrets of a voice and its planner, nor any bearer token.
    static func withoutSecrets(_ text: String, model: ModelVoicing) -> String {
        model.redactingSecrets(in: text).redactingBearerTokens()
    }
}

/// A turn that did not finish within its time limit (`Game.turnTimeout`).
///
/// The turn was rolled back like any failed turn; the player's words can be said again.
public struct TurnTimeout: Error, Sendable, CustomStringConvertible {
    /// The time limit that passed.
    public let limit: Duration

    /// Creates the error.
    ///
    /// - Parameter limit: The time limit that passed.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// What happened and what to do.
    public var description: String {
        let (seconds, attoseconds) = limit.components
        return "No answer came within the turn's time limit of \(attoseconds > 0 ? seconds + 1 : seconds) s. The "
            + "model server may be stuck or overloaded: check it, or allow more time with --turn-timeout."
    }
}

import ParleyEngine
import Testing

/// Runs a test or suite with a turn time limit (`Game.turnTimeout`) of its own.
///
/// The llama-server tests check what a real model does, not how fast: on two busy cores one turn of a tool loop can
/// take minutes, beyond the game's 60 s default. They run with an hour per turn, so their suites' own time limits
/// are what bounds them.
struct TurnTimeoutTrait: SuiteTrait, TestTrait, TestScoping {
    let limit: Duration

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Game.$turnTimeout.withValue(limit) { try await function() }
    }
}

extension Trait where Self == TurnTimeoutTrait {
    /// Runs with this turn time limit instead of the game's default.
    static func turnTimeout(_ limit: Duration) -> Self { TurnTimeoutTrait(limit: limit) }
}

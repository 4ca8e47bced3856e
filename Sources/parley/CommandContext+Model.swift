import CommandLineKit
import ParleyEngine
import ParleyModels

extension CommandContext {
    /// `--turn-timeout SECONDS`, taken by every command that runs NPC turns (`play`, `test`, `replay`).
    static let turnTimeoutOption = Option.value(
        "turn-timeout", valueName: "SECONDS",
        help: "The longest an NPC's turn may take with its retries, in seconds (default: 60).")

    /// The most `--max-tokens` may be: far beyond any model's reply, small enough that no count overflows.
    static let maximumTokensLimit = 1_000_000

    /// The longest `--turn-timeout` may be: a day.
    static let maximumTurnSeconds = 86_400.0

    /// The model that `--model SPEC` and `--seed N` name (`scripted`, seed 1, when not given), for the commands
    /// that run NPCs outside the game (`test`, `replay`).
    ///
    /// - Throws: `UsageError` for a model specification that cannot be read, a malformed URL included.
    func modelChoice() throws -> ModelChoice {
        do {
            return try ModelChoice.parse(
                arguments.value("model") ?? "scripted", seed: UInt64(arguments.value("seed") ?? "1") ?? 1)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// The turn time limit `--turn-timeout SECONDS` gives: `Game.turnTimeout` (60 s) when not given.
    ///
    /// - Throws: `UsageError` for a value that is not a number of seconds above 0 and at most a day.
    func turnTimeout() throws -> Duration {
        guard let text = arguments.value("turn-timeout") else { return Game.turnTimeout }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= Self.maximumTurnSeconds else {
            throw UsageError(
                "--turn-timeout must be a number of seconds above 0 and at most \(Int(Self.maximumTurnSeconds))",
                hint: "for example --turn-timeout 120")
        }
        return .milliseconds(max(1, Int64(seconds * 1000)))
    }

    /// The reply limit `--max-tokens N` gives, or `nil` when not given.
    ///
    /// - Throws: `UsageError` for a value that is not a whole number from 1 to `maximumTokensLimit`.
    func maximumResponseTokens() throws -> Int? {
        guard let text = arguments.value("max-tokens") else { return nil }
        guard let maximum = Int(text), (1...Self.maximumTokensLimit).contains(maximum) else {
            throw UsageError(
                "--max-tokens must be a whole number from 1 to \(Self.maximumTokensLimit), not '\(text)'",
                hint: "for example --max-tokens 200")
        }
        return maximum
    }
}

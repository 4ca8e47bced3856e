import CommandLineKit
import ParleyEngine

extension CommandContext {
    /// The model that `--model SPEC` and `--seed N` name (`scripted`, seed 1, when not given), for the commands
    /// that run NPCs outside the game (`test`, `replay`).
    ///
    /// - Throws: `UsageError` for a model specification that cannot be read.
    func modelChoice() throws -> ModelChoice {
        do {
            return try ModelChoice.parse(
                arguments.value("model") ?? "scripted", seed: UInt64(arguments.value("seed") ?? "1") ?? 1)
        } catch {
            throw UsageError("\(error)")
        }
    }
}

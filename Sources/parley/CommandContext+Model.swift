import CommandLineKit
import ParleyEngine
import ParleyModels

extension CommandContext {
    /// The model that `--model SPEC` and `--seed N` name (`scripted`, seed 1, when not given), for the commands
    /// that run NPCs outside the game (`test`, `replay`).
    ///
    /// - Throws: `UsageError` for a model specification that cannot be read, a malformed URL included.
    func modelChoice() throws -> ModelChoice {
        let specification = try value(of: CommonOptions.model)
        let seed = try value(of: CommonOptions.seed)
        do {
            return try ModelChoice.parse(specification, seed: seed)
        } catch {
            throw UsageError("\(error)")
        }
    }
}

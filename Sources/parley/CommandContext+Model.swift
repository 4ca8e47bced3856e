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

extension CommandContext {
    /// How a server plays the NPCs: `--voice`, `--first-words-deadline`, and `--seed` for the planner.
    ///
    /// - Throws: `UsageError` for a value that cannot be read.
    func voiceSettings() throws -> VoiceSettings {
        VoiceSettings(
            mode: try value(of: CommonOptions.voice),
            firstWordsDeadline: try value(of: CommonOptions.firstWordsDeadline),
            plannerSeed: try value(of: CommonOptions.seed))
    }
}

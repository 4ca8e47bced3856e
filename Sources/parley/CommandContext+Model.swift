import CommandLineKit
import Foundation
import GameWorld
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

extension CommandContext {
    /// The content pack in `directory`, ready to play, or `nil` after printing its errors (for `play` and `serve`).
    ///
    /// - Parameter directory: The pack's directory, as the player gave it.
    /// - Returns: The pack, or `nil` when it has errors (they are printed, with what to do).
    func playablePack(in directory: String) -> ContentPack? {
        let loaded = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        guard let pack = loaded.pack, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            printError(ContentCheckReport(loaded).text, terminator: "")
            printError("parley: the content pack in \(directory) has errors; fix them and try again.")
            return nil
        }
        return pack
    }

    /// The NPCs' models from `choice`, or `nil` after printing why they cannot be made (a server that cannot be
    /// reached, say).
    ///
    /// - Parameters:
    ///   - choice: The model the command line chose.
    ///   - voice: How a server plays the NPCs.
    /// - Returns: The provider, or `nil`.
    func modelProvider(_ choice: ModelChoice, voice: VoiceSettings) async -> Game.ModelProvider? {
        do {
            return try await choice.makeProvider(voice: voice)
        } catch {
            printError("parley: \(error)")
            return nil
        }
    }
}

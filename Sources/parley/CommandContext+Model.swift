import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import LanguageModels
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

extension CommandContext {
    /// Refuses a `--max-tokens` that leaves the conversation no room in the model's context window: each request
    /// must fit the instructions, the conversation and the reply, so a reply limit beyond half the window makes every
    /// turn fail with a context error that retrying never fixes. The window is the smallest of the models an NPC
    /// gets (with a server in grounded mode, the planner's and the server's).
    ///
    /// - Parameters:
    ///   - maximumTokens: The `--max-tokens` given, if any.
    ///   - models: The NPCs' models.
    ///   - world: The world, whose first NPC's model is asked.
    /// - Throws: `UsageError` naming the window and the most `--max-tokens` may be.
    func checkReplyLimit(_ maximumTokens: Int?, models: Game.ModelProvider, world: World) async throws {
        guard let maximumTokens, let npc = world.npcs.values.min(by: { $0.id.rawValue < $1.id.rawValue }) else {
            return
        }
        let model = try await models(npc, world)
        var windows = [model.knownContextSize]
        if let voicing = model.voicing {
            windows += [voicing.voice.knownContextSize, voicing.planner.knownContextSize]
        }
        guard let window = windows.compactMap({ $0 }).min() else { return }
        let most = max(window / 2, 1)
        guard maximumTokens > most else { return }
        throw UsageError(
            "--max-tokens \(maximumTokens) leaves the conversation no room in the model's context window of \(window) "
                + "tokens: give at most \(most)",
            hint: "for example --max-tokens \(min(200, most))")
    }
}

import CommandLineKit
import ParleyEngine

/// The options several `parley` commands share, each declared once with its type, default and environment
/// variable: a bad value is a usage error (exit 64) in every command that takes the option, and help shows the
/// default and the variable.
enum CommonOptions {
    /// The most `--max-tokens` may be: far beyond any model's reply, small enough that no count overflows.
    static let maximumTokensLimit = 1_000_000

    /// The longest `--turn-timeout` may be: a day, in seconds.
    static let maximumTurnSeconds = 86_400.0

    /// `--saves DIR` (alias `--folder DIR`), else `PARLEY_SAVES`, else `SaveGames`: the saves folder, for every
    /// command that reads or writes saves.
    static let saves = Option.value(
        "saves", aliases: ["folder"], valueName: "DIR", type: .string, defaultValue: "SaveGames",
        environment: "PARLEY_SAVES", help: "The saves folder.")

    /// `--content DIR`: the content pack, `Content` when not given.
    static let content = Option.value(
        "content", valueName: "DIR", type: .string, defaultValue: "Content", help: "The content pack's directory.")

    /// `--model SPEC` for the commands that run NPCs outside the game (`test`, `replay`): `scripted` when not
    /// given. (`play` has its own, which also reads `PARLEY_MODEL`.)
    static let model = Option.value(
        "model", valueName: "SPEC", type: .string, defaultValue: "scripted",
        help: "scripted, or a server URL (as for play).")

    /// `--seed N`: the scripted model's seed, 1 when not given.
    static let seed = Option.value(
        "seed", valueName: "N", type: .unsignedInteger, defaultValue: 1, help: "The scripted model's seed.")

    /// `--turn-timeout SECONDS`, taken by every command that runs NPC turns (`play`, `test`, `replay`):
    /// `Game.turnTimeout` (60 s) when not given.
    static let turnTimeout = Option.value(
        "turn-timeout", valueName: "SECONDS", type: .seconds(atMost: maximumTurnSeconds, example: 120),
        defaultValue: Game.turnTimeout, help: "The longest an NPC's turn may take with its retries, in seconds.")

    /// `--voice grounded|free`: how a server plays the NPCs, `grounded` when not given (see `VoicedModel`).
    static let voice = Option.value(
        "voice", valueName: "MODE", type: .voiceMode, defaultValue: .grounded, environment: "PARLEY_VOICE",
        help: "With a server: grounded (the scripted planner decides, the server only voices the line, checked) or "
            + "free (the server plans and calls tools itself).")

    /// The longest `--first-words-deadline` may be, in seconds.
    static let maximumFirstWordsSeconds = 600.0

    /// `--first-words-deadline SECONDS`: how long a server may take to the NPC's first words before the planned
    /// line answers (`VoicedModel.defaultFirstWordsDeadline`, 2 s, when not given).
    static let firstWordsDeadline = Option.value(
        "first-words-deadline", valueName: "SECONDS",
        type: .seconds(atMost: maximumFirstWordsSeconds, example: 2),
        defaultValue: VoicedModel.defaultFirstWordsDeadline,
        help: "With a server: the longest wait for an NPC's first words; later, the planned line answers.")

    /// `--max-tokens N`: the reply limit, `nil` when not given.
    static let maxTokens = Option.value(
        "max-tokens", valueName: "N", type: .integer(in: 1...maximumTokensLimit, example: 200),
        help: "The longest NPC reply, in tokens, at most \(maximumTokensLimit) and at most half the model's context "
            + "window (default with a server: from the sentence budget, 40 tokens a sentence).")

    /// How many autosaves `--keep-autosaves` keeps when not given.
    static let defaultKeptAutosaves = 20

    /// `--keep-autosaves N` for `play` and `serve`: when a game starts, the autosaves beyond the newest N are deleted
    /// oldest first, never one a game plays (`SaveGameStore.pruneAutosaves(base:keeping:sparing:)`).
    static let keepAutosaves = Option.value(
        "keep-autosaves", valueName: "N", type: .integer(in: 1...1_000_000, example: 20),
        defaultValue: defaultKeptAutosaves,
        help: "Keep the newest N autosaves: older ones are deleted when a game starts, never one a game plays "
            + "(other slots are never deleted).")
}

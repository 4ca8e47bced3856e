import CommandLineKit
import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleyModels
import ParleySpeech
import ParleySpeechServer
import SaveGames
import Synchronization

/// `parley play` (and bare `parley`): the text adventure.
enum PlayCommand {
    /// The `play` subcommand.
    static let command = Command(
        "play", abstract: "Play the game in this terminal.",
        discussion: """
            Talk to the town's people in your own words: 'talk to mira', then just type. 'help' lists the commands.
            Input may be piped (one command per line); then no prompts or escape codes are printed.
            The model is the embedded scripted one unless --model or PARLEY_MODEL names a server:
              --model http://127.0.0.1:8080/v1          (scripts/llm-server start --port 8080)
              --model http://127.0.0.1:11434/v1#llama3.2 (Ollama)
            A malformed --model URL is refused at once. With a server, each NPC turn has --turn-timeout seconds
            (default 60), retries included: while it waits the NPC shows as thinking with the seconds passed, and
            the server's retries and rate limits are shown; a turn that runs out is taken back, and your words are
            not lost. The server's API key comes from OPENAI_API_KEY and is never shown or saved.
            With --speak-to DIR, each NPC line is also spoken with espeak-ng in the NPC's voice (its "speech" block,
            else one derived from its id) and written to DIR/<turn>-<npc>.wav; without espeak-ng
            (scripts/install-deps --speech) the game says so once and goes on.
            With --speak, each NPC line is played through the audio device as it is said, sentence by sentence
            (with aplay, paplay or pw-play); without a device the game says so once and goes on silent. Both may be
            given. --speech-model URL[#MODEL] speaks with an OpenAI-compatible speech server instead of espeak-ng
            (--speech-voice NAME its voice for every NPC; the key from OPENAI_API_KEY).
            """,
        options: options, handler: run)

    /// `--model SPEC`, else `PARLEY_MODEL`, else `scripted`.
    static let modelOption = Option.value(
        "model", valueName: "SPEC", type: .string, defaultValue: "scripted", environment: "PARLEY_MODEL",
        help: "scripted, or a server URL.")

    /// `--feedback-dir DIR`, else `PARLEY_FEEDBACK_DIR`: where to write feedback reports as files, if anywhere.
    static let feedbackFolderOption = Option.value(
        "feedback-dir", valueName: "DIR", type: .string, environment: "PARLEY_FEEDBACK_DIR",
        help: "Also write each feedback report to DIR as a .json file.")

    /// `--name NAME`: the player's name; the pack's when not given or empty.
    static let nameOption = Option.value(
        "name", valueName: "NAME", type: .playerName,
        help: "Your name in the game, at most \(StatePatch.maximumNameLength) characters.")

    /// `--speak-to DIR`: where to write each NPC line as a WAV file spoken with espeak-ng, if anywhere.
    static let speakToOption = Option.value(
        "speak-to", valueName: "DIR", type: .string,
        help: "Also speak each NPC line with espeak-ng and write it to DIR/<turn>-<npc>.wav.")

    /// `--speak`: play each NPC line through the audio device, sentence by sentence.
    static let speakFlag = Option.flag(
        "speak", help: "Play each NPC line through the audio device as it is said (aplay, paplay or pw-play).")

    /// `--continue`: the most recent autosave instead of a new game.
    static let continueFlag = Option.flag(
        "continue",
        help: "Continue the last game (the most recent autosave slot) instead of a new one; it is not introduced again."
    )

    /// The options `play` takes, which bare `parley` takes too.
    static let options: [Option] = [
        CommonOptions.content.option, modelOption.option, CommonOptions.seed.option,
        nameOption.option, CommonOptions.saves.option, continueFlag,
        feedbackFolderOption.option, speakToOption.option, speakFlag, ServeSpeech.speechModelOption.option,
        ServeSpeech.speechVoiceOption.option, CommonOptions.maxTokens.option, CommonOptions.turnTimeout.option,
        CommonOptions.voice.option,
        CommonOptions.firstWordsDeadline.option, CommonOptions.keepAutosaves.option,
    ]

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        // Usage errors first, before any file is read or server contacted.
        let seed = try context.value(of: CommonOptions.seed)
        let specification = try context.value(of: modelOption)
        let choice: ModelChoice
        do {
            choice = try ModelChoice.parse(specification, seed: seed)
        } catch {
            throw UsageError("\(error)")
        }
        let turnTimeout = try context.value(of: CommonOptions.turnTimeout)
        let voice = try context.voiceSettings()
        let maximumTokens = try context.value(of: CommonOptions.maxTokens)
        let directory = try context.value(of: CommonOptions.content)
        let savesFolder = try context.value(of: CommonOptions.saves)
        let feedbackFolder = try context.value(of: feedbackFolderOption)
        let playerName = try context.value(of: nameOption)
        let keptAutosaves = try context.value(of: CommonOptions.keepAutosaves)
        let speakTo = try context.value(of: speakToOption)
        let synthesizer = try speechSynthesizer(context, speaking: speakTo != nil || context.isSet(speakFlag))
        guard let pack = context.playablePack(in: directory),
            let models = await context.modelProvider(choice, voice: voice)
        else { return .failure }
        try await context.checkReplyLimit(maximumTokens, models: models, world: pack.world)
        var state = pack.initialState
        if let name = playerName, !name.isEmpty {
            var player = state.player
            player.name = name
            state = GameState(world: state.world, player: player)
        }
        let store = SaveGameStore(folder: URL(fileURLWithPath: savesFolder))
        var options = GenerationOptions()
        // With a server and no --max-tokens, the backend sends a limit from the sentence budget.
        if let maximumTokens { options.maximumResponseTokens = maximumTokens }
        let host = GameHost(
            pack: pack, state: state, models: models, store: store,
            feedbackFolder: feedbackFolder.map { URL(fileURLWithPath: $0) },
            options: options, contentDirectory: URL(fileURLWithPath: directory))

        do {
            // One game per save folder: a second one stops here, before anything is written.
            try await host.claimSaves()
        } catch let error as SaveGameError where error.code == .inUse {
            context.printError("parley: \(error)")
            return .failure
        } catch {
            // A folder that cannot be written (read-only, not a folder): the game is still playable, and each
            // autosave says why it failed.
            context.printError("parley: \(error) The game can be played, but it cannot be saved there.")
        }

        await Game.$turnTimeout.withValue(turnTimeout) {
            await play(
                host: host, world: state.world, keptAutosaves: keptAutosaves, speakTo: speakTo,
                synthesizer: synthesizer, context: context)
        }
        return .success
    }

    /// The game loop: the introduction, then one line the player types after another until the end of input.
    private static func play(
        host: GameHost, world: World, keptAutosaves: Int, speakTo: String?, synthesizer: any SpeechSynthesizer,
        context: CommandContext
    ) async {
        let interactive = Terminal.inputIsTerminal && Terminal.outputIsTerminal
        let gameRenderer = GameRenderer(
            style: Style(enabled: Terminal.colorEnabled(environment: context.environment)),
            showsSpinner: Terminal.outputIsTerminal)
        // With both --speak and --speak-to, each sentence is synthesised once for the two of them.
        let speaking = context.isSet(speakFlag)
        let synthesizer = speaking && speakTo != nil ? SharedSynthesis(synthesizer, listeners: 2) : synthesizer
        let speech = speakTo.map { folder in
            SpeechWriter(folder: URL(fileURLWithPath: folder), world: world, synthesizer: synthesizer) {
                context.printError($0)
            }
        }
        await speech?.start()
        let player =
            speaking
            ? SpeechPlayer(world: world, synthesizer: synthesizer, environment: context.environment) {
                context.printError($0)
            } : nil
        await player?.start()
        let renderer = Renderer { output in
            gameRenderer.render(output)
            speech?.observe(output)
            player?.observe(output)
        }
        func introduce() {
            Terminal.write(gameRenderer.style.goal(world.title) + "\n")
            if !world.introduction.isEmpty { Terminal.write(TerminalText.sanitized(world.introduction) + "\n") }
            Terminal.write("Your goal: \(TerminalText.sanitized(world.goal.description))\n")
        }
        let help = world.lexicon.text(.typeHelp) + "\n\n"
        // Stopped by a signal, the game still closes its saves.
        let trap = SignalTrap { await host.close() }
        defer { trap.cancel() }
        if context.isSet(continueFlag) {
            // A game that goes on is not introduced again (only the line about help is shown); one that begins after
            // all (no save yet, or one that could not be loaded) is, before what the start showed.
            let newGame = await host.game
            let shown = Shown()
            await host.begin(continuing: true, output: shown.record)
            if await host.game === newGame { introduce() }
            Terminal.write(help)
            for output in shown.outputs { renderer.render(output) }
        } else {
            introduce()
            Terminal.write(help)
            await host.begin(continuing: false, output: renderer.render)
        }
        // Once the game's slot is settled (and saved): this process is the folder's only game.
        await host.pruneAutosaves(keeping: keptAutosaves)

        let editor = LineEditor(interactive: interactive)
        while true {
            let prompt = await host.game.partner.map { "\(world.name(of: $0)) > " } ?? "> "
            guard let line = editor.readLine(prompt: interactive ? prompt : "") else { break }
            speech?.nextTurn()
            guard await host.perform(line, output: renderer.render) else { break }
        }
        // Each save becomes one self-contained file again, and the folder is free for another game.
        await host.close(output: renderer.render)
        await speech?.finish()
        await player?.finish()
        if interactive { Terminal.write("Farewell.\n") }
    }
}

extension PlayCommand {
    /// What speaks for `--speak` and `--speak-to`: the speech server of `--speech-model` (with `--speech-voice`),
    /// else espeak-ng.
    ///
    /// - Parameters:
    ///   - context: The command's context.
    ///   - speaking: Whether `--speak` or `--speak-to` is given.
    /// - Throws: `UsageError` when `--speech-model` or `--speech-voice` is given without anything to speak, or
    ///   `--speech-voice` without `--speech-model`, or the URL is not one.
    static func speechSynthesizer(_ context: CommandContext, speaking: Bool) throws -> any SpeechSynthesizer {
        let model = try context.value(of: ServeSpeech.speechModelOption)
        let voice = try context.value(of: ServeSpeech.speechVoiceOption)
        if voice != nil, model == nil { throw UsageError("--speech-voice needs --speech-model URL") }
        guard let model else { return ESpeakSynthesizer() }
        guard speaking else { throw UsageError("--speech-model needs --speak or --speak-to DIR") }
        return try SpeechServerSynthesizer(configuration: ServeSpeech.serverConfiguration(model, voice: voice))
    }
}

/// Where the game's output goes: the terminal, and the speech writer when there is one.
private struct Renderer: Sendable {
    /// Shows one piece of output.
    let render: @Sendable (GameOutput) -> Void
}

/// What the game showed while it started, kept to be shown after the introduction (or without it); the mutex makes it
/// Sendable, as `GameHost.begin` takes a `@Sendable` closure.
private final class Shown: Sendable {
    private let kept = Mutex<[GameOutput]>([])

    /// Keeps one piece of output.
    func record(_ output: GameOutput) { kept.withLock { $0.append(output) } }

    /// Everything kept, in order.
    var outputs: [GameOutput] { kept.withLock { $0 } }
}

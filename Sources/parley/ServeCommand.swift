import CommandLineKit
import Foundation
import GameWorld
import LanguageModels
import ParleyAPI
import ParleyEngine
import ParleyModels
import ParleyServer
import SaveGames

/// `parley serve`: the game as a local HTTP API, for games written in any language (docs/api.md).
enum ServeCommand {
    /// The `serve` subcommand.
    static let command = Command(
        "serve", abstract: "Serve the game over a local HTTP API, for a game engine to call.",
        discussion: """
            Prints its base URL (http://127.0.0.1:PORT), then serves until stopped (Ctrl-C, SIGTERM), when every
            game is saved. Many games at once, one per client, each with its own autosave slot in --saves.
            It listens on 127.0.0.1 unless --host says otherwise; then a bearer token is required (--token or
            PARLEY_TOKEN, 16 characters or more), which clients send as 'Authorization: Bearer TOKEN'.
            A game in a web page served from another origin needs that origin allowed: --cors-origin, once for each.
            The API is documented in docs/api.md, and described for tools in docs/openapi.json. The inspector's pages
            (the saves, their conversations, feedback and replays, in a browser) are at /inspect; 'parley inspect'
            serves them alone.
            With --speech espeak or --speech-model URL, the NPCs' lines are spoken sentence by sentence: each speech
            event that ends a sentence names its WAV (GET /v1/games/ID/audio/EVENT, the last 32 lines of a game
            kept), and its visemes for lip sync, as it comes; each speechEnded names the whole line's.
            With --listen pocketsphinx or --listen-model URL, POST /v1/games/ID/npcs/NPC/say also takes a spoken line
            as audio/wav: a heard event says what was recognised, and a line heard too unsurely is asked again; one
            heard below --listen-act-confidence is answered, but cannot make the NPC act (it asks again instead).
            """,
        options: [
            CommonOptions.content.option, CommonOptions.saves.option, PlayCommand.modelOption.option,
            CommonOptions.seed.option, hostOption.option, portOption.option, tokenOption.option,
            maximumGamesOption.option, corsOriginOption.option, idleTimeoutOption.option,
            CommonOptions.turnTimeout.option, CommonOptions.voice.option, CommonOptions.firstWordsDeadline.option,
            CommonOptions.maxTokens.option, replayTimeoutOption.option, CommonOptions.keepAutosaves.option,
        ] + ServeSpeech.options + ServeListening.options,
        handler: run)

    /// `--host ADDRESS`: where to listen, `127.0.0.1` when not given.
    static let hostOption = Option.value(
        "host", valueName: "ADDRESS", type: .nonEmptyString(example: "127.0.0.1"), defaultValue: "127.0.0.1",
        help: "The address to listen on (not loopback: --token is required).")

    /// `--port N`: the port, a free one when not given (or 0).
    static let portOption = Option.value(
        "port", valueName: "N", type: .integer(in: 0...65_535, example: 8090), defaultValue: 0,
        help: "The port; 0 or none picks a free one.")

    /// `--token T`, else `PARLEY_TOKEN`: the bearer token clients must send.
    static let tokenOption = Option.value(
        "token", valueName: "TOKEN", type: .nonEmptyString(example: "a-long-random-token"), environment: "PARLEY_TOKEN",
        help: "The bearer token every request must carry (required beyond loopback).")

    /// `--max-games N`: the most games at once.
    static let maximumGamesOption = Option.value(
        "max-games", valueName: "N", type: .integer(in: 1...10_000, example: 64), defaultValue: 64,
        help: "The most games at once.")

    /// `--cors-origin ORIGIN`, repeatable: an origin whose pages may call the API from a browser.
    static let corsOriginOption = Option.value(
        "cors-origin", valueName: "ORIGIN", type: .nonEmptyString(example: "http://localhost:8000"),
        help: "An origin whose web pages may call the API (repeat it for several); none by default.")

    /// `--idle-timeout SECONDS`: how long a game may go unused before it is saved and ended; never when not given.
    static let idleTimeoutOption = Option.value(
        "idle-timeout", valueName: "SECONDS", type: .integer(in: 1...31_536_000, example: 1_800),
        help: "Save and end a game nobody used for this long (no line, no request, no listener); never by default.")

    /// `--replay-timeout SECONDS`: how long one replay may run before it answers with the turns replayed so far.
    static let replayTimeoutOption = Option.value(
        "replay-timeout", valueName: "SECONDS", type: .integer(in: 1...86_400, example: 120), defaultValue: 120,
        help: "How long one replay of a save may run; it then answers with the turns replayed so far.")

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let seed = try context.value(of: CommonOptions.seed)
        let choice: ModelChoice
        do {
            choice = try ModelChoice.parse(try context.value(of: PlayCommand.modelOption), seed: seed)
        } catch {
            throw UsageError("\(error)")
        }
        let origins = context.arguments.values(corsOriginOption.name)
        if let bad = origins.first(where: { HTTPServer.Configuration.origin($0) == nil }) {
            throw UsageError(
                "--cors-origin \(bad) is not an origin: give a scheme, a host and, when it is not the scheme's "
                    + "default, a port, as a browser sends them (http://localhost:8000, https://game.example)")
        }
        let voice = try context.voiceSettings()
        let turnTimeout = try context.value(of: CommonOptions.turnTimeout)
        let maximumTokens = try context.value(of: CommonOptions.maxTokens)
        let speech = try await ServeSpeech.speech(context)
        let listening = try await ServeListening.listening(context)
        var configuration = HTTPServer.Configuration(
            host: try context.value(of: hostOption), port: try context.value(of: portOption),
            bearerToken: try context.value(of: tokenOption),
            allowedOrigins: origins)
        configuration.limits.maximumBodySize = 64 * 1024
        let directory = try context.value(of: CommonOptions.content)
        let savesFolder = try context.value(of: CommonOptions.saves)
        guard let pack = context.playablePack(in: directory),
            let models = await context.modelProvider(choice, voice: voice)
        else { return .failure }
        try await context.checkReplyLimit(maximumTokens, models: models, world: pack.world)
        let store = SaveGameStore(folder: URL(fileURLWithPath: savesFolder))
        // The server's claim on the folder, for as long as it runs: `parley play` on it is refused meanwhile.
        let lock: SaveFolderLock
        do {
            lock = try store.lockFolder()
        } catch {
            context.printError("parley: \(error)")
            return .failure
        }
        let idleTimeout = try context.value(of: idleTimeoutOption).map { Duration.seconds($0) }
        var options = GenerationOptions()
        if let maximumTokens { options.maximumResponseTokens = maximumTokens }
        var gamesConfiguration = APIGames.Configuration(
            pack: pack, contentDirectory: URL(fileURLWithPath: directory), models: models, store: store,
            options: options, maximumGames: try context.value(of: maximumGamesOption), turnTimeout: turnTimeout)
        gamesConfiguration.idleTimeout = idleTimeout
        gamesConfiguration.replayTimeLimit = .seconds(try context.value(of: replayTimeoutOption))
        gamesConfiguration.keptAutosaves = try context.value(of: CommonOptions.keepAutosaves)
        gamesConfiguration.speech = speech
        gamesConfiguration.listening = listening
        let games = APIGames(configuration: gamesConfiguration)
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: configuration, router: APIRoutes.router(for: games))
        } catch {
            context.printError("parley: \(error)")
            lock.release()
            return .failure
        }
        context.print(server.baseURL)
        // A signal stops the server (its games' listeners first, whose streams would otherwise hold the stop for its
        // grace period); then every game is saved below, and the command ends with status 0.
        let trap = SignalTrap(exits: false) {
            await games.closeEventStreams()
            await server.stop()
        }
        defer { trap.cancel() }
        // Games nobody uses are saved and ended, looked for four times per timeout (at most every minute).
        let sweeper = idleTimeout.map { timeout in
            Task { await games.endIdleGames(every: min(timeout / 4, .seconds(60))) }
        }
        await server.waitUntilStopped()
        sweeper?.cancel()
        await games.endAll()
        lock.release()
        return .success
    }
}

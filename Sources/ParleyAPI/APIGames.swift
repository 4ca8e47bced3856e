import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleyInspector
import ParleyJSON
import SaveGames

/// The games `parley serve` plays: many at once, one per client, each with its own autosave slot in one save folder.
///
/// A new game saves itself to the first free slot of the autosave family (`autosave`, `autosave-2`, …), so two games
/// never write one file; a game that is being played cannot be loaded or continued by another (409). Games are made
/// one at a time, so two new ones never pick the same free slot.
public actor APIGames {
    /// What every game is made with.
    public struct Configuration: Sendable {
        /// The content pack.
        public var pack: ContentPack
        /// The folder the pack was read from, for `reload`; `nil` when it was not read from one.
        public var contentDirectory: URL?
        /// Each NPC's model.
        public var models: Game.ModelProvider
        /// The save folder; `nil` plays without saving.
        public var store: SaveGameStore?
        /// How NPC replies are generated.
        public var options: GenerationOptions
        /// The most games at once; more are refused with 503 until one is deleted.
        public var maximumGames: Int
        /// The longest one NPC turn may take (`Game.turnTimeout`).
        public var turnTimeout: Duration
        /// How often a listener of a game's events (`GET /v1/games/{id}/events`) gets a heartbeat comment when nothing
        /// happens: 15 seconds by default.
        public var heartbeatInterval: Duration = .seconds(15)
        /// How many of a game's last events are kept for listeners that reconnect with `Last-Event-ID`: 1,000 by
        /// default.
        public var eventBacklog: Int = 1_000
        /// How long a game may go unused (no line, no request, no listener) before it is saved and ended, or `nil`
        /// (the default) to keep every game until it is deleted; see ``endIdleGames(at:)``.
        public var idleTimeout: Duration?
        /// How long one replay (`POST /v1/saves/{slot}/replay`, the inspector's replay form) may run before it answers
        /// with the turns replayed so far: `Inspector.defaultReplayTimeLimit` (two minutes) by default.
        public var replayTimeLimit: Duration = Inspector.defaultReplayTimeLimit
        /// How many autosaves to keep (`--keep-autosaves N`): after a game starts, the autosaves beyond the newest this
        /// many are deleted oldest first, never one a game plays; `nil` (the default) keeps them all.
        public var keptAutosaves: Int?
        /// What speaks the NPCs' lines (`--speech espeak`, `--speech-model URL`): each `speechEnded` event then
        /// carries its `audio` and `visemes`; `nil` (the default) for text alone.
        public var speech: APISpeech?
        /// What recognises spoken lines (`--listen pocketsphinx`, `--listen-model URL`), with its listening threshold
        /// and acting bar (`--listen-confidence`, `--listen-act-confidence`): `POST .../say` then also takes
        /// `audio/wav`; `nil` (the default) for typed lines alone. A setting of the server, not saved with its games.
        public var listening: APIListening?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - pack: The content pack.
        ///   - contentDirectory: The folder the pack was read from.
        ///   - models: Each NPC's model.
        ///   - store: The save folder, or `nil`.
        ///   - options: How NPC replies are generated.
        ///   - maximumGames: The most games at once (64 by default).
        ///   - turnTimeout: The longest one NPC turn may take.
        public init(
            pack: ContentPack, contentDirectory: URL? = nil, models: @escaping Game.ModelProvider,
            store: SaveGameStore?, options: GenerationOptions = GenerationOptions(), maximumGames: Int = 64,
            turnTimeout: Duration = Game.turnTimeout
        ) {
            self.pack = pack
            self.contentDirectory = contentDirectory
            self.models = models
            self.store = store
            self.options = options
            self.maximumGames = max(1, maximumGames)
            self.turnTimeout = turnTimeout
        }
    }

    /// How a game starts (`POST /v1/games`).
    public enum Start: Sendable, Equatable {
        /// A new game.
        case new
        /// The game saved in a slot.
        case load(String)
        /// The most recently saved game of the autosave family.
        case continueLast

        /// Reads a request body: `{}`, `{"load": "SLOT"}` or `{"continue": true}`.
        ///
        /// - Parameter body: The body.
        /// - Throws: `APIProblem` (400) for anything else.
        public init(json body: JSONValue) throws(APIProblem) {
            guard let object = body.objectValue else {
                throw .badRequest("The body must be a JSON object: {}, {\"load\": \"SLOT\"} or {\"continue\": true}.")
            }
            let known = ["load", "continue", "state"]
            if let unknown = object.keys.first(where: { !known.contains($0) }) {
                throw .badRequest(
                    "Unknown field \"\(unknown)\": a new game takes {}, {\"load\": \"SLOT\"} or {\"continue\": true}, "
                        + "each with an optional {\"state\": …}.")
            }
            switch (object["load"], object["continue"]) {
            case (nil, nil), (nil, .bool(false)?): self = .new
            case (let slot?, nil): self = .load(try APIGames.slotName(slot, member: "load"))
            case (nil, .bool(true)?): self = .continueLast
            case (nil, _?): throw .badRequest("\"continue\" must be true or false.")
            default: throw .badRequest("Give either \"load\" or \"continue\", not both.")
            }
        }
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    var games: [String: APIGame] = [:]
    /// The ids of the games that ended, so a late request hears that its game ended rather than that it never was.
    private(set) var ended: Set<String> = []
    /// The most games the process's file descriptors leave room for (``gameLimit(descriptors:)``), or `nil` when it
    /// has no limit.
    nonisolated let descriptorGameLimit: Int?
    /// The recogniser of spoken lines, with the vocabularies of the worlds played, when the server listens.
    nonisolated let listening: GameListening?
    /// Whether a game is being made; `waiting` holds the requests that came meanwhile.
    private var making = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Creates an empty set of games.
    ///
    /// - Parameter configuration: What every game is made with.
    public init(configuration: Configuration) {
        self.configuration = configuration
        listening = configuration.listening.map(GameListening.init(listening:))
        descriptorGameLimit = Self.descriptorLimit().map(Self.gameLimit(descriptors:))
    }

    /// How many games are being played.
    public var count: Int { games.count }

    /// Starts a game.
    ///
    /// - Parameters:
    ///   - start: New, loaded from a slot, or continued.
    ///   - patch: The game's own state, pushed in as it starts (`{"state": …}`): before a new game looks around, after
    ///     a save is loaded; `nil` for none.
    /// - Returns: The game and what it showed as it started (its first `look`, or the load's messages), after the
    ///   events of the pushed state's changes.
    /// - Throws: `APIProblem`: 503 when there are too many games or too few file descriptors left for another, 404
    ///   for a slot that does not exist, 409 for a slot another game is playing, 422 for a save that cannot be loaded
    ///   (damaged, of another world; it is left as it was), 422 for a pushed state that is not valid (nothing is
    ///   started).
    public func start(_ start: Start, state patch: StatePatch? = nil) async throws(APIProblem) -> (
        game: APIGame, events: [APIEvent]
    ) {
        do {
            try patch?.check(in: configuration.pack.initialState.world)
        } catch {
            throw .invalidState(error, at: "$.state")
        }
        if making { await withCheckedContinuation { waiting.append($0) } }
        making = true
        defer { if waiting.isEmpty { making = false } else { waiting.removeFirst().resume() } }
        guard games.count < configuration.maximumGames else {
            var problem = APIProblem(
                status: 503, title: "Too many games",
                detail: "\(games.count) games are being played, the most this server allows; DELETE one you no longer "
                    + "need, or start the server with a higher limit.")
            problem.headers["Retry-After"] = String(Self.retryAfterSeconds)
            throw problem
        }
        // Out of file descriptors, a game could open no save (and Foundation would hand out ids of zeros): refused
        // while there is still room to answer, and nothing is created.
        if let cap = descriptorGameLimit, games.count >= cap {
            throw outOfDescriptors(limit: Self.descriptorLimit())
        }
        guard Self.descriptorsAreFree() else { throw outOfDescriptors(limit: Self.descriptorLimit()) }
        let configuration = self.configuration
        let host = GameHost(
            pack: configuration.pack, models: configuration.models, store: configuration.store,
            options: configuration.options, contentDirectory: configuration.contentDirectory)
        do {
            try await host.claimSaves()
        } catch {
            throw APIProblem(status: 409, title: "Save folder in use", detail: "\(error)")
        }
        let id = newID()
        let game = APIGame(
            id: id, host: host, turnTimeout: configuration.turnTimeout,
            eventLog: GameEventLog(capacity: configuration.eventBacklog),
            slotOwner: { [weak self] slot in await self?.playingGame(slot: slot, except: id) },
            speech: configuration.speech)
        switch start {
        case .new:
            let (events, _) = await game.begin(continuing: false, state: patch)
            games[id] = game
            await pruneAutosaves(family: host.autosaveSlot)
            return (game, events)
        case .load(let slot):
            try await requireFree(slot, exists: true)
            let (events, loaded) = await game.load(slot: slot)
            guard loaded else {
                await host.close()
                throw APIProblem(status: 422, title: "Save cannot be loaded", detail: Self.problems(in: events))
            }
            games[id] = game
            await pruneAutosaves(family: host.autosaveSlot)
            return (game, events + (await Self.push(patch, to: game)))
        case .continueLast:
            guard let latest = configuration.store?.autosaveSlots(base: host.autosaveSlot).first?.slot else {
                await host.close()
                throw APIProblem(
                    status: 404, title: "Nothing to continue",
                    detail: "There is no saved game to continue yet: start a new one with {}.")
            }
            try await requireFree(latest, exists: true)
            let (events, loaded) = await game.load(slot: latest)
            guard loaded else {
                await host.close()
                throw APIProblem(status: 422, title: "Save cannot be loaded", detail: Self.problems(in: events))
            }
            games[id] = game
            await pruneAutosaves(family: host.autosaveSlot)
            return (game, events + (await Self.push(patch, to: game)))
        }
    }

    /// The game with this id.
    ///
    /// - Throws: `APIProblem` (404) when there is none.
    public func game(_ id: String) throws(APIProblem) -> APIGame {
        guard let game = games[id] else { throw ended.contains(id) ? .endedGame(id) : .unknownGame(id) }
        return game
    }

    /// Ends a game: what is not saved yet is saved, and its save is closed.
    ///
    /// - Throws: `APIProblem` (404) when there is no such game.
    public func end(_ id: String) async throws(APIProblem) {
        guard let game = games.removeValue(forKey: id) else { throw ended.contains(id) ? .endedGame(id) : .unknownGame(id) }
        ended.insert(id)
        await game.close()
    }

    /// Ends the streams of every game's listeners (`GET /v1/games/{id}/events`), for a server that is stopping: their
    /// clients reconnect later with `Last-Event-ID`. The games play on.
    public func closeEventStreams() {
        for game in games.values { game.eventLog.closeListeners() }
    }

    /// Ends every game, saving what is not saved yet: for shutting the server down.
    public func endAll() async {
        let all = games.values
        games = [:]
        for game in all { await game.close() }
    }

    /// The save slots of the folder, as `GET /v1/saves` lists them: slot, label, place, play time, when it was saved,
    /// and the id of the game playing it, if one is; a slot that cannot be read has its `error`.
    public func saves() async -> JSONValue {
        guard let store = configuration.store else { return .array([]) }
        var playing: [String: String] = [:]
        for (id, game) in games { playing[await game.host.activeAutosaveSlot] = id }
        let formatter = ISO8601DateFormatter()
        return .array(
            store.list().map { summary in
                var object = JSONObject([("slot", .string(summary.slot))])
                if let metadata = summary.metadata {
                    object["label"] = .string(metadata.label)
                    object["world"] = .string(metadata.worldID)
                    object["player"] = .string(metadata.playerName)
                    object["location"] = .string(metadata.locationName)
                    object["playTimeSeconds"] = .integer(metadata.playTime.components.seconds)
                    object["savedAt"] = .string(formatter.string(from: metadata.updatedAt))
                }
                if let error = summary.error { object["error"] = .string("\(error)") }
                object["game"] = playing[summary.slot].map(JSONValue.string) ?? .null
                return .object(object)
            })
    }

    /// Deletes the autosaves beyond ``Configuration/keptAutosaves``, oldest first, sparing every slot a game plays.
    private func pruneAutosaves(family base: String) async {
        guard let kept = configuration.keptAutosaves, let store = configuration.store else { return }
        var played: Set<String> = []
        for game in games.values { played.insert(await game.host.activeAutosaveSlot) }
        store.pruneAutosaves(base: base, keeping: kept, sparing: played)
    }

    /// Refuses a slot that another game plays, or (when `exists`) that holds no save.
    private func requireFree(_ slot: String, exists: Bool) async throws(APIProblem) {
        let name = SaveGameStore.sanitizedSlotName(slot) ?? slot
        for (id, game) in games where await game.host.activeAutosaveSlot == name {
            throw APIProblem(
                status: 409, title: "Save in use",
                detail: "Slot \(name) is being played by game \(id); end that game first (DELETE /v1/games/\(id)).")
        }
        if exists, configuration.store?.exists(slot: slot) != true {
            throw APIProblem(
                status: 404, title: "Unknown save", detail: "There is no save in slot \(slot); GET /v1/saves lists them.")
        }
    }

    /// Pushes a state checked already into a game that was loaded, and returns its events.
    private static func push(_ patch: StatePatch?, to game: APIGame) async -> [APIEvent] {
        guard let patch else { return [] }
        return (try? await game.push(patch)) ?? []
    }

    /// The problems a failed load showed, as one detail.
    private static func problems(in events: [APIEvent]) -> String {
        let details = events.filter { $0.type == .problem }.compactMap { $0.fields["detail"]?.stringValue }
        return details.isEmpty ? "The save could not be loaded." : details.joined(separator: " ")
    }
}

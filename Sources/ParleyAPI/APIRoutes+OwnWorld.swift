import Foundation
import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyJSON
import ParleySpeech
import ParleyServer
import SaveGames

// The routes a game with a world of its own uses (docs/api.md, "Use Parley with your game's own world"): pushing its
// state.

extension APIRoutes {
    /// Adds the routes of a game's own world: `PATCH /v1/games/{id}/state`.
    ///
    /// - Parameters:
    ///   - router: The router to add them to.
    ///   - games: The games.
    static func addOwnWorldRoutes(to router: inout HTTPRouter, games: APIGames) {
        router.patch("/v1/games/{id}/state") { request in
            try await answering {
                let game = try await game(request, in: games)
                guard let patch = try statePatch(in: try body(of: request)) else {
                    throw APIProblem.badRequest("The body must be a state to push: {\"player\": {\"gold\": 40}}, say.")
                }
                let events = try await game.push(patch)
                return .json(["events": .array(events.map(\.json)), "state": .object(await game.state())] as JSONValue)
            }
        }
    }

    /// The state patch in a request's JSON (`nil` when there is none).
    ///
    /// - Parameters:
    ///   - json: The patch's JSON, or `nil`.
    ///   - prefix: Its path in the request's body, for the problems' paths.
    /// - Throws: ``APIProblem``: 400 when it is not an object, 422 listing every problem of its members.
    static func statePatch(in json: JSONValue?, at prefix: String = "$") throws(APIProblem) -> StatePatch? {
        guard let json else { return nil }
        guard json.objectValue != nil else {
            throw APIProblem.badRequest(
                "A state must be a JSON object, such as {\"player\": {\"gold\": 40}}, not \(json.typeName).")
        }
        do {
            return try StatePatch(json: json)
        } catch {
            throw .invalidState(error, at: prefix)
        }
    }
}

// MARK: - Talking to an NPC directly

extension APIRoutes {
    /// Adds `POST /v1/games/{id}/npcs/{npc}/say` and `GET /v1/games/{id}/npcs`.
    static func addDirectSpeechRoutes(to router: inout HTTPRouter, games: APIGames) {
        router.get("/v1/games/{id}/npcs") { request in
            try await answering {
                let game = try await game(request, in: games)
                return .json(["npcs": .array(await game.npcs())] as JSONValue)
            }
        }
        router.post("/v1/games/{id}/npcs/{npc}/say") { request in
            try await answering {
                let game = try await game(request, in: games)
                let npc = try await self.npc(request, of: game)
                if isWAV(request.headers["Content-Type"]) {
                    let heard = try await hear(request, in: game, games: games)
                    return await respond(
                        to: request, game: game, games: games,
                        run: { emit in
                            (await game.say(heard.heard, understood: heard.understood, to: npc, emit: emit), true)
                        })
                }
                let line = try line(in: request)
                return await respond(
                    to: request, game: game, games: games,
                    run: { emit in (await game.say(line, to: npc, emit: emit), true) })
            }
        }
    }

    /// The NPC a request's path names, one of the world's.
    ///
    /// - Throws: ``APIProblem`` (404, with a did-you-mean) when the world has no such NPC.
    static func npc(_ request: HTTPServerRequest, of game: APIGame) async throws(APIProblem) -> NPCID {
        let id = request.pathParameters["npc"] ?? ""
        let world = await game.world()
        guard world.npcs[NPCID(id)] == nil else { return NPCID(id) }
        let guess = Suggestions.closest(to: id, in: world.npcs.keys.map(\.rawValue).sorted())
        throw APIProblem(
            status: 404, title: "Unknown NPC",
            detail: "There is no NPC \"\(id)\" in this world" + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? "")
                + "; GET /v1/games/\(game.id)/npcs lists them.")
    }

    /// Whether a `Content-Type` names a WAV file: `audio/wav`, `audio/wave`, `audio/x-wav` or `audio/vnd.wave`.
    static func isWAV(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = (contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
        return ["audio/wav", "audio/wave", "audio/x-wav", "audio/vnd.wave"].contains(mediaType.lowercased())
    }

    /// Recognises the spoken line of a request's `audio/wav` body in the game's world, before the line takes its
    /// place among the game's lines (recognition takes a while; the game goes on meanwhile).
    ///
    /// - Throws: ``APIProblem``: 415 when the server does not listen, 400 for a body that is not a WAV file of 16-bit
    ///   PCM (or lasts over a minute), 503 when recognition fails (pocketsphinx missing, a transcription server down).
    static func hear(
        _ request: HTTPServerRequest, in game: APIGame, games: APIGames
    ) async throws(APIProblem) -> (heard: HeardSpeech, understood: Bool) {
        guard let listening = games.listening else {
            throw APIProblem(
                status: 415, title: "Unsupported media type",
                detail: "This server does not listen to speech: start it with --listen pocketsphinx or --listen-model "
                    + "URL, or send the line as {\"text\": \"...\"} with Content-Type: application/json.")
        }
        let audio: SpeechAudio
        do {
            audio = try SpeechAudio(wav: Array(request.body))
        } catch {
            throw APIProblem.badRequest("The body is not a line of speech: \(error).")
        }
        let world = await game.world()
        do {
            let heard = try await listening.recognize(audio, in: world)
            return (heard, listening.isClear(heard))
        } catch {
            throw APIProblem(
                status: 503, title: "Speech not recognised",
                detail: "The line could not be recognised: \(error). Nothing was said to the NPC; send the line as text.")
        }
    }

    /// The line in a request's body, `{"text": "..."}`, as `/input` takes it: at most `maximumInputCharacters`
    /// characters, line breaks made spaces.
    ///
    /// - Throws: ``APIProblem``: 400 for another body, 413 for a line too long.
    static func line(in request: HTTPServerRequest) throws(APIProblem) -> String {
        guard let object = try body(of: request).objectValue, let text = object["text"]?.stringValue else {
            throw APIProblem.badRequest("The body must be {\"text\": \"...\"}: a line as the player types it.")
        }
        guard text.count <= maximumInputCharacters else {
            throw APIProblem(
                status: 413, title: "Line too long",
                detail: "A line has at most \(maximumInputCharacters) characters, and this one has \(text.count).")
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Runs a line's turn and answers with its events: as JSON (`{"events", "ended"}`), or as server-sent events
    /// ending with `done` when the request accepts `text/event-stream`. The line runs to its end even if the client
    /// leaves while it streams.
    ///
    /// - Parameters:
    ///   - request: The request, for its `Accept`.
    ///   - game: The game.
    ///   - games: The games, to end the game when the line quit it.
    ///   - run: Runs the line, passing each event to `emit` as it happens; returns every event, and `false` when the
    ///     game ended.
    static func respond(
        to request: HTTPServerRequest, game: APIGame, games: APIGames,
        run: @escaping @Sendable (_ emit: @escaping @Sendable (APIEvent) -> Void) async -> ([APIEvent], Bool)
    ) async -> HTTPServerResponse {
        guard wantsEventStream(request) else {
            let (events, goesOn) = await run { _ in }
            if !goesOn { try? await games.end(game.id) }
            return .json(["events": .array(events.map(\.json)), "ended": .bool(!goesOn)] as JSONValue)
        }
        let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        // Not a child of the response's task: a client that leaves does not take back the player's turn.
        Task {
            let (_, goesOn) = await run { event in
                continuation.yield(ServerSentEvent(event: event.type.rawValue, data: event.json.jsonString()))
            }
            if !goesOn { try? await games.end(game.id) }
            continuation.yield(
                ServerSentEvent(event: "done", data: (["ended": .bool(!goesOn)] as JSONValue).jsonString()))
            continuation.finish()
        }
        return .eventStream(events)
    }

    /// Whether a request asks for server-sent events rather than JSON: `Accept` prefers `text/event-stream` by its
    /// quality values (`text/event-stream;q=0` does not; without `Accept`, or with `*/*`, JSON).
    static func wantsEventStream(_ request: HTTPServerRequest) -> Bool {
        request.preferredMediaType(among: ["application/json", "text/event-stream"]) == "text/event-stream"
    }
}

// MARK: - Listening to a game

extension APIRoutes {
    /// Adds `GET /v1/games/{id}/events`: every event of the game as server-sent events, to any number of listeners;
    /// and `GET /v1/games/{id}/audio/{eventId}`: a spoken line's WAV, named by its `speechEnded` event.
    static func addListeningRoutes(to router: inout HTTPRouter, games: APIGames) {
        router.get("/v1/games/{id}/audio/{eventId}") { request in
            try await answering {
                let game = try await game(request, in: games)
                let eventID = request.pathParameters["eventId"] ?? ""
                guard let audio = game.audio else {
                    throw APIProblem(
                        status: 404, title: "No audio",
                        detail: "This server does not speak NPC lines: start it with --speech espeak or "
                            + "--speech-model URL.")
                }
                guard let number = Int(eventID), let wav = audio.wav(id: number) else {
                    throw APIProblem(
                        status: 404, title: "No audio",
                        detail: "Game \(game.id) has no audio for event \(eventID): only the audio URL of a speech "
                            + "or speechEnded event names one, and only the last \(audio.speech.keptLines) lines' "
                            + "are kept.")
                }
                return .bytes(Data(wav), contentType: "audio/wav")
            }
        }
        router.get("/v1/games/{id}/events") { request in
            try await answering {
                let game = try await game(request, in: games)
                let items = game.eventLog.listen(
                    after: try lastEventID(of: request), heartbeat: games.configuration.heartbeatInterval)
                return .eventStream { writer in
                    // A first line at once, so a client knows it listens before anything happens.
                    try await writer.sendComment("listening to game \(game.id)")
                    for await item in items {
                        switch item {
                        case .event(let id, let event):
                            try await writer.send(
                                ServerSentEvent(
                                    event: event.type.rawValue, data: event.json.jsonString(), id: String(id)))
                        case .missed(let count):
                            let missed = APIEvent(.eventsMissed, JSONObject([("count", .integer(count))]))
                            try await writer.send(
                                ServerSentEvent(event: missed.type.rawValue, data: missed.json.jsonString()))
                        case .heartbeat:
                            try await writer.sendComment("heartbeat")
                        case .ended:
                            let ended = APIEvent(.ended, JSONObject([("game", .string(game.id))]))
                            try await writer.send(
                                ServerSentEvent(event: ended.type.rawValue, data: ended.json.jsonString()))
                        }
                    }
                }
            }
        }
    }

    /// The number in a request's `Last-Event-ID`, or `nil` without one (or an empty one). Digits too many for an
    /// `Int` are beyond every id this stream sends: `Int.max`, which missed nothing.
    ///
    /// - Throws: ``APIProblem`` (400) when it is not a whole number written in digits alone (this stream's ids are).
    static func lastEventID(of request: HTTPServerRequest) throws(APIProblem) -> Int? {
        guard let text = request.headers["Last-Event-ID"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let id = Int(text) ?? Optional(Int.max)
        else {
            throw APIProblem.badRequest(
                "Last-Event-ID must be the id of an event this stream sent, a whole number, not \"\(text)\"; leave it "
                    + "out to listen from now on.")
        }
        return id
    }
}

// MARK: - Telling NPCs what happened

extension APIRoutes {
    /// Adds `POST /v1/games/{id}/events`: the game tells its NPCs what happened.
    static func addWorldEventRoutes(to router: inout HTTPRouter, games: APIGames) {
        router.post("/v1/games/{id}/events") { request in
            try await answering {
                let game = try await game(request, in: games)
                let json = try body(of: request)
                guard json.objectValue != nil else {
                    throw APIProblem.badRequest(
                        "The body must be an event: {\"text\": \"The player draws a sword.\", \"witnesses\": \"here\"}."
                    )
                }
                let world = await game.world()
                let event: WorldEvent
                do throws(WorldEventError) {
                    event = try WorldEvent(json: json)
                    try event.check(in: world)
                } catch {
                    throw APIProblem.invalidEvent(error)
                }
                return await respond(
                    to: request, game: game, games: games, run: { emit in (await game.tell(event, emit: emit), true) })
            }
        }
    }
}

extension APIProblem {
    /// `422 Invalid event`: an event that was refused, every problem in `detail` and in `errors`
    /// (`[{"path", "detail"}]`).
    static func invalidEvent(_ error: WorldEventError) -> APIProblem {
        var problem = APIProblem(
            status: 422, title: "Invalid event",
            detail: "The event was not told to anyone: "
                + error.problems.map(\.description).joined(separator: "; ") + ".")
        problem.extensions["errors"] = .array(
            error.problems.map { ["path": .string($0.path), "detail": .string($0.message)] as JSONValue })
        return problem
    }
}

// MARK: - Games beside one another

extension APIRoutes {
    /// Adds `GET /v1/games`: the games being played.
    static func addGameListRoutes(to router: inout HTTPRouter, games: APIGames) {
        router.get("/v1/games") { _ in .json(["games": .array(await games.list())] as JSONValue) }
    }

    /// Refuses a save into a slot another game is playing: it would replace that game's save, conversations and all.
    ///
    /// - Throws: ``APIProblem`` (409 `save-in-use`) naming the other game.
    static func refuseSlotInUse(_ slot: String, by game: APIGame, in games: APIGames) async throws(APIProblem) {
        let stored = SaveGameStore.sanitizedSlotName(slot) ?? slot
        guard let other = await games.playingGame(slot: stored, except: game.id) else { return }
        throw APIProblem(
            status: 409, title: "Save in use",
            detail: "Slot \(stored) is being played by game \(other); nothing was saved. Save to another slot, or end "
                + "that game first (DELETE /v1/games/\(other)).")
    }
}

extension APIProblem {
    /// ``headers`` as the server's header fields, sorted by name.
    var headerFields: HTTPFields {
        HTTPFields(headers.sorted { $0.key < $1.key }.map { HTTPFields.Field(name: $0.key, value: $0.value) })
    }
}

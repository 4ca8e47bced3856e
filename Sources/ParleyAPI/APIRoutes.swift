import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyInspector
import ParleyJSON
import ParleyServer
import SaveGames

/// The game API of `parley serve`, under `/v1`: JSON in and out, errors as `application/problem+json`, the events of
/// a line streamed as server-sent events on request; with a save folder, the inspector's pages (`/inspect`) and the
/// saves' JSON (`/v1/saves/{slot}/…`, ``InspectorRoutes``) too. docs/api.md documents every endpoint and event, and
/// docs/openapi.json describes them for tools.
///
/// ```swift
/// let games = APIGames(configuration: .init(pack: pack, models: models, store: store))
/// let server = try HTTPServer(configuration: .init(port: 8080), router: APIRoutes.router(for: games))
/// print(server.baseURL)
/// ```
public enum APIRoutes {
    /// The longest line of input a client may send, in characters: a line a player types, not a document.
    public static let maximumInputCharacters = 2_000

    /// The routes of the API over a set of games.
    ///
    /// - Parameter games: The games the API plays.
    /// - Returns: The router.
    public static func router(for games: APIGames) -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/v1/health") { _ in
            .json(
                [
                    "status": "ok", "version": .string(ParleyVersion.current), "games": .integer(await games.count),
                ] as JSONValue)
        }
        router.post("/v1/games") { request in
            try await answering {
                let json = try body(of: request, emptyIs: [:])
                let start = try APIGames.Start(json: json)
                let (game, events) = try await games.start(
                    start, state: try statePatch(in: json["state"], at: "$.state"))
                var object = JSONObject([("id", .string(game.id))])
                object["events"] = .array(events.map(\.json))
                object["state"] = .object(await game.state())
                return .json(.object(object), status: .created, headers: ["Location": "/v1/games/\(game.id)"])
            }
        }
        router.get("/v1/games/{id}") { request in
            try await answering { .json(.object(try await game(request, in: games).state())) }
        }
        router.delete("/v1/games/{id}") { request in
            try await answering {
                try await games.end(request.pathParameters["id"] ?? "")
                return .noContent()
            }
        }
        router.post("/v1/games/{id}/input") { request in
            try await answering { try await input(request, games: games) }
        }
        router.post("/v1/games/{id}/save") { request in
            try await answering {
                let game = try await game(request, in: games)
                guard let object = try body(of: request).objectValue, let member = object["slot"] else {
                    throw APIProblem.badRequest("The body must be {\"slot\": \"NAME\"}: the slot to save to.")
                }
                // The slot is a value, whole: never read again as a typed `save` line, which would split it at spaces.
                let slot = try APIGames.slotName(member, member: "slot")
                try await refuseSlotInUse(slot, by: game, in: games)
                let events = await game.save(slot: slot)
                if let problem = events.first(where: { $0.type == .problem }) {
                    throw APIProblem(
                        status: 422, title: "Not saved", detail: problem.fields["detail"]?.stringValue ?? "Not saved.")
                }
                let stored = SaveGameStore.sanitizedSlotName(slot) ?? slot
                return .json(["slot": .string(stored), "events": .array(events.map(\.json))] as JSONValue)
            }
        }
        router.post("/v1/games/{id}/actions/{callId}") { request in
            try await answering { try await answerAction(request, games: games) }
        }
        router.get("/v1/saves") { _ in .json(["saves": await games.saves()] as JSONValue) }
        router.get("/v1/games/{id}/transcript/{npc}") { request in
            try await answering {
                let game = try await game(request, in: games)
                let npc = request.pathParameters["npc"] ?? ""
                let annotated: AnnotatedTranscript?
                do {
                    annotated = try await game.transcript(of: NPCID(npc))
                } catch {
                    throw APIProblem(status: 500, title: "Conversation cannot be read", detail: "\(error)")
                }
                guard let annotated else {
                    throw APIProblem(
                        status: 404, title: "No conversation",
                        detail: "The player has not talked to \"\(npc)\" in this game; GET /v1/games/\(game.id) names "
                            + "the NPCs here, by id.")
                }
                let wantsAnnotations = try wantsAnnotations(request)
                let text = wantsAnnotations ? annotated.jsonString() : annotated.transcript.jsonString()
                return .json(text)
            }
        }
        addOwnWorldRoutes(to: &router, games: games)
        addDirectSpeechRoutes(to: &router, games: games)
        addListeningRoutes(to: &router, games: games)
        addWorldEventRoutes(to: &router, games: games)
        addGameListRoutes(to: &router, games: games)
        if let store = games.configuration.store {
            let configuration = games.configuration
            let inspector = Inspector(
                store: store,
                replay: .init(
                    pack: configuration.pack, models: configuration.models, modelName: "the server's model",
                    timeLimit: configuration.replayTimeLimit))
            InspectorRoutes.register(
                on: &router, inspector: inspector, playingGame: { slot in await games.playingGame(slot: slot) })
        }
        router.get("/v1/games/{id}/feedback") { request in
            try await answering {
                let game = try await game(request, in: games)
                do {
                    return .json(["reports": .array(try await game.feedback())] as JSONValue)
                } catch {
                    throw APIProblem(status: 500, title: "Feedback cannot be read", detail: "\(error)")
                }
            }
        }
        return router
    }

    // MARK: - Handlers

    /// `POST /v1/games/{id}/input`: the line's events as JSON, or as server-sent events with
    /// `Accept: text/event-stream`. The line runs to its end even if the client leaves while it streams.
    static func input(_ request: HTTPServerRequest, games: APIGames) async throws -> HTTPServerResponse {
        let game = try await game(request, in: games)
        let line = try line(in: request)
        return await respond(to: request, game: game, games: games) { emit in await game.input(line, emit: emit) }
    }

    /// `POST /v1/games/{id}/actions/{callId}`: the game's answer to an NPC's call of one of its actions, `{"output":
    /// ANY}` or `{"error": "..."}`. `204` when the call was waiting for it; it never waits for the game's lines.
    static func answerAction(_ request: HTTPServerRequest, games: APIGames) async throws -> HTTPServerResponse {
        let game = try await game(request, in: games)
        let callID = request.pathParameters["callId"] ?? ""
        let usage = "The body must be {\"output\": ...} (any JSON: the action's result) or {\"error\": \"...\"}."
        guard let object = try body(of: request).objectValue else { throw APIProblem.badRequest(usage) }
        if let unknown = object.keys.first(where: { $0 != "output" && $0 != "error" }) {
            throw APIProblem.badRequest("Unknown field \"\(unknown)\". " + usage)
        }
        let answer: GameActionAnswer
        switch (object["output"], object["error"]) {
        case (let output?, nil): answer = .output(output)
        case (nil, .string(let error)?) where !error.allSatisfy(\.isWhitespace): answer = .error(error)
        case (nil, _?): throw APIProblem.badRequest("\"error\" must be a non-empty string: what went wrong. " + usage)
        case (_?, _?): throw APIProblem.badRequest("Send \"output\" or \"error\", not both. " + usage)
        case (nil, nil): throw APIProblem.badRequest(usage)
        }
        guard game.answerAction(callID, with: answer) else {
            throw APIProblem(
                status: 404, title: "Unknown action call",
                detail:
                    "No call \"\(callID)\" of game \(game.id) is waiting for an answer: it was answered already, its "
                    + "time ran out (the NPC went on without it), its action does not await an answer, or there never "
                    + "was one. Answer the callId of an action event whose \"await\" is true, within its timeoutSeconds."
            )
        }
        return .noContent()
    }

    /// The game a request names.
    static func game(_ request: HTTPServerRequest, in games: APIGames) async throws(APIProblem) -> APIGame {
        try await games.game(request.pathParameters["id"] ?? "")
    }

    /// The request's body as JSON: `emptyIs` for an empty body, when given. A body must say it is JSON
    /// (`Content-Type: application/json`): a page of another site can send `text/plain` or a form without asking first,
    /// and nothing it sends that way is read.
    static func body(of request: HTTPServerRequest, emptyIs empty: JSONValue? = nil) throws(APIProblem) -> JSONValue {
        if request.body.isEmpty, let empty { return empty }
        if !request.body.isEmpty, !isJSON(request.headers["Content-Type"]) {
            let sent = request.headers["Content-Type"].map { "as \(String($0.prefix(100)).debugDescription)" }
            throw APIProblem(
                status: 415, title: "Unsupported media type",
                detail: "The body is sent \(sent ?? "without a Content-Type"), but this endpoint reads JSON: send it "
                    + "with Content-Type: application/json (curl --json).")
        }
        do {
            return try JSONValue(parsing: Array(request.body))
        } catch {
            throw APIProblem.badRequest("The body is not JSON: \(error)")
        }
    }

    /// Whether a `Content-Type` names JSON: `application/json`, with or without parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// Whether `GET …/transcript/{npc}` asks for the annotated transcript: `?annotated=` `1`, `true` or `yes`; `0`
    /// or `false`, or none, for the plain one.
    ///
    /// - Throws: ``APIProblem`` (400) for any other value, which would otherwise be read as a silent "no".
    static func wantsAnnotations(_ request: HTTPServerRequest) throws(APIProblem) -> Bool {
        guard let value = request.query["annotated"] else { return false }
        switch value {
        case "1", "true", "yes": return true
        case "0", "false": return false
        default:
            throw APIProblem.badRequest(
                "annotated must be 1, true or yes (the annotated transcript), or 0 or false (the plain one), not "
                    + "\"\(value)\".")
        }
    }

    /// Runs a handler, answering an `APIProblem` as `application/problem+json`.
    static func answering(_ body: () async throws -> HTTPServerResponse) async throws -> HTTPServerResponse {
        do {
            return try await body()
        } catch let problem as APIProblem {
            return .problem(
                ProblemDetails(
                    HTTPStatus(problem.status), detail: problem.detail, title: problem.title, type: problem.type,
                    extensions: problem.extensions), headers: problem.headerFields)
        }
    }
}

import GameWorld
import ParleyEngine
import ParleyJSON
import ParleyServer

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

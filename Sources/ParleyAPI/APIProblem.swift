import ParleyJSON

/// A request the game API could not carry out, as `parley serve` answers it: an HTTP status with an RFC 9457 problem
/// (`application/problem+json`) whose `detail` says what happened and what to do.
public struct APIProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// A short, fixed summary of the kind of problem (`Unknown game`).
    public var title: String
    /// The kind of problem as a URI a program can branch on: `urn:parley:problem:` and the title in lower-case
    /// words joined by hyphens (`urn:parley:problem:unknown-game`). docs/api.md lists them.
    public var type: String {
        let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }
        return "urn:parley:problem:" + words.joined(separator: "-")
    }
    /// What happened to this request, and what to do.
    public var detail: String
    /// More members of the problem's JSON object (RFC 9457 extension members), for example a refused state's
    /// `errors`; none by default.
    public var extensions: JSONObject = JSONObject()
    /// Header fields the answer carries besides the problem's (`Retry-After` on a `503`); none by default.
    public var headers: [String: String] = [:]

    /// Creates a problem.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - title: The kind of problem.
    ///   - detail: What happened and what to do.
    public init(status: Int, title: String, detail: String) {
        self.status = status
        self.title = title
        self.detail = detail
    }

    /// `404 Unknown game`.
    static func unknownGame(_ id: String) -> APIProblem {
        APIProblem(
            status: 404, title: "Unknown game",
            detail: "There is no game \"\(id)\": it was never started, or it was deleted. Start one with POST /v1/games.")
    }

    /// `404 Game ended`, for a game that was deleted or quit.
    static func endedGame(_ id: String) -> APIProblem {
        APIProblem(
            status: 404, title: "Game ended",
            detail: "The game \"\(id)\" has ended (DELETE, a line that quit, or left idle past the server's idle "
                + "timeout) and was saved. Start another with POST /v1/games, or continue it with {\"continue\": true}.")
    }

    /// `400 Bad request`, for a body that is not what the endpoint takes.
    static func badRequest(_ detail: String) -> APIProblem {
        APIProblem(status: 400, title: "Bad request", detail: detail)
    }

    /// `title (status): detail`.
    public var description: String { "\(title) (\(status)): \(detail)" }
}

/// A request the inspector could not carry out: an HTTP status, a fixed title and a detail that says what happened
/// and what to do. The JSON endpoints answer it as an RFC 9457 problem, whose `type` is `urn:parley:problem:` and the
/// title's words (as the game API's are); the pages, as an error page saying the same.
public struct InspectorProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// A short, fixed summary of the kind of problem (`Unknown save`).
    public var title: String
    /// What happened, and what to do.
    public var detail: String

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

    /// The kind of problem as a URI a program can branch on, for example `urn:parley:problem:unknown-save`.
    public var type: String {
        "urn:parley:problem:" + title.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
    }

    /// `title (status): detail`.
    public var description: String { "\(title) (\(status)): \(detail)" }

    /// `400 Bad request`.
    static func badRequest(_ detail: String) -> InspectorProblem {
        InspectorProblem(status: 400, title: "Bad request", detail: detail)
    }

    /// `404 No conversation`.
    static func noConversation(slot: String, npc: String) -> InspectorProblem {
        InspectorProblem(
            status: 404, title: "No conversation",
            detail:
                "The save in slot \(slot) has no conversation with \"\(npc)\"; GET /v1/saves/\(slot) names the NPCs "
                + "talked to, by id.")
    }

    /// `403 Cross-site request`, for a form that did not come from the inspector's own page.
    static let crossSite = InspectorProblem(
        status: 403, title: "Cross-site request",
        detail: "This form did not come from the inspector's own page (its origin or its form token is not this "
            + "server's), so it was refused. Reload the inspector's page and send the form from there.")
}

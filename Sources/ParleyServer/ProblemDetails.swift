import Foundation
import ParleyJSON

/// An error response in the RFC 9457 format, `application/problem+json`: what went wrong, for programs and
/// for people.
///
/// Throw one from a handler, or return it with ``HTTPServerResponse/problem(_:headers:)``; the server's own
/// errors (malformed requests, limits, timeouts, authentication) are problems too.
///
/// ```swift
/// throw ProblemDetails(.notFound, detail: "No game has the id \(id). Start one with POST /v1/games.")
/// ```
///
/// gives
///
/// ```json
/// {"type":"about:blank","title":"Not Found","status":404,"detail":"No game has the id g7. Start one with POST /v1/games."}
/// ```
///
/// `detail` is for people: say what happened and what to do. `type` is for programs: leave it `about:blank`
/// (the status says it all) or give a URI naming the kind of problem; `title` then names that kind.
public struct ProblemDetails: Error, Sendable, Hashable, CustomStringConvertible {
    /// The media type of the body, `application/problem+json`.
    public static let mediaType = "application/problem+json"

    /// A URI naming the kind of problem; `about:blank` when the status is enough.
    public var type: String
    /// A short summary of the kind of problem, the same for every occurrence; the status's reason phrase by
    /// default.
    public var title: String
    /// The HTTP status of the response.
    public var status: HTTPStatus
    /// What happened this time and what to do, for people; `nil` for none.
    public var detail: String?
    /// A URI naming this occurrence, for example the request's path; `nil` for none.
    public var instance: String?
    /// More members of the JSON object, after the standard ones; a member named like a standard one is ignored.
    public var extensions: JSONObject

    /// Creates a problem.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - detail: What happened and what to do.
    ///   - title: The kind of problem; `nil` uses the status's reason phrase.
    ///   - type: A URI naming the kind of problem.
    ///   - instance: A URI naming this occurrence.
    ///   - extensions: More members of the JSON object.
    public init(
        _ status: HTTPStatus,
        detail: String? = nil,
        title: String? = nil,
        type: String = "about:blank",
        instance: String? = nil,
        extensions: JSONObject = JSONObject()
    ) {
        self.status = status
        self.detail = detail
        self.title = title ?? status.reasonPhrase
        self.type = type
        self.instance = instance
        self.extensions = extensions
    }

    /// The JSON object: `type`, `title`, `status`, `detail` and `instance` when set, then ``extensions``.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .integer(status.code)),
        ]
        if let detail { members.append(("detail", .string(detail))) }
        if let instance { members.append(("instance", .string(instance))) }
        let standard: Set = ["type", "title", "status", "detail", "instance"]
        for (key, value) in extensions where !standard.contains(key) {
            members.append((key, value))
        }
        return .object(JSONObject(members))
    }

    /// The JSON document, encoded as UTF-8.
    public var jsonData: Data { Data(json.jsonData()) }

    /// The status and the detail, for example `404 Not Found: No game has the id g7.`
    public var description: String {
        detail.map { "\(status): \($0)" } ?? "\(status)"
    }
}

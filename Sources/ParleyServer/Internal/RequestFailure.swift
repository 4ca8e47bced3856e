/// A request the server refuses before (or instead of) running a handler: the problem to answer with, and the
/// header fields that go with it (`Allow`, `WWW-Authenticate`).
struct RequestFailure: Error {
    let problem: ProblemDetails
    var headers: HTTPFields = [:]
    /// Whether the connection is still in step after this failure of framing: nothing about the body was
    /// ambiguous (411: no body was announced at all), so the next request can follow.
    var keepsFramingInStep = false

    init(_ status: HTTPStatus, _ detail: String, headers: HTTPFields = [:]) {
        problem = ProblemDetails(status, detail: detail)
        self.headers = headers
    }

    static func badRequest(_ detail: String) -> RequestFailure {
        RequestFailure(.badRequest, detail)
    }
}

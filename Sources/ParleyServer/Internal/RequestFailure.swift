/// A request the server refuses before (or instead of) running a handler: the problem to answer with, and the
/// header fields that go with it (`Allow`, `WWW-Authenticate`).
struct RequestFailure: Error {
    let problem: ProblemDetails
    var headers: HTTPFields = [:]

    init(_ status: HTTPStatus, _ detail: String, headers: HTTPFields = [:]) {
        problem = ProblemDetails(status, detail: detail)
        self.headers = headers
    }

    init(problem: ProblemDetails, headers: HTTPFields = [:]) {
        self.problem = problem
        self.headers = headers
    }

    static func badRequest(_ detail: String) -> RequestFailure {
        RequestFailure(.badRequest, detail)
    }
}

import HTTPTestSupport

extension RawClient {
    /// Reads exactly `count` complete responses (or fewer, if the server closes first or sends something
    /// malformed); the first `headRequests` answer `HEAD` requests.
    func readResponses(_ count: Int, headRequests: Int = 0) async -> [RawResponse] {
        let received = await read { bytes in
            (try? RawResponse.parseAll(bytes, headRequests: headRequests).responses.count) ?? 0 >= count
        }
        return (try? RawResponse.parseAll(received.bytes, headRequests: headRequests).responses) ?? []
    }

    /// Reads one complete response; `nil` when the server closed or timed out first, or it is malformed.
    func readResponse() async -> RawResponse? {
        await readResponses(1).first
    }
}

import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// What comes back is not always what was asked for: a whole answer to a streaming request, a proxy's or captive
/// portal's web page, a redirect, a rate limit. Each is used when it can be, and otherwise said clearly; retries
/// and waits are announced to whoever waits.
@Suite(.timeLimit(.minutes(10))) struct ServerAnswerTests {
    static let portal = """
        <!DOCTYPE html>
        <html><head><title>Sign in to Harbour Cafe Wi-Fi</title></head>
        <body><form action="/login">Accept the terms to continue.</form></body></html>
        """

    func error(streaming: Bool, _ session: LanguageModelSession) async -> (any Error)? {
        do {
            if streaming {
                _ = try await session.streamResponse(to: "hi").collect()
            } else {
                _ = try await session.respond(to: "hi")
            }
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Whole answers to streaming requests

    @Test func aWholeChatCompletionAnsweringAStreamingRequestIsUsed() async throws {
        let server = try LoopbackHTTPServer(.json(ServerTest.completion("Hello there, traveller.")))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let response = try await session.streamResponse(to: "hi").collect()
        #expect(response.content == "Hello there, traveller.")
        #expect(response.generationUsage?.completionTokens == 3)
        let body = try JSONValue(parsing: Array(try #require(ServerTest.chatRequests(server).first).body))
        #expect(body["stream"] == true)
    }

    @Test func aJSONDocumentThatIsNotAChatCompletionSaysWhatCameBack() async throws {
        let server = try LoopbackHTTPServer(.json(#"{"status":"ok","version":"1.0"}"#))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let error = try #require(await error(streaming: true, session) as? ModelServerError)
        #expect(error == .invalidResponse)
        #expect(error.description.contains("a stream of events"), "\(error)")
        #expect(error.description.contains("a JSON document that is not a chat completion"), "\(error)")
        #expect(error.description.contains(#""status":"ok""#), "\(error)")
        #expect(session.transcript.count == 1)
    }

    // MARK: - Web pages and redirects

    @Test(arguments: [false, true])
    func aCaptivePortalPageSaysSoWithItsStatusAndTitle(streaming: Bool) async throws {
        let server = try LoopbackHTTPServer(
            .respond(status: 200, headers: [("Content-Type", "text/html")], body: Data(Self.portal.utf8)))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let error = try #require(await error(streaming: streaming, session) as? ModelServerError)
        #expect(error == .webPage)
        #expect(error.status == 200)
        #expect(error.description.contains("web page (HTML) (HTTP 200)"), "\(error)")
        #expect(error.description.contains("Sign in to Harbour Cafe Wi-Fi"), "\(error)")
        #expect(error.description.contains("captive portal"), "\(error)")
    }

    @Test func aPortalPageWithoutAContentTypeIsRecognizedToo() async throws {
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data(Self.portal.utf8)))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let error = try #require(await error(streaming: true, session) as? ModelServerError)
        #expect(error == .webPage, "\(error)")
    }

    @Test(arguments: [false, true])
    func aProxysErrorPageSaysSoAndIsRetried(streaming: Bool) async throws {
        let server = try LoopbackHTTPServer(
            .respond(
                status: 502, headers: [("Content-Type", "text/html")],
                body: Data("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>".utf8)))
        let session = LanguageModelSession(model: try ServerTest.model(server, retries: 1), instructions: "x")
        let error = try #require(await error(streaming: streaming, session) as? ModelServerError)
        #expect(error == .webPage)
        #expect(error.status == 502)
        #expect(error.description.contains("502 Bad Gateway"), "\(error)")
        #expect(ServerTest.chatRequests(server).count == 2)
    }

    @Test func aRedirectSaysWhereItPointsAndIsNotFollowed() async throws {
        let server = try LoopbackHTTPServer(
            .respond(status: 302, headers: [("Location", "http://portal.example/login?token=abc")], body: Data()))
        let session = LanguageModelSession(model: try ServerTest.model(server, retries: 2), instructions: "x")
        let error = try #require(await error(streaming: true, session) as? ModelServerError)
        #expect(error == .redirected)
        #expect(error.description.contains("http://portal.example/login"), "\(error)")
        #expect(!error.description.contains("token=abc"))
        #expect(ServerTest.chatRequests(server).count == 1)
    }

    // MARK: - Rate limits

    @Test func aRateLimitIsWaitedOutAsTheServerAsksAndAnnounced() async throws {
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            return count.next() == 1
                ? .respond(
                    status: 429, headers: [("Retry-After", "1")], body: Data(#"{"error":{"message":"slow"}}"#.utf8))
                : .json(ServerTest.completion("Done waiting."))
        }
        let session = LanguageModelSession(model: try ServerTest.model(server, retries: 2), instructions: "x")
        let (result, notices) = await ServerTest.collectingNotices {
            try await session.respond(to: "hi").content
        }
        #expect(try result.get() == "Done waiting.")
        #expect(notices.map(\.reason) == [.rateLimited])
        #expect(
            notices.first?.description == "the server is rate limiting; waiting 1 s as it asks, then trying again 2/3")
        #expect(ServerTest.chatRequests(server).count == 2)
    }

    @Test(arguments: ["120", "HTTP-date"])
    func aRateLimitLongerThanTheTurnHasLeftFailsAtOnceSayingSo(retryAfter: String) async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let value = retryAfter == "HTTP-date" ? formatter.string(from: Date().addingTimeInterval(3_600)) : retryAfter
        let server = try LoopbackHTTPServer(
            .respond(status: 429, headers: [("Retry-After", value)], body: Data(#"{"error":{"message":"busy"}}"#.utf8)))
        let session = LanguageModelSession(model: try ServerTest.model(server, retries: 3), instructions: "x")
        let (result, notices) = await ServerTest.collectingNotices(deadline: .now + .seconds(30)) {
            try await session.streamResponse(to: "hi").collect().content
        }
        #expect(throws: LanguageModelError.self) { try result.get() }
        guard case .failure(LanguageModelError.rateLimited(let info)) = result else {
            Issue.record("not rate limited: \(result)")
            return
        }
        #expect(info.debugDescription.contains("is rate limiting"), "\(info.debugDescription)")
        #expect(info.debugDescription.contains("more than the time left for this turn"), "\(info.debugDescription)")
        #expect(info.debugDescription.contains("It asks to wait \(retryAfter == "120" ? "120" : "3")"))
        #expect(info.resetDate != nil)
        #expect(notices.isEmpty)
        #expect(ServerTest.chatRequests(server).count == 1)
    }

    // MARK: - Retries

    @Test func retriesAreAnnouncedWithTheirNumber() async throws {
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            return count.next() < 3
                ? .json(#"{"error":{"message":"loading model"}}"#, status: 503)
                : .eventStream(ServerTest.stream(["Back", " again."]))
        }
        let session = LanguageModelSession(model: try ServerTest.model(server, retries: 2), instructions: "x")
        let (result, notices) = await ServerTest.collectingNotices {
            try await session.streamResponse(to: "hi").collect().content
        }
        #expect(try result.get() == "Back again.")
        #expect(
            notices.map(\.description) == [
                "the server failed (HTTP 503); trying again 2/3", "the server failed (HTTP 503); trying again 3/3",
            ])
    }

    @Test func aServerThatDoesNotAnswerIsAnnouncedBeforeItIsAskedAgain() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let session = LanguageModelSession(
            model: try ServerTest.model(server, retries: 1, idle: .milliseconds(200)), instructions: "x")
        let (result, notices) = await ServerTest.collectingNotices {
            try await session.streamResponse(to: "hi").collect().content
        }
        guard case .failure(LanguageModelError.timeout) = result else {
            Issue.record("not a timeout: \(result)")
            return
        }
        // One retry: two attempts in all.
        #expect(notices.map(\.description) == ["the server did not answer; trying again 2/2"])
    }
}

/// `response.usage` from what an OpenAI-compatible server reports.
@Suite struct ServerUsageTests {
    static let completion = #"""
        {"choices":[{"index":0,"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],
         "usage":{"prompt_tokens":120,"completion_tokens":30,"prompt_tokens_details":{"cached_tokens":100},
                  "completion_tokens_details":{"reasoning_tokens":12}}}
        """#

    @Test func usageComesFromTheServersCounts() async throws {
        let server = try LoopbackHTTPServer(.json(Self.completion))
        defer { server.stop() }
        let session = LanguageModelSession(model: try ServerTest.model(server))
        let response = try await session.respond(to: "hi")
        #expect(response.usage.input == .init(totalTokenCount: 120, cachedTokenCount: 100))
        #expect(response.usage.output == .init(totalTokenCount: 30, reasoningTokenCount: 12))
        #expect(response.generationUsage?.reasoningTokens == 12)
        try await session.respond(to: "again")
        #expect(session.usage.input.totalTokenCount == 240 && session.usage.input.cachedTokenCount == 200)
    }

    @Test func streamedUsageToo() async throws {
        let usage: JSONValue = [
            "choices": [], "usage": ["prompt_tokens": 50, "completion_tokens": 4, "prompt_tokens_details": ["cached_tokens": 40]],
        ]
        let chunks = Array(ServerTest.stream(["Hel", "lo."]).dropLast()) + ["data: " + usage.jsonString() + "\n\n", "data: [DONE]\n\n"]
        let server = try LoopbackHTTPServer(.eventStream(chunks, interval: .zero))
        defer { server.stop() }
        let session = LanguageModelSession(model: try ServerTest.model(server))
        let response = try await session.streamResponse(to: "hi").collect()
        #expect(response.content == "Hello.")
        #expect(response.usage.input == .init(totalTokenCount: 50, cachedTokenCount: 40))
        #expect(response.usage.output.totalTokenCount == 4)
    }
}

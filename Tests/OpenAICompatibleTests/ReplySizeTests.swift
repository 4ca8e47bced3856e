import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// A reply may be as large as the request allows and no larger: a server that ignores `max_tokens` (or something
/// else at its address) cannot put ten megabytes in a transcript, a save or a recording.
@Suite(.timeLimit(.minutes(10))) struct ReplySizeTests {
    static let tenMegabytes = String(repeating: "blah ", count: 2 << 20)
    static let options = GenerationOptions(maximumResponseTokens: 200)

    /// Runs a turn, streamed or not, and returns its error.
    func failure(
        _ session: LanguageModelSession, streaming: Bool, options: GenerationOptions = options
    ) async -> (any Error)? {
        do {
            if streaming {
                _ = try await session.streamResponse(to: "Tell me everything.", options: options).collect()
            } else {
                _ = try await session.respond(to: "Tell me everything.", options: options)
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func aWholeReplyLargerThanMaxTokensAllowsIsRefused() async throws {
        let server = try LoopbackHTTPServer(.json(ServerTest.completion(Self.tenMegabytes)))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let error = try #require(await failure(session, streaming: false) as? ModelServerError)
        #expect(error == .responseTooLarge)
        #expect(error.description.contains("200 tokens (max_tokens)"), "\(error)")
        #expect(session.transcript.count == 1)
    }

    @Test(arguments: [false, true])
    func aStreamedReplyLargerThanMaxTokensAllowsIsCutOff(inOneLine: Bool) async throws {
        // Ten megabytes in events of 64 KB, or in one line that never ends: either way the turn fails early.
        let piece = String(repeating: "a", count: 64 << 10)
        let chunks =
            inOneLine
            ? ["data: " + String(repeating: "b", count: 10 << 20)]
            : Array(repeating: ServerTest.chunk(["content": .string(piece)]), count: 160)
        let server = try LoopbackHTTPServer(.eventStream(chunks, ending: .hang))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        var shown = 0
        var caught: (any Error)?
        do {
            for try await snapshot in session.streamResponse(to: "Tell me everything.", options: Self.options) {
                shown = snapshot.content.utf8.count
            }
        } catch {
            caught = error
        }
        let error = try #require(caught as? ModelServerError)
        #expect(error == .responseTooLarge, "\(error)")
        #expect(shown <= 64 << 10)
        #expect(session.transcript.count == 1)
    }

    @Test(arguments: [false, true])
    func withoutMaxTokensTheConfiguredCapHolds(streaming: Bool) async throws {
        let twoMegabytes = String(repeating: "z", count: 2 << 20)
        let server = try LoopbackHTTPServer(
            streaming
                ? .eventStream(ServerTest.stream(Array(repeating: String(twoMegabytes.prefix(32 << 10)), count: 64)))
                : .json(ServerTest.completion(twoMegabytes)))
        let session = LanguageModelSession(
            model: try ServerTest.model(server, maximumReplyBytes: 1 << 20), instructions: "x")
        let error = try #require(
            await failure(session, streaming: streaming, options: GenerationOptions()) as? ModelServerError)
        #expect(error == .responseTooLarge)
        #expect(error.description.contains("maximumReplyBytes"), "\(error)")
    }

    @Test(arguments: [false, true])
    func aReplyWithinTheLimitIsKept(streaming: Bool) async throws {
        // 200 tokens allow at least 64 KiB: a reply of 60 KB is long but allowed.
        let long = String(repeating: "w", count: 60_000)
        let server = try LoopbackHTTPServer(
            streaming
                ? .eventStream(ServerTest.stream(Array(repeating: String(long.prefix(6_000)), count: 10)))
                : .json(ServerTest.completion(long)))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        #expect(await failure(session, streaming: streaming) == nil)
        #expect(session.transcript.count == 3)
    }

    @Test(arguments: [false, true])
    func aHugeErrorBodyIsQuotedNotBuffered(streaming: Bool) async throws {
        // An error page of ten megabytes that never ends: only its start is read, and the error quotes less.
        let server = try LoopbackHTTPServer(
            .stream(
                status: 500, headers: [("Content-Type", "text/plain")],
                chunks: Array(repeating: Data(String(repeating: "e", count: 1 << 20).utf8), count: 10),
                interval: .zero, ending: .hang))
        let session = LanguageModelSession(model: try ServerTest.model(server), instructions: "x")
        let error = try #require(await failure(session, streaming: streaming) as? ModelServerError)
        #expect(error == .serverError)
        #expect(error.status == 500)
        #expect(error.description.utf8.count < 2_000)
    }

    @Test func limitsFollowMaxTokensWithAFloorAndACap() {
        #expect(ReplyLimits(maximumTokens: 200, hardCap: 8 << 20).contentBytes == 64 << 10)
        #expect(ReplyLimits(maximumTokens: 100_000, hardCap: 8 << 20).contentBytes == 3_200_000)
        #expect(ReplyLimits(maximumTokens: nil, hardCap: 8 << 20).contentBytes == 8 << 20)
        let huge = ReplyLimits(maximumTokens: .max, hardCap: .max)
        #expect(huge.contentBytes == .max)
        #expect(huge.wholeBodyBytes == .max)
        #expect(huge.streamBytes == .max)
        #expect(ReplyLimits(maximumTokens: -5, hardCap: 8 << 20).contentBytes == 64 << 10)
    }
}

import Foundation
import HTTPTestSupport
import ParleyJSON
import Testing

/// `parley play --model URL` voices NPCs through the server (`--voice grounded`, the default): the server's line is
/// shown when it keeps the planned facts, and a server that hangs or fails never stalls or spoils the game.
@Suite(.timeLimit(.minutes(10))) struct VoicingCommandTests {
    static let content = packageRoot.appendingPathComponent("Content").path

    /// A chat server that voices the planned line after a word of its own, as a whole chat completion (grounded
    /// voicing does not stream).
    static func echoingVoice() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
            let prompt = ChatStreams.lastUserMessage(request).split(separator: "\n")
            let line = prompt.last { $0.hasPrefix("Reply: ") }?.dropFirst("Reply: ".count) ?? ""
            let reply: JSONValue = [
                "choices": [["index": 0, "message": ["role": "assistant", "content": .string("Well now, " + line)],
                    "finish_reason": "stop"]],
                "usage": ["prompt_tokens": 90, "completion_tokens": 12, "total_tokens": 102],
            ]
            return .json(reply.jsonString())
        }
    }

    /// The recordings of a save, exported as JSON.
    static func recordings(in saves: String, work: TemporaryFolder) async throws -> [JSONValue] {
        let out = work.url.appendingPathComponent("recordings.json").path
        let export = try await ParleyProcess.run(
            ["recordings", "export", "autosave", "--saves", saves, "--out", out], in: work.url)
        #expect(export.status == 0, "\(export.err)")
        return try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: out)))).arrayValue ?? []
    }

    @Test func theServersLineIsSaidWhenItKeepsTheFacts() async throws {
        let server = try Self.echoingVoice()
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let run = try await ParleyProcess.run(
            [
                "play", "--content", Self.content, "--saves", saves, "--model", server.baseURL + "/v1",
                "--first-words-deadline", "60",
            ], in: work.url, input: "talk to mira\nhow much is the lantern?\nquit\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Mira Quickcoin: Well now, "), "\(run.out)")
        #expect(run.out.contains("25 gold"), "\(run.out)")
        let recordings = try await Self.recordings(in: saves, work: work)
        #expect(recordings.count == 2)
        for recording in recordings {
            #expect(recording["voicing"]?["outcome"]?.stringValue == "voiced", "\(recording)")
            #expect(recording["voicing"]?["planned"]?.stringValue?.isEmpty == false)
        }
        // The annotated transcript says so too.
        let transcript = try await ParleyProcess.run(
            ["transcript", "autosave", "mira", "--saves", saves, "--json", "--annotated"], in: work.url)
        #expect(transcript.out.contains(#""voicing": "voiced""#), "\(transcript.out)")
    }

    /// `parley play` against a server at `url`, in a fresh folder, with a first-words deadline; returns the run and
    /// the recordings of its autosave.
    static func play(
        url: String, deadline: String, input: String
    ) async throws -> (run: ParleyProcess.Run, recordings: [JSONValue]) {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let run = try await ParleyProcess.run(
            [
                "play", "--content", content, "--saves", saves, "--model", url + "/v1", "--first-words-deadline",
                deadline,
            ], in: work.url, input: input)
        return (run, try await recordings(in: saves, work: work))
    }

    @Test func aServerThatHangsIsAnsweredByThePlannedLineAndTheGameGoesOn() async throws {
        let server = try ChatServer(.fault(.hang))
        let (run, recordings) = try await Self.play(
            url: server.server.baseURL, deadline: "0.5", input: "talk to mira\nhow much is the lantern?\nlook\nquit\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("25 gold"), "\(run.out)")
        #expect(!run.out.contains("did not answer"), "\(run.out)")
        #expect(run.out.components(separatedBy: "Market Square\n").count == 3, "\(run.out)")
        #expect(recordings.count == 2)
        for recording in recordings {
            #expect(recording["voicing"]?["outcome"]?.stringValue == "fellBack")
            #expect(recording["voicing"]?["reason"]?.stringValue == "deadline")
        }
    }

    @Test func aServerThatFailsIsAnsweredByThePlannedLine() async throws {
        let server = try ChatServer(.fault(.json(#"{"error":{"message":"bad request"}}"#, status: 400)))
        let (run, recordings) = try await Self.play(
            url: server.server.baseURL, deadline: "60", input: "talk to mira\nhow much is the lantern?\nquit\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("25 gold"), "\(run.out)")
        #expect(recordings.last?["voicing"]?["reason"]?.stringValue == "error", "\(recordings)")
    }

    @Test(arguments: ["loud", ""]) func anUnknownVoiceIsAUsageError(value: String) async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(["play", "--voice", value], in: work.url, input: "quit\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--voice must be grounded or free"), "\(run.err)")
    }

    @Test(arguments: ["0", "-1", "abc", "601"]) func anAbsurdDeadlineIsAUsageError(value: String) async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(["eval", "--first-words-deadline", value], in: work.url)
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--first-words-deadline must be a number of seconds"), "\(run.err)")
    }
}

import CommandLineKit
import Foundation
import ParleyAPI
import Testing

@testable import parley

/// `parley serve`'s listening options as the command line gives them: `--listen-act-confidence X` sets the acting bar
/// of the listening the server is started with, the recogniser's own when it is left out.
@Suite struct ServeListeningTests {
    /// The listening a `parley serve` command line asks for (a transcription server: nothing is loaded or contacted).
    static func listening(_ options: [String]) async throws -> APIListening? {
        let outcome = CommandLineTool(root: ParleyCommand.root).parse(["serve"] + options)
        guard case .run(_, let path, let arguments) = outcome else {
            Issue.record("not a command to run: \(outcome)")
            return nil
        }
        let context = CommandContext(
            arguments: arguments, commandPath: path, environment: [:], standardOutput: { _ in },
            standardError: { _ in })
        return try await ServeListening.listening(context)
    }

    static let server = ["--listen-model", "http://127.0.0.1:1/v1#whisper-1"]

    @Test func theActingBarIsTheOptionsValue() async throws {
        let listening = try #require(try await Self.listening(Self.server + ["--listen-act-confidence", "0.75"]))
        #expect(listening.minimumActingConfidence == 0.75)
        // The listening threshold stays the recogniser's own.
        #expect(listening.minimumConfidence == listening.recognizer.minimumConfidence)
        let both = try #require(
            try await Self.listening(
                Self.server + ["--listen-confidence", "0.3", "--listen-act-confidence=0.9"]))
        #expect(both.minimumConfidence == 0.3)
        #expect(both.minimumActingConfidence == 0.9)
    }

    @Test func withoutTheOptionTheBarIsTheRecognisersOwn() async throws {
        let listening = try #require(try await Self.listening(Self.server))
        #expect(listening.minimumActingConfidence == listening.recognizer.minimumActingConfidence)
        #expect(listening.minimumActingConfidence > listening.minimumConfidence)
    }

    @Test func aBarOutsideZeroToOneIsAUsageMistake() {
        let outcome = CommandLineTool(root: ParleyCommand.root).parse(
            ["serve"] + Self.server + ["--listen-act-confidence", "1.5"])
        guard case .usageError(let error, _, _) = outcome else {
            Issue.record("1.5 was taken: \(outcome)")
            return
        }
        #expect(error.message.contains("from 0 to 1"), "\(error.message)")
    }
}

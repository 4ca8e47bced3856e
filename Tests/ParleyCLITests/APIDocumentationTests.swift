import ChildProcess
import Foundation
import ParleyBasics
import ParleyJSON
import Testing

/// docs/api.md's curl session is true: each command runs, with the real `curl`, against the built `parley serve`,
/// and every JSON member the documentation shows (`"key":value`, a scalar value) is in the real answer; a value with
/// `…` in it stands for what the documentation leaves out, and is compared up to the `…`.
@Suite(.timeLimit(.minutes(10))) struct APIDocumentationTests {
    /// One documented command and the answer shown after it, if any.
    struct Step: CustomStringConvertible {
        var command: String
        var answer: String?
        var description: String { command }
    }

    /// The commands of the `console` block under a heading of docs/api.md: "A session with curl" by default.
    static func session(under heading: String = "## A session with curl") throws -> [Step] {
        let text = try String(
            contentsOf: ParleyBinary.packageRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let section = try #require(text.range(of: heading))
        let rest = text[section.upperBound...]
        let open = try #require(rest.range(of: "```console\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        var steps: [Step] = []
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2))))
            } else if !line.isEmpty, !steps.isEmpty {
                steps[steps.count - 1].answer = String(line)
            }
        }
        return steps
    }

    /// The members of a documented answer that must be in the real one: `"key":value` with a scalar value, as the
    /// server writes JSON (no spaces); a string value with `…` is cut there.
    static func fragments(of answer: String) -> [String] {
        let pattern = #/"(?:[^"\\]|\\.)*":(?:"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?|true|false|null)/#
        return answer.matches(of: pattern).map { match in
            let fragment = String(match.output)
            guard let ellipsis = fragment.firstIndex(of: "…") else { return fragment }
            return String(fragment[..<ellipsis])
        }
    }

    @Test func theCurlSessionInTheDocsIsWhatTheServerAnswers() async throws {
        let curl = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(curl, "curl is not installed: scripts/install-deps installs it")
        let steps = try Self.session()
        #expect(steps.count >= 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServedParley.with(saves: folder.appendingPathComponent("saves"), token: nil) { server in
            try await Self.run(steps, curl: path, on: server)
            // Stopped by SIGTERM, it saves every game and exits with status 0.
            #expect(await server.stop() == .exited(0))
        }
    }

    /// Runs the steps with curl against the server, checking each answer.
    static func run(_ steps: [Step], curl path: String, on server: ServedParley) async throws {
        var game = ""
        for step in steps {
            var environment = ProcessInfo.processInfo.environment
            environment["URL"] = server.baseURL
            environment["GAME"] = game
            let command = step.command.replacingOccurrences(of: "curl ", with: "\(path) --max-time 60 ")
            let variables = environment
            let run = try await offThePool {
                try ChildProcess.run("/bin/sh", arguments: ["-c", command], environment: variables)
            }
            let output = String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(run.termination.status == 0, "\(step): \(String(decoding: run.error, as: UTF8.self))")
            if game.isEmpty, step.command.contains("$URL/v1/games --json") {
                game = (try? JSONValue(parsing: output))?["id"]?.stringValue ?? ""
                #expect(!game.isEmpty, "\(step): \(output)")
            }
            guard let answer = step.answer else {
                #expect(output.isEmpty, "\(step) answers nothing in the docs, but: \(output)")
                continue
            }
            #expect((try? JSONValue(parsing: output)) != nil, "\(step) did not answer JSON: \(output)")
            let fragments = Self.fragments(of: answer)
            #expect(!fragments.isEmpty, "\(step): the docs show no member to compare")
            for fragment in fragments {
                #expect(output.contains(fragment), "\(step): \(fragment) is not in \(output.prefix(600))")
            }
        }
    }
}

/// `parley serve` beyond loopback only with a token: without one it refuses to start, before it listens.
@Suite struct ServeCommandTests {
    @Test func anotherHostThanLoopbackNeedsAToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runParley(["serve", "--host", "0.0.0.0", "--port", "0", "--saves", folder.path])
        #expect(run.status == 1)
        #expect(run.out.isEmpty, "it printed a URL: \(run.out)")
        #expect(run.err.contains("token"), "\(run.err)")
    }

    @Test(arguments: [
        (["--speech-voice", "alloy"], "--speech-voice needs --speech-model"),
        (["--speech", "espeak", "--speech-model", "http://127.0.0.1:1/v1"], "not both"),
        (["--speech-model", "ftp://127.0.0.1/v1#kokoro"], "not an http or https URL"),
        (["--speech", "piper"], "--speech"),
        (["--listen-confidence", "0.5"], "--listen-confidence needs --listen or --listen-model"),
        (["--listen", "pocketsphinx", "--listen-model", "http://127.0.0.1:1/v1"], "not both"),
        (["--listen-model", "ftp://127.0.0.1/v1#whisper-1"], "not an http or https URL"),
        (["--listen", "whisper"], "--listen"),
        (["--listen", "pocketsphinx", "--listen-confidence", "1.5"], "from 0 to 1"),
        (["--listen-act-confidence", "0.5"], "--listen-act-confidence needs --listen or --listen-model"),
    ])
    func speechAndListeningOptionsThatCannotWorkAreRefusedSayingWhy(options: [String], message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runParley(["serve", "--port", "0", "--saves", folder.path] + options)
        #expect(run.status != 0)
        #expect(run.out.isEmpty, "it printed a URL: \(run.out)")
        #expect(run.err.contains(message), "\(run.err)")
    }

    @Test func aTokenTooShortIsRefusedSayingWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runParley(["serve", "--port", "0", "--saves", folder.path, "--token", "short"])
        #expect(run.status == 1)
        #expect(run.err.contains("16"), "\(run.err)")
    }
}

import Foundation
import ParleyEngine
import Testing

/// A `--model` URL that cannot be right is refused when the command starts, saying what is wrong, instead of
/// failing at every turn.
@Suite(.timeLimit(.minutes(2))) struct ModelURLTests {
    @Test(arguments: [
        ("htp:/x", "starts with http:// or https://"),
        ("http://", "it has no host"),
        ("http:///v1", "it has no host"),
        ("http://host:99999/v1", "its port 99999 is not a number from 1 to 65535"),
        ("http://host:0/v1", "its port 0 is not"),
        ("http://host:/v1", "its port is empty"),
        ("http://host:80x/v1", "its port 80x is not"),
        ("http://my host:8080/v1", "it contains a space"),
        ("http://127.0.0.1:8080/v1 extra", "it contains a space"),
        ("http://127.0.0.1:8080/v1\u{7}", "control character"),
        ("http://ho!st/v1", "its host contains \"!\""),
        ("http://[::1/v1", "lacks the closing ]"),
    ])
    func malformedServerURLsAreRefusedSayingWhy(specification: String, problem: String) throws {
        let error = try #require(throws: ModelChoice.InvalidSpecification.self) {
            try ModelChoice.parse(specification)
        }
        #expect(error.description.contains(problem), "\(error)")
        #expect(error.description.contains("is not a model"))
    }

    @Test(
        arguments: [
            ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1", nil),
            ("  https://api.example.com/v1  ", "https://api.example.com/v1", nil),
            ("http://127.0.0.1:11434/v1#llama3.2", "http://127.0.0.1:11434/v1", "llama3.2"),
            ("http://[::1]:8080/v1", "http://[::1]:8080/v1", nil),
            ("http://user:pass@llm.local:65535/v1", "http://user:pass@llm.local:65535/v1", nil),
            ("http://my_server/v1", "http://my_server/v1", nil),
        ] as [(String, String, String?)])
    func wellFormedServerURLsAreAccepted(specification: String, url: String, model: String?) throws {
        #expect(try ModelChoice.parse(specification) == .server(baseURL: url, model: model))
    }

    @Test(arguments: TurnTimeoutCommandTests.turnCommands, ["htp:/x", "http://host:99999/v1"])
    func everyCommandRefusesAMalformedModelURLAtStartUp(command: [String], model: String) throws {
        let work = TemporaryFolder()
        let run = try ParleyProcess.run(command + ["--model", model], in: work.url, input: "look\nquit\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("is not a model"), "\(run.err)")
        #expect(!run.out.contains("Your goal"), "the game started anyway")
    }
}

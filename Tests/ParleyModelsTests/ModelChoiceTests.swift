import ParleyModels
import Testing

/// `ModelChoice.parse` reads `scripted` and servers' URLs, and refuses a URL that cannot be right saying what is
/// wrong, without contacting anything.
@Suite struct ModelChoiceTests {
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

    @Test(arguments: ["scripted", " Scripted ", "SCRIPTED", ""])
    func scriptedIsTheEmbeddedModelWithTheSeedGiven(specification: String) throws {
        #expect(try ModelChoice.parse(specification, seed: 7) == .scripted(seed: 7))
    }

    @Test(arguments: ["scripted", "http://127.0.0.1:8080/v1", "http://127.0.0.1:11434/v1#llama3.2"])
    func aChoiceIsWrittenAsItIsParsed(specification: String) throws {
        #expect(try ModelChoice.parse(specification).description == specification)
    }
}

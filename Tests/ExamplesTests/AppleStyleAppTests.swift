import ChildProcess
import Foundation
import HTTPTestSupport
import ParleyJSON
import Testing

/// `Tests/Fixtures/AppleStyleApp`: Apple-style FoundationModels code (tools with `@Generable` arguments and output,
/// nested arrays and enumerations, a `PartiallyGenerated` stream, a `DynamicGenerationSchema` with `anyOf` and regex
/// patterns, `SystemLanguageModel.default`, `LanguageModelSession()`, transcripts read and restored), built from the
/// same files as a MainActor-default Xcode 26 app and as a nonisolated Swift 6 package, each run with the scripted
/// model and with a loopback server. Each app checks what it gets and exits with status 1 when a check fails.
///
/// scripts/test builds the fixture into its own scratch directory under this package's `.build` (the Parley modules
/// it links: minutes the first time); these tests build it again (seconds when nothing changed, so that they never
/// run stale apps) and are skipped when it was never built.
@Suite(
    .enabled(
        if: AppleStyleAppFixture.wasBuilt,
        """
        Tests/Fixtures/AppleStyleApp was not built: scripts/test builds it, or run 'swift build --package-path \
        Tests/Fixtures/AppleStyleApp --scratch-path .build/fixtures/AppleStyleApp'
        """))
struct AppleStyleAppTests {
    static let fixture = AppleStyleAppFixture.packageRoot.appendingPathComponent("Tests/Fixtures/AppleStyleApp")
    static let scratch = AppleStyleAppFixture.scratch
    static let variants = AppleStyleAppFixture.variants

    /// The fixture, brought up to date once per test run.
    static let build = Task<(status: Int32, out: String, err: String), any Error> {
        guard let swift = GenerationError26TraitTests.swiftOnPath() else {
            return (127, "", "no swift on PATH to build the fixture with")
        }
        return try await GenerationError26TraitTests.run(
            swift, ["build", "--package-path", fixture.path, "--scratch-path", scratch.path])
    }

    @Test("Both apps run every check with the scripted model", arguments: variants)
    func runsWithTheScriptedModel(variant: String) async throws {
        let run = try await Self.runApp(variant, model: "scripted")
        let lines = try Self.passed(run)
        // The scripted model never calls tools, and takes the first shape of an `anyOf`.
        #expect(lines.contains { $0.hasPrefix("ok tools: tool calls: 0,") }, "\(run.out)")
        #expect(lines.contains { $0.hasPrefix("ok dynamic: priority low, contact by Email") }, "\(run.out)")
        #expect(lines.contains("ok transcript: instructions 1, prompt 1, response 1"), "\(run.out)")
    }

    @Test("Both apps run every check against a loopback server", arguments: variants)
    func runsAgainstALoopbackServer(variant: String) async throws {
        let server = try Self.kitchenServer()
        defer { server.stop() }
        let run = try await Self.runApp(variant, model: server.url("/v1"))
        let lines = try Self.passed(run)
        // The server calls the tool once per turn with tools, and answers the ticket with a phone number.
        #expect(lines.contains { $0.hasPrefix("ok tools: tool calls: 1, 2 items") }, "\(run.out)")
        #expect(lines.contains("ok dynamic: priority urgent, contact by Phone, 2 tags"), "\(run.out)")
        #expect(
            lines.contains("ok transcript: instructions 1, prompt 1, response 1, toolCalls 1, toolOutput 1"),
            "\(run.out)")
        #expect(lines.contains("ok structured: 2 days of 4 meals, code SOU-42"), "\(run.out)")
        // What the apps asked the server for: each schema, the tool, a streamed plan, the tool's output sent back.
        let bodies = server.requests.filter { $0.path == "/v1/chat/completions" }.compactMap {
            try? JSONValue(parsing: $0.bodyText)
        }
        let schemas = Set(bodies.compactMap { $0["response_format"]?["json_schema"]?["name"]?.stringValue })
        #expect(schemas == ["MealPlan", "ShoppingList", "Ticket"])
        #expect(bodies.contains { $0["stream"]?.boolValue == true })
        #expect(
            bodies.contains { ($0["tools"]?.arrayValue ?? []).contains { $0["function"]?["name"] == "checkPantry" } })
        #expect(bodies.contains { ($0["messages"]?.arrayValue ?? []).contains { $0["role"] == "tool" } })
    }

    @Test("An app whose checks fail says which, and exits with status 1")
    func failedChecksFailTheApp() async throws {
        // No model configured: the availability check fails, and so does every use of the model.
        let unconfigured = try await Self.runApp(Self.variants[0], model: nil)
        #expect(unconfigured.status == 1, "\(unconfigured.out)\n\(unconfigured.err)")
        // `.notConfigured` matches Apple's first reason in a switch, `.deviceNotEligible` (docs/porting.md).
        #expect(
            unconfigured.out.hasPrefix("FAILED availability: the device cannot run the model\n"), "\(unconfigured.out)")
        #expect(unconfigured.out.contains("FAILED text: No model is configured"), "\(unconfigured.out)")
        #expect(unconfigured.out.contains("\n8 of 8 checks failed"), "\(unconfigured.out)")

        // A server whose plan breaks its pattern guide: the session refuses it, streamed or not.
        let server = try Self.kitchenServer(planCode: "soup")
        defer { server.stop() }
        let broken = try await Self.runApp(Self.variants[1], model: server.url("/v1"))
        #expect(broken.status == 1, "\(broken.out)\n\(broken.err)")
        let failed = broken.out.split(separator: "\n").filter { $0.hasPrefix("FAILED ") }.map {
            String($0.prefix { $0 != ":" })
        }
        #expect(failed == ["FAILED structured", "FAILED stream"], "\(broken.out)")
    }

    // MARK: - Running the apps

    /// Brings the fixture up to date, then runs one of its apps with `PARLEY_MODEL` set to `model` (or unset).
    static func runApp(_ variant: String, model: String?) async throws -> (status: Int32, out: String, err: String) {
        let build = try await Self.build.value
        try #require(build.status == 0, "the fixture did not build:\n\(build.out)\n\(build.err)")
        let warnings = (build.out + build.err).split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODEL"] = model
        let binary = scratch.appendingPathComponent("debug/\(variant)")
        return try await GenerationError26TraitTests.run(binary.path, [], environment: environment)
    }

    /// The lines of a run in which every check passed.
    static func passed(_ run: (status: Int32, out: String, err: String)) throws -> [String] {
        try #require(run.status == 0, "\(run.out)\n\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        for check in ["availability", "text", "structured", "tools", "stream", "dynamic", "transcript", "restore"] {
            #expect(lines.contains { $0.hasPrefix("ok \(check): ") }, "no '\(check)' check passed: \(run.out)")
        }
        #expect(lines.last == "all 8 checks passed", "\(run.out)")
        return lines
    }

    // MARK: - The loopback server

    /// A loopback OpenAI-compatible server with canned answers: a call of `checkPantry` for a turn with tools whose
    /// tool has not answered yet, the canned JSON for each schema the app asks for, text otherwise; streamed in
    /// small pieces when asked to stream.
    ///
    /// - Parameter planCode: The meal plan's `code`; one that breaks the pattern guide makes the app's plans fail.
    static func kitchenServer(planCode: String = "SOU-42") throws -> LoopbackHTTPServer {
        let canned: [String: String] = [
            "MealPlan": #"""
            {"title": "Two days of soup", "days": [
             {"day": 1, "meals": [{"name": "Porridge", "course": "breakfast", "ingredients": ["oats", "milk"]},
              {"name": "Leek soup", "course": "dinner", "ingredients": ["leeks"]}]},
             {"day": 2, "meals": [{"name": "Omelette", "course": "lunch", "ingredients": ["eggs"]},
              {"name": "Bean stew", "course": "dinner", "ingredients": ["beans", "carrots"]}]}],
             "effort": "moderate", "code": "\#(planCode)", "note": null}
            """#,
            "ShoppingList": #"{"items": ["milk", "butter"], "urgent": true}"#,
            "Ticket": #"""
            {"reference": "TKT-0042", "priority": "urgent", "contact": {"number": "+4412345678"},
             "tags": ["oven", "heating"]}
            """#,
        ]
        let calls = LoopbackCounter()
        return try LoopbackHTTPServer { request in
            switch request.path {
            case "/v1/models": return .json(#"{"object":"list","data":[{"id":"kitchen","object":"model"}]}"#)
            case "/v1/chat/completions": break
            default: return .text("not found", status: 404)
            }
            guard let body = try? JSONValue(parsing: request.bodyText) else { return .text("bad JSON", status: 400) }
            let messages = body["messages"]?.arrayValue ?? []
            let lastPrompt = messages.lastIndex { $0["role"] == "user" } ?? 0
            let toolAnswered = messages[lastPrompt...].contains { $0["role"] == "tool" }
            let stream = body["stream"]?.boolValue == true
            if !(body["tools"]?.arrayValue ?? []).isEmpty, !toolAnswered {
                guard !stream else { return .text("this server calls tools only in whole answers", status: 500) }
                let arguments = JSONValue.string(#"{"ingredients": ["flour", "eggs", "milk"], "course": "breakfast"}"#)
                return .json(
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_\#(calls.next())","#
                        + #""type":"function","function":{"name":"checkPantry","arguments":"# + arguments.jsonString()
                        + #"}}]},"finish_reason":"tool_calls"}]}"#)
            }
            let content: String
            if let name = body["response_format"]?["json_schema"]?["name"]?.stringValue {
                guard let answer = canned[name] else { return .text("no answer for the schema \(name)", status: 500) }
                content = answer
            } else {
                content = "Hello from the loopback kitchen."
            }
            guard stream else {
                return .json(
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":"#
                        + JSONValue.string(content).jsonString() + #"},"finish_reason":"stop"}]}"#)
            }
            let characters = Array(content)
            let pieces = stride(from: 0, to: characters.count, by: 16).map {
                String(characters[$0..<min($0 + 16, characters.count)])
            }
            return .eventStream(
                pieces.map {
                    #"data: {"choices":[{"index":0,"delta":{"content":"# + JSONValue.string($0).jsonString()
                        + "}}]}\n\n"
                } + [
                    #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n", "data: [DONE]\n\n",
                ])
        }
    }
}

/// The fixture's sources, which need no build to check.
@Suite struct AppleStyleAppSourceTests {
    static let fixture = AppleStyleAppFixture.packageRoot.appendingPathComponent("Tests/Fixtures/AppleStyleApp")

    @Test("Both apps are built from the same files, which import nothing of Parley's but FoundationModels")
    func bothAppsShareAppleStyleFiles() throws {
        let shared = Self.fixture.appendingPathComponent("App")
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".swift") }
            .sorted()
        #expect(files == ["App.swift", "Checks.swift", "Models.swift", "Tools.swift"])
        for target in ["MainActorApp", "NonisolatedApp"] {
            let directory = Self.fixture.appendingPathComponent("Sources/\(target)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == files, "\(target)")
            for file in files {
                let link = directory.appendingPathComponent(file).path
                #expect(
                    try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../../App/\(file)",
                    "\(target)/\(file)")
            }
        }
        for file in files {
            let source = try String(contentsOf: shared.appendingPathComponent(file), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
            #expect(imports.contains("import FoundationModels"), "\(file)")
            #expect(imports.allSatisfy { ["import Foundation", "import FoundationModels"].contains($0) }, "\(file)")
            for parleyOnly in ["PARLEY", "Parley", "configure(", "ScriptedLanguageModel", "LanguageModels."] {
                #expect(!source.contains(parleyOnly), "\(file) uses \(parleyOnly)")
            }
        }
    }
}

/// Where `Tests/Fixtures/AppleStyleApp` is built, and whether it was (outside the suite, which its `.enabled(if:)`
/// trait cannot refer to).
enum AppleStyleAppFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scratch = packageRoot.appendingPathComponent(".build/fixtures/AppleStyleApp")
    /// The fixture's two apps: the same sources under each isolation.
    static let variants = ["apple-style-app-mainactor", "apple-style-app-nonisolated"]

    /// Whether scripts/test (or someone) built the fixture.
    static var wasBuilt: Bool {
        variants.allSatisfy {
            FileManager.default.isExecutableFile(atPath: scratch.appendingPathComponent("debug/\($0)").path)
        }
    }
}

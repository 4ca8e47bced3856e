import ChildProcess
import Foundation
import Testing

/// The `FoundationModels26Errors` trait: `Tests/Fixtures/GenerationError26`, an app with Apple 26's `catch` clauses of
/// `LanguageModelSession.GenerationError` that depends on Parley with the trait, builds without warnings and, run,
/// catches each error in its 26.x form. (Without the trait, sessions throw Apple 27's types: LanguageModelsTests.)
///
/// The fixture is built with `swift build` into its own scratch directory under this package's `.build`, so later
/// runs reuse it; the first build compiles the modules it links (FoundationModels and what it depends on, with the
/// trait) and takes minutes on a busy machine.
@Suite struct GenerationError26TraitTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixture = packageRoot.appendingPathComponent("Tests/Fixtures/GenerationError26")
    static let scratch = packageRoot.appendingPathComponent(".build/fixtures/GenerationError26")

    @Test("With the trait, sessions throw GenerationError and 26-era catch clauses run")
    func catchClausesOfGenerationErrorRun() async throws {
        let swift = try #require(Self.swiftOnPath(), "no swift on PATH to build the fixture with")
        let build = try await Self.run(
            swift,
            [
                "build", "--package-path", Self.fixture.path, "--scratch-path", Self.scratch.path,
                "--product", "generation-error-26",
            ])
        try #require(build.status == 0, "the fixture did not build:\n\(build.out)\n\(build.err)")
        // Warnings are errors in the fixture's own target; Parley's modules, built with the trait, warn of nothing
        // either (a rebuild that compiled nothing prints no warnings, so this holds trivially then).
        let warnings = (build.out + build.err).split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")

        // No model configured, so that SystemLanguageModel.default is unavailable.
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODEL"] = nil
        let binary = Self.scratch.appendingPathComponent("debug/generation-error-26")
        let run = try await Self.run(binary.path, [], environment: environment)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "respond: caught GenerationError.exceededContextWindowSize",
                "stream: caught GenerationError.exceededContextWindowSize",
                "decoding: caught GenerationError.decodingFailure",
                "refusal: caught GenerationError.refusal: I cannot talk about the mill.",
                "system: caught GenerationError.assetsUnavailable",
                "tool: caught ToolCallError (Broken)",
            ], "\(run.out)\n\(run.err)")
    }

    /// The `swift` on `PATH`, the toolchain running these tests.
    static func swiftOnPath() -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a program to its end, off the cooperative pool.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (status: Int32, out: String, err: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let run = try ChildProcess.run(executable, arguments: arguments, environment: environment)
                    continuation.resume(
                        returning: (
                            run.termination.status, String(decoding: run.output, as: UTF8.self),
                            String(decoding: run.error, as: UTF8.self)
                        ))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

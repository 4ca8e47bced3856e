// An app written for Apple's FoundationModels: it checks that the system model is available, then runs each part of
// the framework it uses and checks what comes back. It asserts on the answers' structure (counts, enumerations,
// patterns, transcripts), never on their words, so that any model that follows the schemas passes. It prints one
// line per check and exits with status 1 when one fails.
import Foundation
import FoundationModels

/// A check that did not hold.
struct CheckFailed: Error, CustomStringConvertible {
    /// What did not hold.
    let description: String

    init(_ description: String) { self.description = description }
}

/// Throws `CheckFailed` with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailed(message()) }
}

@main
struct AppleStyleApp {
    static func main() async {
        var failures = 0
        var checks = 0
        func run(_ name: String, _ body: () async throws -> String) async {
            checks += 1
            do {
                print("ok \(name): \(try await body())")
            } catch {
                failures += 1
                print("FAILED \(name): \(error)")
            }
        }

        await run("availability") { try checkAvailability() }
        await run("text") { try await respondWithText() }
        await run("structured") { try await respondWithMealPlan() }
        var toolTranscript = Transcript()
        await run("tools") {
            let (summary, transcript) = try await respondWithTools()
            toolTranscript = transcript
            return summary
        }
        await run("stream") { try await streamMealPlan() }
        await run("dynamic") { try await respondWithDynamicSchema() }
        await run("transcript") { try readTranscript(toolTranscript) }
        await run("restore") { try await restoreSessions(from: toolTranscript) }

        print(failures == 0 ? "all \(checks) checks passed" : "\(failures) of \(checks) checks failed")
        exit(failures == 0 ? 0 : 1)
    }
}

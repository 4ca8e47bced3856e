import Foundation
import Testing

/// docs/api.md's walk-through "Use Parley with your game's own world" is what the server answers: its curl session
/// (pushing a state, a refused one, talking to NPCs directly, telling them what happened, listing the games) runs
/// against a real `parley serve`, and each JSON fragment shown must be in the real answer, as for the session above it
/// (`APIDocumentationTests`).
@Suite(.timeLimit(.minutes(10))) struct OwnWorldDocumentationTests {
    @Test func theOwnWorldWalkThroughIsWhatTheServerAnswers() async throws {
        let curl = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(curl, "curl is not installed: scripts/install-deps installs it")
        let steps = try APIDocumentationTests.session(under: "## Use Parley with your game's own world")
        #expect(steps.count >= 8)
        #expect(steps.contains { $0.command.contains("-X PATCH") })
        #expect(steps.contains { $0.command.contains("/events") })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServedParley.with(saves: folder.appendingPathComponent("saves"), token: nil) { server in
            try await APIDocumentationTests.run(steps, curl: path, on: server)
            #expect(await server.stop() == .exited(0))
        }
    }
}

import Foundation
import Testing

/// The `GenerableIsolation…Tests` targets compile one fixture file, each under its own settings: this target holds
/// it, the others a symbolic link to it (SwiftPM builds a linked file like any other).
@Suite struct SharedFixtureTests {
    @Test func everyTargetCompilesTheSameFixture() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let fixture = here.appendingPathComponent("AppleStyleGenerable.swift")
        let original = try Data(contentsOf: fixture)
        let targets = [
            "GenerableIsolationSwift5MainActorTests", "GenerableIsolationSwift5Tests",
            "GenerableIsolationNonisolatedTests",
        ]
        for target in targets {
            let link = here.deletingLastPathComponent().appendingPathComponent(target)
                .appendingPathComponent("AppleStyleGenerable.swift")
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
            #expect(destination == "../GenerableIsolationMainActorTests/AppleStyleGenerable.swift", "\(target)")
            #expect(try Data(contentsOf: link) == original, "\(target)")
        }
    }
}

import ContentPacks
import Foundation
import GameWorld

/// The shipped content pack, which scenario 1 plays: found in the package this tool was built in, or in
/// `Content/` under the current directory.
enum BenchContent {
    /// The package's root: three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Loads the shipped pack.
    ///
    /// - Returns: The pack.
    /// - Throws: `ContentErrors` when it has errors or cannot be found.
    static func shippedPack() throws -> ContentPack {
        let candidates = [packageRoot.appendingPathComponent("Content"), URL(fileURLWithPath: "Content")]
        let directory =
            candidates.first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent(ContentPack.worldFileName).path)
            } ?? candidates[1]
        return try ContentPack.load(from: directory, displayPath: "Content").get()
    }

    /// A temporary folder for a scenario's files, removed by `remove()`.
    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

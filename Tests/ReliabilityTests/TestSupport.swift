import ContentPacks
import Foundation
import GameWorld
import ParleyEngine
import Synchronization

/// The package's root, where `Content/` is.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The shipped content pack.
func shippedPack() throws -> ContentPack {
    try ContentPack.load(from: packageRoot.appendingPathComponent("Content"), displayPath: "Content").get()
}

/// A temporary folder, removed when released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-reliability-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Every regular file under the folder, recursively.
    var files: [URL] {
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}

/// What a game showed, kept from any task.
final class Screen: Sendable {
    private let outputs = Mutex<[GameOutput]>([])

    /// Keeps one piece of output.
    @Sendable func record(_ output: GameOutput) { outputs.withLock { $0.append(output) } }

    /// Everything shown so far.
    var all: [GameOutput] { outputs.withLock { $0 } }

    /// Everything shown, as text: each piece's description on its own line.
    var text: String { all.map { String(describing: $0) }.joined(separator: "\n") }

    /// Everything NPCs said, joined.
    var speech: String {
        all.compactMap { if case .speech(let text) = $0 { text } else { nil } }.joined()
    }

    /// The problems shown.
    var problems: [String] {
        all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
    }

    /// Forgets what was shown.
    func clear() { outputs.withLock { $0.removeAll() } }
}

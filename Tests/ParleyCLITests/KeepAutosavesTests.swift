import Foundation
import Testing

/// `parley play --keep-autosaves N`: each new game saves itself to a new autosave slot; once it has begun, the
/// autosaves beyond the newest N are deleted oldest first, never the one it plays and never a named slot.
@Suite(.serialized) struct KeepAutosavesTests {
    static func slots(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".parley") }
            .map { String($0.dropLast(".parley".count)) }.sorted()
    }

    @Test func playKeepsTheNewestAutosavesAndNamedSlots() async throws {
        let folder = PlayTests.Folder()
        let first = try await runParley(
            ["play", "--saves", folder.url.path, "--keep-autosaves", "2"], input: "save mine\nlook\n")
        #expect(first.status == 0, "\(first.err)")
        for _ in 0..<3 {
            let run = try await runParley(
                ["play", "--saves", folder.url.path, "--keep-autosaves", "2"], input: "look\n")
            #expect(run.status == 0, "\(run.err)")
        }
        // The third game pruned `autosave` (the oldest), so the fourth saved itself there and pruned `autosave-2`.
        #expect(try Self.slots(in: folder.url) == ["autosave", "autosave-3", "mine"])
        // The newest is the one --continue picks up.
        let continued = try await runParley(["play", "--saves", folder.url.path, "--continue"], input: "look\n")
        #expect(continued.out.contains("Loaded autosave: "))
    }

    @Test func aKeptNumberBelowOneIsAUsageError() async throws {
        let run = try await runParley(["play", "--keep-autosaves", "0"], input: "")
        #expect(run.status == 64)
        #expect(run.err.contains("--keep-autosaves"))
    }
}

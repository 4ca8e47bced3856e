import ContentPacks
import Foundation
import GameWorld
import SyntheticWorlds
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something other than a plain file where a content file is expected: a FIFO (which blocks a reader forever), a
/// device, a folder, a symbolic link loop or a broken link. Each is an error that says what it is, on its own
/// file, and loading neither hangs nor crashes.
@Suite struct ContentFileKindTests {
    /// What a test puts where a file is expected.
    enum Oddity: String, CaseIterable, CustomTestStringConvertible {
        case fifo, symbolicLinkLoop, twoLinkLoop, linkToDevice, folder, danglingLink

        var testDescription: String { rawValue }

        /// The problem the loader must report.
        var problem: String {
            switch self {
            case .fifo: "is a FIFO (named pipe), not a file"
            case .symbolicLinkLoop, .twoLinkLoop: "is a symbolic link loop (following it leads back to it), not a file"
            case .linkToDevice: "is a symbolic link to a character device, not a file"
            case .folder: "is a folder, not a file"
            case .danglingLink: "is a symbolic link to \"nowhere.json\", which does not exist"
            }
        }

        /// Replaces the file at `url` with the oddity.
        func make(at url: URL) throws {
            let manager = FileManager.default
            try? manager.removeItem(at: url)
            switch self {
            case .fifo:
                try #require(mkfifo(url.path, 0o644) == 0, "mkfifo failed: errno \(errno)")
            case .symbolicLinkLoop:
                try manager.createSymbolicLink(atPath: url.path, withDestinationPath: url.lastPathComponent)
            case .twoLinkLoop:
                let other = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).other")
                try manager.createSymbolicLink(atPath: url.path, withDestinationPath: other.lastPathComponent)
                try manager.createSymbolicLink(atPath: other.path, withDestinationPath: url.lastPathComponent)
            case .linkToDevice:
                try manager.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/null")
            case .folder:
                try manager.createDirectory(at: url, withIntermediateDirectories: false)
            case .danglingLink:
                try manager.createSymbolicLink(atPath: url.path, withDestinationPath: "nowhere.json")
            }
        }
    }

    static let files = ["world.json", "items.json", "npcs/npc_0.json"]

    @Test(arguments: Oddity.allCases, files)
    func anOddFileIsAnErrorNamingWhatItIs(oddity: Oddity, file: String) throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        try oddity.make(at: pack.url.appendingPathComponent(file))
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        #expect(result.pack == nil)
        // One error, on that file, saying what it is; no "file not found" and no echoes in other files.
        #expect(result.errors.map(\.description) == ["pack/\(file): $: \(oddity.problem) (\(Self.hint(oddity)))"])
    }

    static func hint(_ oddity: Oddity) -> String {
        switch oddity {
        case .symbolicLinkLoop, .twoLinkLoop: "point the link at a real file, or replace it with one"
        case .danglingLink: "point the link at a real file, or remove it"
        default: "a content pack holds plain files: replace it with a JSON file, or move it out of the pack"
        }
    }

    @Test func aFIFOAmongIgnoredFilesIsNeverOpened() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        try Oddity.fifo.make(at: pack.url.appendingPathComponent("notes.json"))
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        #expect(result.pack != nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "pack/notes.json: $: warning: not a file the loader reads, ignored "
                    + "(a pack is world.json, items.json, lexicon.json, actions.json, npcs/<id>.json and schema/)"
            ])
    }

    @Test func anNPCsFolderThatIsAFIFOIsAnError() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let npcs = pack.url.appendingPathComponent("npcs")
        try FileManager.default.removeItem(at: npcs)
        try #require(mkfifo(npcs.path, 0o644) == 0)
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        #expect(
            result.errors.map(\.description) == [
                "pack/npcs: $: is a FIFO (named pipe), not a folder (replace it with a folder)"
            ])
    }

    @Test func anNPCsFolderThatLoopsIsAnErrorNotAnEmptyFolder() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let npcs = pack.url.appendingPathComponent("npcs")
        try FileManager.default.removeItem(at: npcs)
        try FileManager.default.createSymbolicLink(atPath: npcs.path, withDestinationPath: "npcs")
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        // Not "unknown NPC npc_0" in the goal, as if the folder were empty: the folder itself is the error.
        #expect(
            result.errors.map(\.description) == [
                "pack/npcs: $: is a symbolic link loop (following it leads back to it), not a folder "
                    + "(point the link at a real folder, or replace it with one)"
            ])
    }

    /// Root reads any folder whatever its permissions, so this check only means something for other users; as
    /// root it is skipped (`ParleyCLITests` runs `parley content check` as an unprivileged user instead).
    @Test(.enabled(if: geteuid() != 0, "root ignores permissions: chmod 000 does not make a folder unreadable"))
    func anUnreadableNPCsFolderIsAnErrorNotAnEmptyFolder() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let npcs = pack.url.appendingPathComponent("npcs")
        try #require(chmod(npcs.path, 0) == 0)
        defer { chmod(npcs.path, 0o755) }
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        #expect(
            result.errors.map(\.description) == [
                "pack/npcs: $: cannot be listed: permission denied "
                    + "(give yourself read and search permission on it (chmod u+rx))"
            ])
    }

    @Test func aPackDirectoryThatIsAFIFOIsAnError() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let fifo = pack.url.appendingPathComponent("fifo-pack")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let result = ContentPack.load(from: fifo, displayPath: "fifo-pack")
        #expect(
            result.errors.map(\.description) == [
                "fifo-pack: $: is a FIFO (named pipe), not a folder (replace it with a folder)"
            ])
        let missing = ContentPack.load(from: pack.url.appendingPathComponent("nothing"), displayPath: "nothing")
        #expect(missing.errors.map(\.message) == ["no such directory"])
    }

    @Test func readingRefusesAFIFOAndReadsAPlainFileWhole() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let fifo = pack.url.appendingPathComponent("pipe")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: ContentFileError.self) { try ContentFile.read(at: fifo) }
        do {
            _ = try ContentFile.read(at: fifo)
        } catch {
            #expect(error.code == .wrongKind)
            #expect(error.problem == "is a FIFO (named pipe), not a file")
        }
        let world = pack.url.appendingPathComponent("world.json")
        #expect(try ContentFile.read(at: world) == Array(try Data(contentsOf: world)))
        #expect(try ContentFile.entries(of: pack.url) == ["items.json", "npcs", "pipe", "world.json"])
    }
}

/// A small valid pack in a temporary folder.
struct TemporaryPack {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-kinds-\(UUID().uuidString)")
        try SyntheticWorld.write(seed: 3, locations: 2, npcs: 2, items: 3, to: url)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

import ContentPacks
import Foundation
import GameWorld
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A content file larger than `ContentFile.maximumSize` is refused from its size alone, before a byte of it is
/// read: a 20 GB sparse `items.json` is an error naming the file, its size and the limit, and reading it costs no
/// more than a stat (checked by the bytes this thread read, never by time).
@Suite struct ContentFileSizeTests {
    /// 20 GB, the size of the sparse file in issue 33.
    static let sparseSize: off_t = 20_000_000_000

    /// Makes `url` a sparse file of `size` bytes: nothing is written, the file only claims the size.
    static func makeSparse(at url: URL, size: off_t) throws {
        try? FileManager.default.removeItem(at: url)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0, "open failed: errno \(errno)")
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, size) == 0, "ftruncate failed: errno \(errno)")
    }

    /// The bytes this thread has read through `read(2)` and friends so far (`rchar` of `/proc/thread-self/io`),
    /// or `nil` where the system does not say.
    static func bytesReadByThisThread() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test(arguments: ["items.json", "world.json", "npcs/npc_0.json"])
    func aSparseTwentyGigabyteFileIsRefusedUnread(file: String) throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        try Self.makeSparse(at: pack.url.appendingPathComponent(file), size: Self.sparseSize)
        let before = try #require(Self.bytesReadByThisThread(), "this test needs /proc/thread-self/io")
        let result = ContentPack.load(from: pack.url, displayPath: "pack")
        let after = try #require(Self.bytesReadByThisThread())
        #expect(result.pack == nil)
        #expect(
            result.errors.map(\.description) == [
                "pack/\(file): $: is 18.6 GiB (20000000000 bytes), more than the 8 MiB (8388608 bytes) a content file "
                    + "may be (split it, or move what is not content out of the pack)"
            ])
        // The rest of the pack is a few kilobytes; reading even a slice of the sparse file would be megabytes.
        #expect(after - before < 1 << 20, "loading read \(after - before) bytes")
    }

    @Test func aFileOneByteOverTheLimitIsRefusedAndOneAtTheLimitIsRead() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let over = pack.url.appendingPathComponent("over.json")
        try Self.makeSparse(at: over, size: off_t(ContentFile.maximumSize + 1))
        do {
            _ = try ContentFile.read(at: over)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.path == over.path)
        }
        let atLimit = pack.url.appendingPathComponent("limit.json")
        try Self.makeSparse(at: atLimit, size: off_t(ContentFile.maximumSize))
        #expect(try ContentFile.read(at: atLimit).count == ContentFile.maximumSize)
    }

    @Test func aLimitGivenByTheCallerIsTheOneChecked() throws {
        let pack = try TemporaryPack()
        defer { pack.remove() }
        let file = pack.url.appendingPathComponent("items.json")
        try Self.makeSparse(at: file, size: 100)
        do {
            _ = try ContentFile.read(at: file, maximumSize: 64)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.problem == "is 100 bytes, more than the 64 bytes a content file may be")
        }
    }
}

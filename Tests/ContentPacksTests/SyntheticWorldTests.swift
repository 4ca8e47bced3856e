import ContentPacks
import Foundation
import GameWorld
import SyntheticWorlds
import Testing

@Suite struct SyntheticWorldTests {
    @Test func theSameSeedGivesTheSameWorld() {
        let first = SyntheticWorld.generate(seed: 1_234, locations: 50, npcs: 80, items: 120)
        let second = SyntheticWorld.generate(seed: 1_234, locations: 50, npcs: 80, items: 120)
        #expect(first == second)
        #expect(first.contentHash == second.contentHash)
        #expect(
            SyntheticWorld.files(seed: 1_234, locations: 5, npcs: 5, items: 5)
                == SyntheticWorld.files(seed: 1_234, locations: 5, npcs: 5, items: 5))
    }

    @Test func differentSeedsGiveDifferentWorlds() {
        let first = SyntheticWorld.generate(seed: 1, locations: 50, npcs: 80, items: 120)
        let second = SyntheticWorld.generate(seed: 2, locations: 50, npcs: 80, items: 120)
        #expect(first != second)
        #expect(first.contentHash != second.contentHash)
    }

    @Test(arguments: [(1, 1, 2), (2, 1, 2), (3, 7, 3), (10, 10, 10), (101, 30, 60)])
    func generatedPacksCheckCleanAtAnySize(locations: Int, npcs: Int, items: Int) {
        let result = ContentPack.load(
            files: SyntheticWorld.files(seed: 5, locations: locations, npcs: npcs, items: items),
            displayPath: "synthetic")
        #expect(result.diagnostics.map(\.description) == [])
        #expect(result.counts == ContentCounts(locations: locations, npcs: npcs, items: items))
    }

    @Test func aSeededPRNGIsStable() {
        var random = SplitMix64(seed: 0)
        // The reference SplitMix64 sequence for seed 0.
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        var bounded = SplitMix64(seed: 9)
        let rolls = (0..<1_000).map { _ in bounded.next(below: 6) }
        #expect(Set(rolls) == Set(0..<6))
    }

    @Test(.timeLimit(.minutes(10))) func thousandsOfNPCsLoad() throws {
        let world = SyntheticWorld.generate(seed: 77, locations: 2_000, npcs: 5_000, items: 3_000).world
        #expect(world.locations.count == 2_000)
        #expect(world.npcs.count == 5_000)
        #expect(world.items.count == 3_000)
    }

    @Test func aWrittenPackPassesTheChecker() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-synthetic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try SyntheticWorld.write(seed: 3, locations: 20, npcs: 30, items: 40, to: directory)
        let result = ContentPack.load(from: directory, displayPath: "synthetic")
        #expect(result.diagnostics == [])
        #expect(result.pack == SyntheticWorld.generate(seed: 3, locations: 20, npcs: 30, items: 40))
    }
}

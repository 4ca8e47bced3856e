import Foundation
import GameWorld
import LanguageModels
import ParleySQLite
import SaveGames
import Testing

/// Kills a game with SIGKILL at random moments while it autosaves, many times, and checks after each kill that the
/// save is sound and holds every turn reported as saved, byte for byte.
///
/// The game is `save-stress` (Sources/SaveStress), which prints each turn's number once its save committed. Rounds
/// reuse a slot ten times in a row, so killed saves are also reopened and continued. Set `PARLEY_KILL_ROUNDS` for more
/// rounds (the default is 30) and `PARLEY_KILL_SEED` to replay a run.
@Suite struct KillTests {
    /// The world `save-stress` plays: the same generator call as `StressGame.pack`.
    static let pack = SyntheticWorld.generate(seed: 2024, locations: 2, npcs: 3, items: 4)
    static let npcs: [NPCID] = ["npc_0", "npc_1", "npc_2"]

    static var rounds: Int { Int(ProcessInfo.processInfo.environment["PARLEY_KILL_ROUNDS"] ?? "") ?? 30 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["PARLEY_KILL_SEED"] ?? "") ?? 0x5EED }

    static var binary: URL { TestPaths.productsDirectory.appendingPathComponent("save-stress") }

    @Test("A game killed with SIGKILL at random moments leaves a sound save holding every reported turn")
    func killedWhileAutosaving() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "no save-stress binary next to the tests at \(Self.binary.path); build it with 'swift build --product save-stress'"
        )
        var random = SplitMix64(seed: Self.seed)
        var savedTurns: [String: Int] = [:]
        var killedMidWrite = 0
        try withTemporaryDirectory { folder in
            for round in 0..<Self.rounds {
                let slot = "stress-\(round / 10)"
                let afterLines = random.next(in: 0...25)
                let delay = random.next(in: 0...8_000)
                let context: Comment =
                    "round \(round) (seed \(Self.seed)): killed after \(afterLines) turns + \(delay) µs"
                let reported = try Self.runAndKill(folder: folder, slot: slot, afterLines: afterLines, delay: delay)
                let before = savedTurns[slot] ?? 0
                let known = max(before, reported ?? 0)
                let saved = try Self.verify(folder: folder, slot: slot, context: context)
                #expect(saved >= known, "a turn reported as saved is missing; \(context)")
                #expect(saved <= known + 1, "more turns saved than were played; \(context)")
                if saved > known { killedMidWrite += 1 }
                savedTurns[slot] = saved
            }
        }
        // Not a requirement, but the point of the random delays: some kills must land between a commit and its report.
        print("KillTests: \(Self.rounds) rounds, \(killedMidWrite) kills after a commit and before its report")
    }

    // MARK: - Helpers

    /// Runs `save-stress run`, kills it once it reported `afterLines` turns plus `delay` microseconds, and returns
    /// the last turn it reported (including lines still in the pipe after its death), or `nil` for none.
    static func runAndKill(folder: URL, slot: String, afterLines: Int, delay: Int) throws -> Int? {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", folder.path, slot]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var buffer = Data()
        while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < afterLines {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // The writer exited.
            buffer.append(chunk)
        }
        usleep(UInt32(delay))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            "save-stress was not killed but exited with \(process.terminationStatus): \(stderr)")
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        // A line cut short by the kill does not count.
        let whole = buffer.last == UInt8(ascii: "\n") ? lines[...] : lines.dropLast()
        return whole.last.flatMap { Int($0) }
    }

    /// Opens the killed game's save and checks everything in it; returns the number of turns it holds.
    static func verify(folder: URL, slot: String, context: Comment) throws -> Int {
        let save = try SaveGameStore(folder: folder).open(slot: slot)
        #expect(try save.integrityCheck() == [], context)
        guard try save.hasGame() else { return 0 }
        let loaded = try save.load(pack: pack)
        let turns = try #require(Int(loaded.metadata.label.dropFirst("turn ".count)), context)
        #expect(loaded.metadata.playTime == .seconds(turns), context)
        #expect(loaded.missing == [], context)

        // Each NPC moved once per turn of theirs, between loc_0 and loc_1.
        for (index, npc) in npcs.enumerated() {
            // Turn t is npc_(t % 3)'s: the turns of 1...turns that are that NPC's.
            let moves = (turns + (npcs.count - index) % npcs.count) / npcs.count
            let start = pack.world.npcs[npc]!.location
            let other: LocationID = start == "loc_0" ? "loc_1" : "loc_0"
            #expect(loaded.state.world.npcs[npc]?.location == (moves % 2 == 0 ? start : other), context)
        }

        // Every entry, byte for byte: as the file stores it, and as the loaded transcript encodes it.
        let expected = try expectedEntries(turns: turns)
        let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
        for npc in npcs {
            let lines = expected[npc] ?? []
            let transcript = try save.transcript(npc: npc)
            let loadedJSON = transcript?.transcript.map { $0.jsonString() } ?? []
            #expect(firstDifference(loadedJSON, lines) == nil, "loaded transcript of \(npc); \(context)")
            let stored: [String] = try db.query(
                "SELECT json FROM transcript_entries WHERE npc = ? ORDER BY position", [npc.rawValue]
            ).map { try $0.get(0) }
            #expect(firstDifference(stored, lines) == nil, "stored entries of \(npc); \(context)")
            for (prompt, annotations) in transcript?.turnAnnotations ?? [:] {
                #expect(annotations["turn"].map { "prompt-\($0)" } == prompt, context)
            }
        }
        return turns
    }

    /// Where two lists of entries first differ, in a few words; `nil` when they are equal.
    static func firstDifference(_ actual: [String], _ expected: [String]) -> String? {
        if let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "entry \(index) is \(actual[index]), expected \(expected[index])"
        }
        return actual.count == expected.count ? nil : "\(actual.count) entries, expected \(expected.count)"
    }

    /// What `save-stress expect` says the save must hold after `turns` turns: each NPC's entries' JSON, in order.
    static func expectedEntries(turns: Int) throws -> [NPCID: [String]] {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["expect", String(turns)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var entries: [NPCID: [String]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            entries[NPCID(String(parts[0])), default: []].append(String(parts[1]))
        }
        return entries
    }
}

import ChildProcess
import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import SaveGames
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two `parley` processes on one save folder, games killed and signalled, and read-only commands: the folder is used
/// by one game at a time, and whenever no game runs, each save is one self-contained file.
@Suite(.serialized) struct SaveFolderProcessTests {
    /// A `parley play` that keeps running until told to quit, its output collected as it comes.
    final class RunningGame: Sendable {
        let process: ChildProcess
        private let output = Collected()

        /// The bytes a pipe delivered so far.
        final class Collected: Sendable {
            private let data = Mutex(Data())
            func append(_ more: Data) { data.withLock { $0.append(more) } }
            var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
        }

        init(_ arguments: [String], in directory: URL) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["PARLEY_MODEL"] = "scripted"
            process = try ChildProcess.launch(
                ParleyProcess.productsDirectory.appendingPathComponent("parley").path, arguments: arguments,
                environment: environment, directory: directory.path, input: .pipe, output: .pipe,
                error: .standardOutput)
            process.standardOutput?.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        }

        var pid: Int32 { process.pid }
        var text: String { output.text }

        /// Types a line.
        func type(_ line: String) {
            ChildProcess.ignoreBrokenPipes()
            try? process.standardInput?.write(contentsOf: Data((line + "\n").utf8))
        }

        /// Waits until the output holds `words`, for at most a minute, looking every `interval`.
        func waitFor(_ words: String, every interval: Duration = .milliseconds(100)) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !text.contains(words), ContinuousClock.now < deadline { try await Task.sleep(for: interval) }
            try #require(text.contains(words), "never printed \"\(words)\": \(text)")
        }

        /// Waits for the process to end, off the cooperative pool, and returns its status.
        func waitForExit() async throws -> Int32 {
            await offThePool { [process] in process.waitForExit().status }
        }
    }

    let contentArguments = ["--content", packageRoot.appendingPathComponent("Content").path]

    /// The names of the files in a folder, without the lock file and the listing index (`.parley-index.json`, a
    /// cache that listings keep beside the saves, never in them).
    func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0 != ".parley-lock" && $0 != ".parley-index.json"
        }
        .sorted()
    }

    /// Every file of a folder with its bytes; a `-shm` file only by name (it is SQLite's shared memory, which any
    /// reader of a running game's save updates).
    func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try names(folder) {
            files[name] = name.hasSuffix("-shm") ? Data() : try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test func aSecondGameOnTheSameFolderIsRefusedNamingTheFirst() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let first = try RunningGame(contentArguments + ["--saves", saves.path], in: work.url)
        try await first.waitFor("Type help for the commands.")
        first.type("take apple")
        try await first.waitFor("You take the Red Apple.")
        // The turn's autosave is written after its text is shown; a command after it runs once it is done (and
        // `inventory`, which changes nothing, writes nothing).
        first.type("inventory")
        try await first.waitFor("You carry")
        let before = try snapshot(saves)
        for extra in [[], ["--continue"]] {
            let second = try await ParleyProcess.run(
                contentArguments + ["--saves", saves.path] + extra, in: work.url, input: "take bread\nsave mine\n")
            #expect(second.status == 1, "\(second.out) \(second.err)")
            #expect(second.err.contains("in use by another Parley (pid \(first.pid))"), "\(second.err)")
            #expect(second.err.contains("Nothing was changed"), "\(second.err)")
        }
        // Deleting a slot of the running game is refused too; read-only commands are not blocked.
        let delete = try await ParleyProcess.run(["saves", "delete", "autosave", "--folder", saves.path], in: work.url)
        #expect(delete.status == 1)
        #expect(delete.err.contains("in use by another Parley (pid \(first.pid))"), "\(delete.err)")
        let list = try await ParleyProcess.run(["saves", "--folder", saves.path], in: work.url)
        #expect(list.status == 0, "\(list.err)")
        #expect(try snapshot(saves) == before, "the refused game changed the folder")
        first.type("quit")
        #expect(try await first.waitForExit() == 0)
        // Once the first game has quit, the folder is free.
        let third = try await ParleyProcess.run(
            contentArguments + ["--saves", saves.path, "--continue"], in: work.url, input: "inventory\n")
        #expect(third.status == 0, "\(third.err)")
        #expect(third.out.contains("Loaded autosave"))
        #expect(third.out.contains("Red Apple"))
    }

    @Test func aKilledGameFreesTheFolderAndItsSaveIsFoldedIntoOneFileAtTheNextStart() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let game = try RunningGame(contentArguments + ["--saves", saves.path], in: work.url)
        try await game.waitFor("Type help for the commands.")
        game.type("take apple")
        try await game.waitFor("You take the Red Apple.")
        // Killed once the turn is saved: its autosave is written after its text is shown, and the next command runs
        // once it is done.
        game.type("inventory")
        try await game.waitFor("You carry")
        #expect(try names(saves).contains("autosave.parley-wal"))
        kill(game.pid, SIGKILL)
        _ = try await game.waitForExit()
        // A copy interrupted by the kill, as a `load` would leave it.
        try Data("half".utf8).write(to: saves.appendingPathComponent(".autosave.parley.1234.partial"))
        let next = try await ParleyProcess.run(
            contentArguments + ["--saves", saves.path, "--continue"], in: work.url, input: "inventory\n")
        #expect(next.status == 0, "\(next.err)")
        #expect(next.out.contains("Red Apple"), "the turn before the kill was lost: \(next.out)")
        #expect(try names(saves) == ["autosave.parley"])
    }

    /// A manual save of the shipped world whose conversations make a file of a few megabytes, so that copying it
    /// takes long enough for a kill to land in the middle.
    func writeBigSave(in saves: URL) throws -> URL {
        let pack = try shippedPack()
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for npc in pack.world.npcs.keys {
            var entries: [Transcript.Entry] = []
            for turn in 0..<1_500 {
                entries.append(.prompt(.init(segments: [.text(.init(content: "What news, friend? (turn \(turn))"))])))
                entries.append(
                    .response(
                        .init(
                            assetIDs: [],
                            segments: [
                                .text(
                                    .init(
                                        content: String(repeating: "The roads are quiet, the prices fair. ", count: 6)))
                            ])))
            }
            conversations[npc] = AnnotatedTranscript(
                transcript: Transcript(entries: entries), annotations: ["npc": npc.rawValue])
        }
        let store = SaveGameStore(folder: saves)
        let save = try store.open(slot: "big")
        try save.writeFull(SaveSnapshot(state: pack.initialState, conversations: conversations, label: "Big"))
        save.close()
        return try store.slotURL("big")
    }

    /// The seed of the kill moments of ``aGameKilledWhileCopyingALoadedSlotLosesNothing()``; `PARLEY_KILL_SEED` replays
    /// a run.
    static var copyKillSeed: UInt64 { UInt64(ProcessInfo.processInfo.environment["PARLEY_KILL_SEED"] ?? "") ?? 0xC0FE }

    /// How many kills; `PARLEY_KILL_ROUNDS` asks for more.
    static var copyKillRounds: Int { Int(ProcessInfo.processInfo.environment["PARLEY_KILL_ROUNDS"] ?? "") ?? 8 }

    @Test func aGameKilledWhileCopyingALoadedSlotLosesNothing() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let setup = try await ParleyProcess.run(
            contentArguments + ["--saves", saves.path], in: work.url, input: "take apple\nquit\n")
        #expect(setup.status == 0, "\(setup.err)")
        // Written off the cooperative pool: it takes a second or two, which the model turns of other tests need.
        let big = try await offThePool { try self.writeBigSave(in: saves) }
        let bigBefore = try Data(contentsOf: big)
        let pack = try shippedPack()
        var random = SplitMix64(seed: Self.copyKillSeed)
        var killedMidCopy = 0
        for round in 0..<Self.copyKillRounds {
            let delay = random.next(in: 0...150_000)
            let context: Comment = "round \(round) (seed \(Self.copyKillSeed)): killed \(delay) µs after the load"
            // The game continues its autosave, loads the big slot (copied into the autosave slot while the game goes
            // on) and is killed at once, or a little later.
            let game = try RunningGame(contentArguments + ["--saves", saves.path, "--continue"], in: work.url)
            try await game.waitFor("Type help for the commands.")
            game.type("load big")
            try await game.waitFor("Loaded big", every: .milliseconds(1))
            try await Task.sleep(for: .microseconds(delay))
            kill(game.pid, SIGKILL)
            _ = try await game.waitForExit()
            if try names(saves).contains(where: { $0.hasSuffix(".partial") }) { killedMidCopy += 1 }

            // The loaded slot is as it was; every save loads; the autosave holds the game before the load, or the
            // loaded one.
            #expect(try Data(contentsOf: big) == bigBefore, "the loaded slot changed; \(context)")
            let store = SaveGameStore(folder: saves)
            for slot in ["autosave", "big"] {
                let loaded = try store.open(slot: slot, access: .readOnly).load(pack: pack)
                #expect(["Big", "Autosave"].contains(loaded.metadata.label), "\(slot): \(loaded.metadata); \(context)")
            }
            // The next game tidies what the kill left, and continues.
            let next = try await ParleyProcess.run(
                contentArguments + ["--saves", saves.path, "--continue"], in: work.url, input: "inventory\n")
            #expect(next.status == 0, "\(next.err); \(context)")
            #expect(next.out.contains("Loaded autosave"), "\(next.out); \(context)")
            #expect(try names(saves) == ["autosave.parley", "big.parley"], "\(context)")
        }
        print(
            "SaveFolderProcessTests: \(killedMidCopy) of \(Self.copyKillRounds) kills landed while the loaded slot was being copied"
        )
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aGameStoppedBySignalClosesItsSaves(_ signal: Int32) async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let game = try RunningGame(contentArguments + ["--saves", saves.path], in: work.url)
        try await game.waitFor("Type help for the commands.")
        game.type("take apple")
        try await game.waitFor("You take the Red Apple.")
        kill(game.pid, signal)
        #expect(try await game.waitForExit() == 128 + signal)
        #expect(try names(saves) == ["autosave.parley"])
    }

    @Test func quittingLeavesEachSaveOneFileAndReadingChangesNothing() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        for ending in ["quit\n", ""] {
            let play = try await ParleyProcess.run(
                contentArguments + ["--saves", saves.path],
                in: work.url,
                input: "talk to mira\nhello\nwould you take 1 gold for the lantern?\nsave first\n" + ending)
            #expect(play.status == 0, "\(play.err)")
        }
        #expect(try names(saves) == ["autosave-2.parley", "autosave.parley", "first.parley"])
        let before = try snapshot(saves)
        let out = work.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for command in [
            ["saves"], ["saves", "show", "autosave"], ["transcript", "autosave", "mira"], ["feedback", "list"],
            ["saves", "export", "first", "--out", out.appendingPathComponent("first.json").path],
            ["recordings", "export", "autosave", "--out", out.appendingPathComponent("recordings.json").path],
            ["replay", "autosave"],
        ] {
            let run = try await ParleyProcess.run(command + ["--folder", saves.path], in: work.url)
            #expect(run.status == 0 || command == ["replay", "autosave"], "\(command): \(run.err)")
            let after = try snapshot(saves)
            #expect(after == before, "\(command) changed the save folder: \(after.keys.sorted())")
        }
    }
}

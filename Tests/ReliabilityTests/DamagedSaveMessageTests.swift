import Foundation
import GameWorld
import LanguageModels
import ParleySQLite
import SaveGames
import Testing

/// What the commands say about a save changed outside Parley: damage is called damage, with the save and the part
/// that is wrong named, never "check the disk".
@Suite struct DamagedSaveMessageTests {
    /// A folder with one save, `slot`, holding a game, a recording and a feedback report.
    func folderWithASave() throws -> (TemporaryFolder, URL) {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let store = SaveGameStore(folder: saves)
        let save = try store.open(slot: "slot")
        try save.writeFull(SaveSnapshot(state: try shippedPack().initialState, label: "Damaged later"))
        try save.addRecording(id: "good-recording", npc: "mira", json: #"{"type":"Parley.TurnRecording"}"#)
        save.close()
        return (work, saves)
    }

    @Test func aRecordingThatDoesNotDecodeIsNamedWithItsSave() async throws {
        let (work, saves) = try folderWithASave()
        let save = try SaveGameStore(folder: saves).open(slot: "slot")
        try save.addRecording(id: "broken-recording", npc: "mira", json: #"{"type":"something else"}"#)
        save.close()
        for command in [["recordings", "export", "slot"], ["replay", "slot"]] {
            let run = try await ParleyProcess.run(command + ["--folder", saves.path], in: work.url)
            #expect(run.status == 1, "\(command): \(run.out)")
            #expect(run.err.contains("slot.parley"), "\(command): \(run.err)")
            #expect(run.err.contains("is damaged"), "\(command): \(run.err)")
            #expect(run.err.contains("the recording good-recording does not decode"), "\(command): \(run.err)")
        }
    }

    @Test func aRecordingsFileThatDoesNotDecodeIsNamedWithItsPosition() async throws {
        let work = TemporaryFolder()
        let file = work.url.appendingPathComponent("recordings.json")
        try Data(#"[{"type":"Parley.TurnRecording","formatVersion":1,"id":"x"}, 7]"#.utf8).write(to: file)
        let run = try await ParleyProcess.run(["replay", file.path], in: work.url)
        #expect(run.status == 1)
        #expect(
            run.err.contains("recordings.json is not a recordings file Parley can read: recording 1 (x)"), "\(run.err)")
    }

    /// An autosave of the shipped world where every NPC has a conversation of 600 entries, the entry at `marker` in
    /// Mira's holding the text `MARKER-MIRA`.
    func folderWithLongConversations(marker: Int) throws -> (TemporaryFolder, URL) {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let pack = try shippedPack()
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for npc in pack.world.npcs.keys {
            let entries = (0..<600).map { index -> Transcript.Entry in
                let text =
                    npc == "mira" && index == marker
                    ? "MARKER-MIRA" : "Line \(index) of a long talk with \(npc): the roads are quiet, the prices fair."
                return index % 2 == 0
                    ? .prompt(.init(segments: [.text(.init(content: text))]))
                    : .response(.init(assetIDs: [], segments: [.text(.init(content: text))]))
            }
            conversations[npc] = AnnotatedTranscript(transcript: Transcript(entries: entries), annotations: [:])
        }
        let save = try SaveGameStore(folder: saves).open(slot: "autosave")
        try save.writeFull(SaveSnapshot(state: pack.initialState, conversations: conversations, label: "Autosave"))
        save.close()
        return (work, saves)
    }

    @Test func aDamagedPageOfOneConversationLoadsAndIsNamedWhenThatNPCIsTalkedTo() async throws {
        let (work, saves) = try folderWithLongConversations(marker: 300)
        // Garbage over the page holding the middle of Mira's conversation (the fourth of six, in the middle of the
        // table): a page that neither opening nor loading the save reads.
        let file = saves.appendingPathComponent("autosave.parley")
        var bytes = try Data(contentsOf: file)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let offset = try #require(bytes.range(of: Data("MARKER-MIRA".utf8))?.lowerBound)
        let page = offset / pageSize
        for index in (page * pageSize)..<((page + 1) * pageSize) { bytes[index] = 0x41 }
        try bytes.write(to: file)

        let play = try await ParleyProcess.run(
            ["--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves.path, "--continue"],
            in: work.url, input: "talk to mira\nhello\ninventory\n")
        #expect(play.status == 0, "\(play.err)")
        #expect(play.out.contains("Loaded autosave"), "\(play.out)")
        #expect(play.out.contains("cannot speak"), "\(play.out)")
        #expect(play.out.contains("autosave.parley\" is damaged"), "\(play.out)")
        #expect(play.out.contains("You carry:"), "the game did not go on: \(play.out)")
        // The other conversations read; Mira's is named as damage of the save.
        let other = try await ParleyProcess.run(
            ["transcript", "autosave", "aurelio", "--folder", saves.path], in: work.url)
        #expect(other.status == 0, "\(other.err)")
        let mira = try await ParleyProcess.run(
            ["transcript", "autosave", "mira", "--folder", saves.path], in: work.url)
        #expect(mira.status == 1, "\(mira.out)")
        #expect(mira.err.contains("autosave.parley\" is damaged"), "\(mira.err)")
    }

    @Test(arguments: [
        ("DROP TABLE player_items", "player_items is missing"),
        ("ALTER TABLE npcs DROP COLUMN gold", "is missing"),
        ("UPDATE player SET gold = 'lots'", "wrong type"),
    ])
    func aTamperedSchemaOrValueIsCalledDamage(sql: String, words: String) async throws {
        let (work, saves) = try folderWithASave()
        do {
            let db = try Database(path: saves.appendingPathComponent("slot.parley").path)
            try db.execute(sql: sql)
        }
        // A missing table is found when the save is opened, by every command; a missing column or a wrong value
        // when it is read (an export reads everything).
        let readers =
            sql.hasPrefix("DROP TABLE")
            ? [["saves", "show", "slot"], ["saves", "export", "slot"], ["transcript", "slot", "mira"]]
            : [["saves", "export", "slot"]]
        for command in readers {
            let run = try await ParleyProcess.run(command + ["--folder", saves.path], in: work.url)
            #expect(run.status == 1, "\(command): \(run.out)")
            #expect(run.err.contains("is damaged"), "\(command): \(run.err)")
            #expect(!run.err.contains("Check the disk"), "\(command): \(run.err)")
        }
        let play = try await ParleyProcess.run(
            ["--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves.path],
            in: work.url, input: "load slot\n")
        #expect(play.out.contains("Could not load slot"), "\(play.out)")
        #expect(play.out.contains(words), "\(play.out)")
    }
}

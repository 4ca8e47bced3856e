import Foundation
import GameWorld
import LanguageModels
import ParleySQLite
import Testing

@testable import SaveGames

/// Saving fails cleanly when it cannot write: the error says why, and the previous save is kept.
@Suite struct FailureTests {
    let pack = SaveTestWorld.pack()

    /// A save holding one full save with Mira's conversation; returns the state saved.
    func makeSave(in folder: URL) throws -> (SaveGameStore, GameState, AnnotatedTranscript) {
        let store = SaveGameStore(folder: folder, now: fixedNow)
        let state = try pack.initialState.applying(.moved(from: "square", to: "smithy"))
        let mira = SampleTranscripts.conversation("mira", turns: 2)
        try store.open(slot: "slot").writeFull(
            SaveSnapshot(state: state, conversations: ["mira": mira], playTime: .seconds(30), label: "Kept"))
        return (store, state, mira)
    }

    /// Found by `parley-bench fuzz`: a blob where a report's JSON belongs threw a bare SQLite error.
    @Test(arguments: ["recordings", "feedback"])
    func aReportOfTheWrongTypeIsACorruptSave(_ table: String) throws {
        try withTemporaryDirectory { folder in
            let (store, _, _) = try makeSave(in: folder)
            let save = try store.open(slot: "slot")
            try save.addRecording(id: "r1", npc: "mira", json: "{}")
            try save.addFeedback(id: "f1", npc: "mira", json: "{}")
            let db = try Database(path: try store.slotURL("slot").path)
            try db.execute("UPDATE \(table) SET json = X'414243'")
            let error = try #require(throws: SaveGameError.self) {
                _ = table == "recordings" ? try save.recordings() : try save.feedback()
            }
            #expect(error.code == .corrupt)
            #expect(error.description.contains(table))
        }
    }

    @Test("A save opened read-only refuses every write with readOnly, and still loads")
    func readOnlySave() throws {
        try withTemporaryDirectory { folder in
            let (store, state, mira) = try makeSave(in: folder)
            let before = try Data(contentsOf: store.slotURL("slot"))
            let save = try store.open(slot: "slot", access: .readOnly)
            let moved = try state.applying(.moved(from: "smithy", to: "square"))
            let writes: [() throws -> Void] = [
                { try save.autosave(SaveDelta(state: moved, playerChanged: true, playTime: .seconds(31))) },
                { try save.writeFull(SaveSnapshot(state: moved)) },
                { try save.addFeedback(id: "f", npc: nil, json: "{}") },
            ]
            for write in writes {
                let error = try #require(throws: SaveGameError.self) { try write() }
                #expect(error.code == .readOnly)
                #expect(error.description.contains("The previous save is kept"))
                #expect(error.description.contains("writable"))
            }
            let loaded = try save.load(pack: pack)
            #expect(loaded.state == state)
            #expect(try save.transcript(npc: "mira") == mira)
            #expect(try Data(contentsOf: store.slotURL("slot")) == before)
        }
    }

    @Test("A connection that SQLite itself keeps from writing (query_only) fails with readOnly and keeps the save")
    func queryOnlyConnection() throws {
        try withTemporaryDirectory { folder in
            let (store, state, _) = try makeSave(in: folder)
            let save = try store.open(slot: "slot")
            try save.connection().writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = ON") }
            let moved = try state.applying(.moved(from: "smithy", to: "square"))
            let error = try #require(throws: SaveGameError.self) {
                try save.autosave(SaveDelta(state: moved, playerChanged: true, playTime: .seconds(31)))
            }
            #expect(error.code == .readOnly)
            #expect(try store.open(slot: "slot").load(pack: pack).state == state)
        }
    }

    @Test("A full disk (SQLITE_FULL, from a page limit) fails with diskFull, rolls back, and keeps the save loadable")
    func diskFull() throws {
        try withTemporaryDirectory { folder in
            let (store, state, mira) = try makeSave(in: folder)
            let save = try store.open(slot: "slot")
            try save.connection().writeWithoutTransaction { db in
                let pages = try db.scalar("PRAGMA page_count", as: Int.self) ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages + 1)")
            }
            // Many turns at once: far more than one free page.
            var longer = mira
            for turn in 2..<60 { longer = SampleTranscripts.continuing(longer, npc: "mira", turn: turn) }
            let moved = try state.applying(.moved(from: "smithy", to: "square"))
            let error = try #require(throws: SaveGameError.self) {
                try save.autosave(
                    SaveDelta(
                        state: moved, playerChanged: true, conversations: ["mira": longer], playTime: .seconds(99)))
            }
            #expect(error.code == .diskFull)
            #expect(error.description.contains("the disk is full"))
            #expect(error.description.contains("The previous save is kept"))
            #expect(error.description.contains("Free some disk space"))

            // The same connection goes on: the failed autosave left nothing behind.
            #expect(try save.load(pack: pack).state == state)
            #expect(try save.transcript(npc: "mira") == mira)
            #expect(try save.metadata().playTime == .seconds(30))
            // A small autosave that fits still works on the same connection.
            try save.autosave(SaveDelta(state: moved, playerChanged: true, playTime: .seconds(31)))
            // And a fresh connection sees a sound file with the small autosave only.
            let reopened = try store.open(slot: "slot")
            #expect(try reopened.integrityCheck() == [])
            #expect(try reopened.load(pack: pack).state == moved)
            #expect(try reopened.transcript(npc: "mira") == mira)
        }
    }
}

/// Durations read from a save: what Parley writes reads back; what it cannot have written is an error, not a trap.
@Suite struct SavedDurationTests {
    @Test func aWrittenDurationReadsBack() {
        #expect(SaveCoding.text(.milliseconds(754_250)) == "754.250")
        #expect(SaveCoding.duration("754.250") == .milliseconds(754_250))
    }

    /// Found by `parley-bench fuzz`: a play time of 1e300 seconds crashed the conversion to milliseconds.
    @Test(arguments: ["1e300", "1e15", "-1", "inf", "nan", "", "soon"])
    func anImpossibleDurationIsRejected(_ text: String) {
        #expect(SaveCoding.duration(text) == nil)
    }
}

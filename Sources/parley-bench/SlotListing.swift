import Foundation
import GameWorld
import LanguageModels
import SaveGames

/// Listing a save folder against its number of slots (issue 33: 480 slots made a new game take 0.33 s and
/// `GET /v1/saves` 1.3 s, every file opened). Each slot holds a game of the shipped world with a short conversation.
/// "Every file opened" is the listing with no index (what every listing did before the listing index; the run then
/// writes the index), "from the index" the listings after it, which open no unchanged save.
enum SlotListing {
    static func run(quick: Bool) throws {
        report("## Listing a save folder, against its number of slots")
        report("")
        report(
            "| Slots | List, every file opened ms | List from the index ms | Free autosave slot ms | Autosave family ms |"
        )
        report("|---:|---:|---:|---:|---:|")
        let pack = try BenchContent.shippedPack()
        for slots in quick ? [48, 480] : [48, 480, 2_000] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-listing-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = SaveGameStore(folder: folder)
            var conversation = Transcript()
            conversation.append(contentsOf: SyntheticTranscript.make(turns: 10, speaker: "Mira"))
            for number in 1...slots {
                let file = try store.open(slot: number == 1 ? "autosave" : "autosave-\(number)")
                try file.writeFull(
                    SaveSnapshot(
                        state: pack.initialState,
                        conversations: ["mira": AnnotatedTranscript(transcript: conversation)], label: "Autosave"))
                file.close()
            }
            let index = folder.appendingPathComponent(".parley-index.json")
            let cold = try Measure.milliseconds(repetitions: 3) {
                try? FileManager.default.removeItem(at: index)
                guard store.list().count == slots else { throw BenchError("the listing lost slots") }
            }
            let warm = try Measure.milliseconds(repetitions: 10) {
                guard store.list().count == slots else { throw BenchError("the listing lost slots") }
            }
            let free = try Measure.milliseconds(repetitions: 10) {
                _ = try store.freeAutosaveSlot(base: "autosave")
            }
            let family = Measure.milliseconds(repetitions: 10) { _ = store.autosaveSlots(base: "autosave") }
            report(
                "| \(slots) | \(format(Measure.median(cold), digits: 1)) | \(format(Measure.median(warm), digits: 1)) "
                    + "| \(format(Measure.median(free), digits: 1)) | \(format(Measure.median(family), digits: 1)) |")
        }
        report("")
    }
}

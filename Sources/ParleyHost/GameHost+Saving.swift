import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import SaveGames

// Saving: claiming the folder, choosing the autosave slot, autosaves with their reports and recordings, and the
// in-game `save` and `saves` commands.

extension GameHost {
    // MARK: - The save folder

    /// Claims the save folder for this game, so that no other process writes it while this game plays.
    ///
    /// The host claims it by itself before its first write; call this at start-up to fail at once (a second
    /// `parley play` on the same folder) rather than at the first autosave. Claiming twice does nothing.
    ///
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/inUse`` ("in use by another Parley (pid N)") or
    ///   ``SaveGameError/Code/cannotOpen``.
    public func claimSaves() throws {
        guard let store, folderLock?.isHeld != true else { return }
        folderLock = try store.lockFolder()
    }

    /// Settles the slot a new game saves itself to: the autosave slot when it is free, else the first free slot of
    /// its family.
    ///
    /// - Returns: What to tell the player when the game does not save itself to the autosave slot, or `nil`.
    @discardableResult
    func settleNewGameSlot() -> String? {
        guard !slotSettled, let store else { return nil }
        slotSettled = true
        let preferred = activeAutosaveSlot
        guard let free = try? store.freeAutosaveSlot(base: autosaveSlot), free != preferred else { return nil }
        activeAutosaveSlot = free
        return "Slot \(preferred) holds another save, which is kept exactly as it was (`saves` lists every slot); "
            + "this game saves itself to slot \(free)."
    }

    // MARK: - Autosaves

    /// Deletes the autosaves of this game's family beyond the newest `keeping`, oldest first, never the slot this
    /// game saves itself to (`--keep-autosaves N`; see ``SaveGameStore/pruneAutosaves(base:keeping:sparing:)``).
    ///
    /// Call it once the game has begun (its slot is settled then). Slots other games play must be passed in
    /// `sparing`: a host knows only its own.
    ///
    /// - Parameters:
    ///   - keeping: How many autosaves to keep.
    ///   - sparing: The slots other games play.
    /// - Returns: The slots deleted, oldest first.
    @discardableResult
    public func pruneAutosaves(keeping: Int, sparing: Set<String> = []) -> [String] {
        guard let store else { return [] }
        return store.pruneAutosaves(base: autosaveSlot, keeping: keeping, sparing: sparing.union([activeAutosaveSlot]))
    }


    /// Writes what changed to the autosave slot, or everything when it must be written whole, with the feedback
    /// reports and recordings the turns made, in one transaction.
    ///
    /// When it fails, nothing is marked saved: the next autosave writes this turn's changes, reports and
    /// recordings too, and the player is told so.
    func autosaveChanges(output: @Sendable (GameOutput) -> Void) async {
        await collectAttachments(output: output)
        guard let store else { return }
        if let note = settleNewGameSlot() { output(.narration(note)) }
        // A slot loaded just now may still be being copied into the autosave slot: wait here rather than in the
        // write, which would hold a thread.
        await autosave?.copyMade()
        do {
            try claimSaves()
            let file = try autosave ?? store.open(slot: activeAutosaveSlot)
            autosave = file
            if needsFullAutosave {
                var snapshot = try await game.saveSnapshot(label: "Autosave", playTime: playTime)
                snapshot.feedback = unsaved.feedback
                snapshot.recordings = unsaved.recordings
                try await file.asyncWriteFull(snapshot)
                needsFullAutosave = false
            } else {
                let attachments = !unsaved.feedback.isEmpty || !unsaved.recordings.isEmpty
                guard var delta = await game.saveDelta(playTime: playTime, evenIfUnchanged: attachments) else { return }
                delta.feedback = unsaved.feedback
                delta.recordings = unsaved.recordings
                try await file.asyncAutosave(delta)
            }
            unsaved = ([], [])
            await game.markSaved()
        } catch {
            // A save still waiting for its copy is kept: the next autosave tries the copy again. (Opened anew, the
            // slot would hold the game it held before the load.)
            if autosave?.isWaitingForItsCopy != true {
                autosave?.close()
                autosave = nil
            }
            let waiting = unsaved.feedback.count
            output(
                .problem(
                    "Autosave failed: \(error) The game goes on, and the previous save is kept; the next autosave "
                        + "will try again with this turn"
                        + (waiting == 0 ? "." : " and its \(waiting) feedback report\(waiting == 1 ? "" : "s").")))
        }
    }

    /// Moves the game's new feedback reports and recordings to `unsaved`, for the next save to write; writes each
    /// new report to the feedback folder, if there is one.
    func collectAttachments(output: (GameOutput) -> Void) async {
        let (reports, recordings) = await game.takeNewAttachments()
        for report in reports {
            unsaved.feedback.append(report.savedAttachment)
            writeToFeedbackFolder(report, output: output)
        }
        unsaved.recordings += recordings.map(\.savedAttachment)
    }

    /// Writes a report to the feedback folder as `<id>.json`, telling the player when it cannot.
    func writeToFeedbackFolder(_ report: FeedbackReport, output: (GameOutput) -> Void) {
        guard let feedbackFolder else { return }
        // The id is the game's own (a UUID), but only letters, digits, - and _ ever make a file name.
        let name = String(report.attachment.id.unicodeScalars.filter { Self.fileNameCharacters.contains($0) }.prefix(80))
        let file = feedbackFolder.appendingPathComponent((name.isEmpty ? "report" : name) + ".json")
        do {
            try FileManager.default.createDirectory(at: feedbackFolder, withIntermediateDirectories: true)
            try report.attachment.jsonData().write(to: file, options: .atomic)
        } catch {
            output(
                .problem(
                    "The feedback report \(report.attachment.id) could not be written to \(feedbackFolder.path): "
                        + "\(error.localizedDescription) It is kept in the save."))
        }
    }

    /// The characters a feedback file's name may hold.
    static let fileNameCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))

    // MARK: - Manual saves

    /// Saves the whole game to a slot, with every feedback report and recording of this story.
    func save(slot: String?, label: String?, output: @Sendable (GameOutput) -> Void) async {
        guard let store else { return output(.problem("This game was started without a save folder.")) }
        await collectAttachments(output: output)
        await autosave?.copyMade()
        let slot = slot ?? "save"
        do {
            try claimSaves()
            let url = try store.slotURL(slot)
            let toAutosave = url == (try store.slotURL(activeAutosaveSlot))
            let file = try toAutosave ? (autosave ?? store.open(slot: activeAutosaveSlot)) : store.open(slot: slot)
            defer { if !toAutosave { file.close() } }
            var snapshot = try await game.saveSnapshot(label: label ?? defaultLabel, playTime: playTime)
            // The story's reports and recordings: those the autosave keeps, and those not saved yet.
            snapshot.feedback = ((try autosave?.feedback()) ?? []) + unsaved.feedback
            snapshot.recordings = ((try autosave?.recordings()) ?? []) + unsaved.recordings
            try await file.asyncWriteFull(snapshot)
            if toAutosave {
                autosave = file
                slotSettled = true
                needsFullAutosave = false
                unsaved = ([], [])
                await game.markSaved()
            }
            output(.narration("Saved to slot \(file.slot)."))
            await game.saveModelCaches()
        } catch {
            output(.problem("The game could not be saved: \(error) The game goes on; nothing was lost."))
        }
    }

    func describeSaves() -> String {
        guard let store else { return "This game was started without a save folder." }
        let slots = store.list()
        guard !slots.isEmpty else { return "No saved games yet." }
        return slots.map { summary in
            let playing = summary.slot == activeAutosaveSlot && autosave != nil ? " (this game)" : ""
            if let metadata = summary.metadata {
                return
                    "  \(summary.slot): \(metadata.label), \(metadata.locationName), played \(Self.format(metadata.playTime))\(playing)"
            }
            return "  \(summary.slot): unreadable (\(summary.error.map { "\($0)" } ?? "unknown error"))"
        }.joined(separator: "\n")
    }

    var defaultLabel: String {
        let state = pack.initialState
        return "\(state.player.name) in \(state.world.title)"
    }
}

extension SaveFile {
    /// Adds a feedback report to the save, as the game's autosave keeps the reports its turns file (one row of the
    /// `feedback` table, the report's JSON as `logFeedbackAttachment` returns it), in its own transaction.
    ///
    /// - Parameter report: The report.
    /// - Throws: ``SaveGames/SaveGameError`` when the save cannot be written.
    public func addFeedback(_ report: FeedbackReport) throws {
        let saved = report.savedAttachment
        try addFeedback(id: saved.id, npc: saved.npc, createdAt: saved.createdAt, json: saved.json)
    }
}

extension FeedbackReport {
    /// The report as a save keeps it.
    var savedAttachment: SavedAttachment {
        SavedAttachment(
            id: attachment.id, npc: npc, createdAt: attachment.createdAt,
            json: String(decoding: attachment.jsonData(), as: UTF8.self))
    }
}

extension TurnRecording {
    /// The recording as a save keeps it.
    var savedAttachment: SavedAttachment {
        SavedAttachment(id: id, npc: npc, createdAt: createdAt, json: jsonValue.jsonString())
    }
}

import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import SaveGames

// Loading a saved game, and reloading the content pack.

extension GameHost {
    // MARK: - Loading

    /// Loads a saved game. The save is read and checked without changing it; only a save that loads becomes the
    /// game.
    ///
    /// - A slot of the autosave family (another game, or this one's) is continued in its own slot: later autosaves
    ///   extend it, and the game that was being played stays in its slot.
    /// - Any other slot is copied into this game's autosave slot, so later autosaves extend that save's story
    ///   without changing it; the feedback reports and recordings the autosave held are kept in the copy. The copy is
    ///   made on a thread of its own while the game goes on (conversations are read from the loaded slot meanwhile);
    ///   the first autosave waits for it.
    ///
    /// - Parameters:
    ///   - slot: The slot, as the player typed it.
    ///   - output: Receives what the game shows.
    ///   - startingUp: Whether this is `--continue` at start-up, when a failure starts a new game.
    /// - Returns: Whether the game was loaded.
    @discardableResult
    func load(slot: String, output: @Sendable (GameOutput) -> Void, startingUp: Bool = false) async -> Bool {
        guard let store else {
            output(.problem("This game was started without a save folder."))
            return false
        }
        var note: String?
        do {
            try claimSaves()
            let url = try store.slotURL(slot)
            let name = url.deletingPathExtension().lastPathComponent
            // Read and check the whole save (state, offers, ranges) before anything is changed.
            let checked = try store.open(slot: slot, access: .readOnly)
            let loadedChecked = try checked.load(pack: pack)
            // Only the game's own open autosave changes before it is used: its unsaved turns are written to it below.
            let changesBeforeUse = autosave != nil && name == activeAutosaveSlot
            // What the game being played has not saved yet is saved to its own slot first.
            if autosave != nil { await autosaveChanges(output: output) }
            let file: SaveFile
            if SaveGameStore.isAutosave(name, base: autosaveSlot) {
                if name != activeAutosaveSlot || autosave == nil {
                    autosave?.close()
                    autosave = nil
                }
                // Checked just now, and the folder is claimed: no second inspection.
                file = try autosave ?? store.openForWriting(checked: checked)
                checked.close()
                activeAutosaveSlot = name
                slotSettled = true
            } else {
                note = settleNewGameSlot()
                let keep = try attachmentsToKeep(store: store, note: &note)
                autosave?.close()
                autosave = nil
                // A copy of a save checked just now (upgraded, if it was older), in a claimed folder: no second
                // inspection. It is made while the game goes on; the autosave slot keeps what it held until then.
                file = try store.openCopy(of: checked, as: activeAutosaveSlot, keeping: keep)
            }
            autosave = file
            unsaved = ([], [])
            // The file now open for writing holds what was checked (or a copy of it): no need to read it again.
            let loaded = changesBeforeUse ? try file.load(pack: pack) : loadedChecked
            game = Game(continuing: loaded, from: file, models: models, options: options)
            needsFullAutosave = false
            playTimeBase = loaded.metadata.playTime
            playStart = .now
            output(.narration("Loaded \(checked.slot): \(loaded.metadata.label)." + (note.map { " \($0)" } ?? "")))
            if loaded.contentChanged {
                output(.problem("The content pack changed since this save was made; the game loaded what it could."))
            }
            for missing in loaded.missing { output(.problem("Missing from the content pack: \(missing)")) }
            await game.perform(.look, output: output)
            return true
        } catch {
            if startingUp {
                output(
                    .problem(
                        "Could not continue the game in slot \(slot): \(error) Its file was left exactly as it was; "
                            + "a new game begins instead."))
            } else {
                output(.problem("Could not load \(slot): \(error) The current game goes on."))
            }
            return false
        }
    }

    /// The feedback reports and recordings of the autosave slot a loaded save is about to replace, with those not
    /// saved yet. When the slot holds a file whose reports cannot be read, the game moves to a free slot instead,
    /// so that nothing is replaced that could not be kept.
    private func attachmentsToKeep(
        store: SaveGameStore, note: inout String?
    ) throws -> (feedback: [SavedAttachment], recordings: [SavedAttachment]) {
        var feedback = unsaved.feedback
        var recordings = unsaved.recordings
        if let autosave {
            feedback = try autosave.feedback() + feedback
            recordings = try autosave.recordings() + recordings
        } else if !store.isFree(activeAutosaveSlot) {
            do {
                let current = try store.open(slot: activeAutosaveSlot, access: .readOnly)
                defer { current.close() }
                feedback = try current.feedback() + feedback
                recordings = try current.recordings() + recordings
            } catch {
                let taken = activeAutosaveSlot
                activeAutosaveSlot = try store.freeAutosaveSlot(base: autosaveSlot)
                note =
                    "Slot \(taken) could not be read (\(error)), so it is kept as it was; this game saves itself "
                    + "to slot \(activeAutosaveSlot)."
            }
        }
        return (feedback, recordings)
    }

    // MARK: - Reloading

    /// Reads the content pack again and rebuilds the game on it: the player, the NPCs' places, gold and items,
    /// the story, the conversations and the pending offers stay; personas, dialogue rules, beats and prices come
    /// from the new files. A pack with errors is not used: its problems are shown and the game goes on.
    func reload(output: @Sendable (GameOutput) -> Void) async {
        guard let contentDirectory else { return output(.problem("This game was not started from a content folder.")) }
        let loaded = ContentPack.load(from: contentDirectory, displayPath: contentDirectory.relativePath)
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        guard let newPack = loaded.pack, errors.isEmpty else {
            for diagnostic in errors.prefix(20) { output(.problem("\(diagnostic)")) }
            return output(.problem("The content pack has errors, so the game goes on with the old one."))
        }
        do {
            await collectAttachments(output: output)
            let conversations = try await game.allConversations()
            let state = DynamicState(await game.state).applied(to: newPack.initialState)
            let restored = RestoredConversations(
                npcs: Set(conversations.keys), pendingOffers: await game.pendingOffers, load: { conversations[$0] })
            let partner = await game.partner
            game = Game(state: state, models: models, options: options, restoring: restored)
            await game.resume(talkingTo: partner)
            pack = newPack
            needsFullAutosave = true
            let warnings = loaded.diagnostics.count - errors.count
            output(
                .narration(
                    "Reloaded \(contentDirectory.relativePath): \(loaded.counts.npcs) NPCs, \(loaded.counts.items) items"
                        + (warnings > 0 ? ", \(warnings) warnings." : ".")))
        } catch {
            output(.problem("Could not reload: \(error) The game goes on with the old pack."))
        }
    }
}

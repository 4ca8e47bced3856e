import Foundation
import GameWorld
import LanguageModels
import SaveGames

/// Runs a game with saving: the in-game `save`, `load` and `saves` commands, an autosave after every turn, and
/// feedback reports kept with the save.
///
/// ```swift
/// let host = GameHost(pack: pack, models: models, store: SaveGameStore(folder: savesFolder))
/// await host.perform("talk to mira") { render($0) }   // ... and the game is saved to the "autosave" slot
/// ```
///
/// Saving never stops the game: when a save fails (a read-only folder, a full disk), the player is told why, the
/// previous save is kept, and the next turn tries again.
public actor GameHost {
    /// The game being played.
    public private(set) var game: Game
    var pack: ContentPack
    /// The folder the content pack was read from, for `reload`.
    let contentDirectory: URL?
    let models: Game.ModelProvider
    let options: GenerationOptions
    let store: SaveGameStore?
    /// The slot the game saves itself to after every turn.
    public nonisolated let autosaveSlot: String
    let feedbackFolder: URL?
    var autosave: SaveFile?
    /// Whether the autosave slot must be written whole (a new game) rather than by changes.
    var needsFullAutosave = true
    var playTimeBase: Duration = .zero
    var playStart = ContinuousClock.now
    /// How many of the game's feedback reports are kept already.
    var feedbackKept = 0
    /// How many of the game's turn recordings are kept already.
    var recordingsKept = 0
    /// The feedback reports this host has kept, also written to manual saves.
    var feedbackReports: [FeedbackReport] = []

    /// Hosts a new game.
    ///
    /// - Parameters:
    ///   - pack: The content pack (a loaded save is rebuilt on it).
    ///   - state: The new game's state; the pack's initial state by default.
    ///   - models: Makes each NPC's model.
    ///   - store: Where saves live; `nil` plays without saving.
    ///   - autosaveSlot: The slot saved after every turn.
    ///   - feedbackFolder: A folder that receives each new feedback report as a `.json` file, for tools that watch
    ///     it; `nil` for none.
    ///   - options: How NPC replies are generated.
    ///   - contentDirectory: The folder the pack was read from, so `reload` can read it again.
    public init(
        pack: ContentPack, state: GameState? = nil, models: @escaping Game.ModelProvider, store: SaveGameStore?,
        autosaveSlot: String = "autosave", feedbackFolder: URL? = nil, options: GenerationOptions = GenerationOptions(),
        contentDirectory: URL? = nil
    ) {
        self.pack = pack
        self.contentDirectory = contentDirectory
        self.models = models
        self.options = options
        self.store = store
        self.autosaveSlot = autosaveSlot
        self.feedbackFolder = feedbackFolder
        self.game = Game(state: state ?? pack.initialState, models: models, options: options)
    }

    /// The play time so far, saves included.
    public var playTime: Duration { playTimeBase + (ContinuousClock.now - playStart) }

    /// Runs one line the player typed, then autosaves what changed.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - output: Receives what the game shows.
    /// - Returns: `false` when the player quit.
    @discardableResult
    public func perform(_ line: String, output: @Sendable (GameOutput) -> Void) async -> Bool {
        let command = GameCommand.parse(line, talking: await game.partner != nil)
        switch command {
        case .quit: return false
        case .save(let slot, let label): await save(slot: slot, label: label, output: output)
        case .load(let slot): await load(slot: slot, output: output)
        case .saves: output(.narration(describeSaves()))
        case .reload:
            await reload(output: output)
            await autosaveChanges(output: output)
        default:
            await game.perform(command, output: output)
            await autosaveChanges(output: output)
            await keepNewFeedback()
            await keepNewRecordings()
        }
        return true
    }

    // MARK: - Saving

    /// Saves the whole game to a slot.
    func save(slot: String?, label: String?, output: @Sendable (GameOutput) -> Void) async {
        guard let store else { return output(.problem("This game was started without a save folder.")) }
        let slot = slot ?? "save"
        do {
            let file = try store.open(slot: slot)
            let snapshot = try await game.saveSnapshot(label: label ?? defaultLabel, playTime: playTime)
            try file.writeFull(snapshot)
            for report in feedbackReports { try? file.addFeedback(report) }
            // The turns recorded in this story (kept in the autosave) go with it.
            for recording in (try? autosave?.recordings()) ?? [] {
                try? file.addRecording(
                    id: recording.id, npc: recording.npc, createdAt: recording.createdAt, json: recording.json)
            }
            output(.narration("Saved to slot \(file.slot)."))
        } catch {
            output(.problem("The game could not be saved: \(error) The game goes on; nothing was lost."))
        }
    }

    /// Writes what changed to the autosave slot, or everything when it must be written whole.
    func autosaveChanges(output: @Sendable (GameOutput) -> Void) async {
        guard let store else { return }
        do {
            let file = try autosave ?? store.open(slot: autosaveSlot)
            autosave = file
            if needsFullAutosave {
                try file.writeFull(try await game.saveSnapshot(label: "Autosave", playTime: playTime))
                needsFullAutosave = false
            } else if let delta = await game.saveDelta(playTime: playTime) {
                try file.autosave(delta)
            } else {
                return
            }
            await game.markSaved()
        } catch {
            autosave = nil
            output(.problem("Autosave failed: \(error) The game goes on, and the previous save is kept."))
        }
    }

    // MARK: - Loading

    /// Loads a saved game; the autosave slot becomes a copy of it, so later autosaves extend that save's story.
    func load(slot: String, output: @Sendable (GameOutput) -> Void) async {
        guard let store else { return output(.problem("This game was started without a save folder.")) }
        do {
            let file: SaveFile
            let loaded: LoadedGame
            let source: SaveFile
            let url = try store.slotURL(slot)
            if url == (try store.slotURL(autosaveSlot)), FileManager.default.fileExists(atPath: url.path) {
                // Continuing from the autosave: open it for writing once and load from that connection, so the
                // file is inspected once (the inspection reads every page of the save).
                source = try store.open(slot: autosaveSlot)
                loaded = try source.load(pack: pack)
                file = source
            } else {
                file = try store.open(slot: slot, access: .readOnly)
                loaded = try file.load(pack: pack)
                if file.slot != autosaveSlot {
                    autosave = nil
                    try file.copy(to: try store.slotURL(autosaveSlot))
                }
                source = try store.open(slot: autosaveSlot)
            }
            autosave = source
            let restored = RestoredConversations(
                npcs: Set(loaded.conversations), pendingOffers: loaded.pendingOffers.mapValues(PendingOffer.init),
                load: { npc in try source.transcript(npc: npc) })
            game = Game(state: loaded.state, models: models, options: options, restoring: restored)
            feedbackKept = 0
            recordingsKept = 0
            needsFullAutosave = false
            playTimeBase = loaded.metadata.playTime
            playStart = .now
            output(.narration("Loaded \(file.slot): \(loaded.metadata.label)."))
            if loaded.contentChanged {
                output(.problem("The content pack changed since this save was made; the game loaded what it could."))
            }
            for missing in loaded.missing { output(.problem("Missing from the content pack: \(missing)")) }
            await game.perform(.look, output: output)
        } catch {
            output(.problem("Could not load \(slot): \(error) The current game goes on."))
        }
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
            let conversations = try await game.allConversations()
            let state = DynamicState(await game.state).applied(to: newPack.initialState)
            let restored = RestoredConversations(
                npcs: Set(conversations.keys), pendingOffers: await game.pendingOffers, load: { conversations[$0] })
            let partner = await game.partner
            game = Game(state: state, models: models, options: options, restoring: restored)
            await game.resume(talkingTo: partner)
            pack = newPack
            feedbackKept = 0
            recordingsKept = 0
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

    func describeSaves() -> String {
        guard let store else { return "This game was started without a save folder." }
        let slots = store.list()
        guard !slots.isEmpty else { return "No saved games yet." }
        return slots.map { summary in
            if let metadata = summary.metadata {
                return
                    "  \(summary.slot): \(metadata.label), \(metadata.locationName), played \(Self.format(metadata.playTime))"
            }
            return "  \(summary.slot): unreadable (\(summary.error.map { "\($0)" } ?? "unknown error"))"
        }.joined(separator: "\n")
    }

    var defaultLabel: String {
        let state = pack.initialState
        return "\(state.player.name) in \(state.world.title)"
    }

    // MARK: - Recordings

    /// Keeps each turn the last command recorded with the autosave.
    func keepNewRecordings() async {
        let recordings = await game.recordings
        guard recordings.count > recordingsKept else { return }
        for recording in recordings[recordingsKept...] {
            try? autosave?.addRecording(
                id: recording.id, npc: recording.npc, createdAt: recording.createdAt,
                json: recording.jsonValue.jsonString())
        }
        recordingsKept = recordings.count
    }

    // MARK: - Feedback

    /// Keeps each feedback report the last command made with the autosave and, if asked, in the feedback folder.
    func keepNewFeedback() async {
        let reports = await game.feedback
        guard reports.count > feedbackKept else { return }
        for report in reports[feedbackKept...] {
            feedbackReports.append(report)
            try? autosave?.addFeedback(report)
            if let feedbackFolder {
                try? FileManager.default.createDirectory(at: feedbackFolder, withIntermediateDirectories: true)
                try? report.attachment.jsonData().write(
                    to: feedbackFolder.appendingPathComponent("\(report.attachment.id).json"), options: .atomic)
            }
        }
        feedbackKept = reports.count
    }

    /// A play time as `12 min` or `1 h 5 min`.
    ///
    /// - Parameter duration: The play time.
    /// - Returns: The text.
    public static func format(_ duration: Duration) -> String {
        let minutes = Int(duration.components.seconds) / 60
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

extension SaveFile {
    /// Keeps a feedback report in the save.
    func addFeedback(_ report: FeedbackReport) throws {
        try addFeedback(
            id: report.attachment.id, npc: report.npc, createdAt: report.attachment.createdAt,
            json: String(decoding: report.attachment.jsonData(), as: UTF8.self))
    }
}

import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import SaveGames

/// Runs a game with saving: the in-game `save`, `load` and `saves` commands, an autosave after every turn, and
/// feedback reports and turn recordings kept with the save.
///
/// ```swift
/// let host = GameHost(pack: pack, models: models, store: SaveGameStore(folder: savesFolder))
/// try await host.claimSaves()                               // fails at once if another game uses the folder
/// await host.begin(continuing: false) { render($0) }         // a new game: the place described
/// await host.perform("talk to mira") { render($0) }          // ... and the game is saved to the "autosave" slot
/// await host.close()                                         // each save is one self-contained file again
/// ```
///
/// Nothing is ever lost:
/// - A game never saves itself over a save it did not make. A new game whose autosave slot holds another game, or
///   a file that could not be loaded (damaged, of another world), saves itself to the first free slot of the
///   autosave family instead (`autosave-2`, …), and says so; the other file stays byte for byte as it was.
/// - Saving never stops the game: when a save fails (a read-only folder, a full disk), the player is told why, the
///   previous save is kept, and the next turn saves what this one could not, feedback reports and recordings
///   included. A turn's reports and recordings are written in the same transaction as the turn.
/// - One game at a time uses a save folder: the host claims it (``SaveGameStore/lockFolder()``) before it first
///   writes, and a second game gets a clear "in use by another Parley (pid N)" instead of merging two stories.
public actor GameHost {
    /// The game being played.
    public internal(set) var game: Game {
        // A loaded or reloaded game is a new `Game`: it takes the host's action handler (`onAction(_:)`).
        didSet { game.onAction(actionHandler) }
    }
    /// What performs the pack's actions, for every game this host plays (see `onAction(_:)`).
    var actionHandler: GameActionHandler?
    var pack: ContentPack
    /// The folder the content pack was read from, for `reload`.
    let contentDirectory: URL?
    let models: Game.ModelProvider
    let options: GenerationOptions
    let store: SaveGameStore?
    /// The slot the game saves itself to after every turn, or the name its autosave family is based on when that
    /// slot holds another game: see ``activeAutosaveSlot``.
    public nonisolated let autosaveSlot: String
    /// The slot this game saves itself to after every turn: ``autosaveSlot``, or the first free `<autosaveSlot>-N`
    /// when that slot held another game (or a file that could not be loaded) when this game first saved.
    public internal(set) var activeAutosaveSlot: String
    /// Whether ``activeAutosaveSlot`` is settled: chosen free for a new game, or the slot of a loaded one.
    var slotSettled = false
    let feedbackFolder: URL?
    var autosave: SaveFile?
    /// Whether the autosave slot must be written whole (a new game) rather than by changes.
    var needsFullAutosave = true
    var playTimeBase: Duration = .zero
    var playStart = ContinuousClock.now
    /// Feedback reports and recordings of turns not saved yet (an autosave failed): the next autosave writes them
    /// with its turns.
    var unsaved: (feedback: [SavedAttachment], recordings: [SavedAttachment]) = ([], [])
    /// The claim on the save folder, taken before the first write.
    var folderLock: SaveFolderLock?

    /// Hosts a new game.
    ///
    /// - Parameters:
    ///   - pack: The content pack (a loaded save is rebuilt on it).
    ///   - state: The new game's state; the pack's initial state by default.
    ///   - models: Makes each NPC's model.
    ///   - store: Where saves live; `nil` plays without saving.
    ///   - autosaveSlot: The slot saved after every turn (or, when it holds another game, the name of the family of
    ///     slots a new game saves itself to: `autosave-2`, …).
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
        self.activeAutosaveSlot = SaveGameStore.sanitizedSlotName(autosaveSlot) ?? autosaveSlot
        self.feedbackFolder = feedbackFolder
        self.game = Game(state: state ?? pack.initialState, models: models, options: options)
    }

    /// Sets what performs the actions the pack declares (`actions.json`), for the game being played and every game
    /// a `load` or `reload` makes later; see `Game.onAction(_:)`.
    ///
    /// - Parameter handler: Performs an action and returns the game's answer; `nil` for nothing.
    public func onAction(_ handler: GameActionHandler?) {
        actionHandler = handler
        game.onAction(handler)
    }

    /// The play time so far, saves included.
    public var playTime: Duration { playTimeBase + (ContinuousClock.now - playStart) }

    /// Starts play: a new game that looks around, or, when `continuing`, the most recently saved game of the
    /// autosave family (``SaveGameStore/autosaveSlots(base:)``).
    ///
    /// When the game to continue cannot be loaded, the player is told why, its file is left exactly as it was, and
    /// a new game begins in a free slot. A new game never replaces a saved one: when the autosave slot holds a game,
    /// the new one saves itself to the first free `<autosaveSlot>-N`, and the player is told where.
    ///
    /// - Parameters:
    ///   - continuing: Whether to continue the last game rather than start a new one.
    ///   - output: Receives what the game shows.
    public func begin(continuing: Bool, output: @Sendable (GameOutput) -> Void) async {
        if continuing, let store {
            if let latest = store.autosaveSlots(base: autosaveSlot).first {
                if await load(slot: latest.slot, output: output, startingUp: true) { return }
            } else {
                output(.narration("There is no saved game to continue yet, so a new one begins."))
            }
        }
        if let note = settleNewGameSlot() { output(.narration(note)) }
        await perform(.look, output: output)
    }

    /// Runs one line the player typed, then autosaves what changed.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - output: Receives what the game shows.
    /// - Returns: `false` when the player quit.
    @discardableResult
    public func perform(_ line: String, output: @Sendable (GameOutput) -> Void) async -> Bool {
        await perform(await game.command(for: line), output: output)
    }

    /// Runs one command (a line the player typed, read), then autosaves what changed.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - output: Receives what the game shows.
    /// - Returns: `false` when the player quit.
    @discardableResult
    public func perform(_ command: GameCommand, output: @Sendable (GameOutput) -> Void) async -> Bool {
        switch command {
        case .quit: return false
        case .save(let slot, let label): await save(slot: slot, label: label, output: output)
        case .load(let slot): await load(slot: slot, output: output)
        case .saves:
            // The autosave slot lists the loaded game once its copy is made.
            await autosave?.copyMade()
            output(.narration(describeSaves()))
        case .reload:
            await reload(output: output)
            await autosaveChanges(output: output)
        default:
            await game.perform(command, output: output)
            await autosaveChanges(output: output)
        }
        return true
    }

    /// Ends play: saves what is not saved yet, closes every save (folding its write-ahead log back in, so each is one
    /// self-contained file), gives the save folder up for another game, and then asks the NPCs' models to write their
    /// servers' caches (`Game.saveModelCaches()`).
    ///
    /// - Parameter output: Receives a problem if the last save fails.
    public func close(output: @Sendable (GameOutput) -> Void = { _ in }) async {
        if autosave != nil { await autosaveChanges(output: output) }
        autosave?.close()
        autosave = nil
        folderLock?.release()
        folderLock = nil
        // Last, once the save is safe: the NPCs' KV caches on a model server, for the process that continues.
        await game.saveModelCaches()
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

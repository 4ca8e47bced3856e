import Foundation
import ParleyJSON
import ParleySQLite

/// A folder of save slots, one SQLite file per slot: `<folder>/<slot>.parley`.
///
/// ```swift
/// let store = SaveGameStore(folder: URL(fileURLWithPath: "SaveGames"))
/// let save = try store.open(slot: "slot1")          // created if new, upgraded if older
/// try save.writeFull(SaveSnapshot(state: pack.initialState, playTime: .zero))
/// let loaded = try save.load(pack: pack)
/// for slot in store.list() { print(slot.slot, slot.metadata?.label ?? slot.error?.description ?? "empty") }
/// ```
///
/// Slot names are sanitized (see ``sanitizedSlotName(_:)``), so no name can reach outside the folder. The file
/// format is described in `docs/save-format.md`.
public struct SaveGameStore: Sendable {
    /// The file extension of save files, without the dot.
    public static let fileExtension = "parley"

    /// The schema version this version of Parley writes; saves of older versions are upgraded when opened, saves of
    /// newer ones are refused (``SaveGameError/Code/newerSchema``).
    public static let schemaVersion = SaveSchema.currentVersion

    /// The folder holding the save files.
    public let folder: URL

    /// The clock that stamps `created_at`, `updated_at` and attachments' times; tests fix it.
    let now: @Sendable () -> Date

    /// The schema's migrations: ``SaveSchema/migrator``, or one with more for tests of upgrades.
    let migrator: Migrator

    /// A store over `folder`, which is created when the first slot is.
    ///
    /// - Parameters:
    ///   - folder: The save folder, for example `SaveGames`.
    ///   - now: The clock for the times a save records; the system clock by default.
    public init(folder: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(folder: folder, now: now, migrator: SaveSchema.migrator)
    }

    /// A store whose saves follow `migrator`'s schema: for tests that upgrade saves to a schema not released yet.
    init(folder: URL, now: @escaping @Sendable () -> Date, migrator: Migrator) {
        self.folder = folder
        self.now = now
        self.migrator = migrator
    }

    // MARK: - Slots

    /// The file of a slot, after sanitizing its name.
    ///
    /// - Parameter slot: The slot's name as the player typed it, for example `My Save 1`.
    /// - Returns: `<folder>/<sanitized>.parley`, for example `SaveGames/my-save-1.parley`.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/invalidSlotName`` when nothing usable is left.
    public func slotURL(_ slot: String) throws -> URL {
        guard let name = Self.sanitizedSlotName(slot) else {
            throw SaveGameError(
                .invalidSlotName, detail: "\"\(slot)\" has no letter or digit to make a file name from")
        }
        return folder.appendingPathComponent(name).appendingPathExtension(Self.fileExtension)
    }

    /// Opens a slot, creating it if it does not exist and upgrading it if it comes from an older schema.
    ///
    /// The file is first inspected read-only: its header (a file shorter than its header says is truncated), its
    /// application id, its migrations, the tables and columns they create, and the first and last pages of every
    /// table and index; a save not closed cleanly (its write-ahead log or a journal lies beside it) is checked whole,
    /// every page (SQLite's `quick_check`). It is opened for writing only if it is a Parley save this version can
    /// read (or an empty database), so a foreign, damaged or newer file is never modified. The rest of the file is
    /// checked as it is read: ``SaveFile/load(pack:)`` checks the tables of the state before reading them, and every
    /// page is checked by SQLite when it is read. Keep the returned ``SaveFile`` for the whole session rather than
    /// opening the slot for every save.
    ///
    /// With ``SaveFile/Access/readOnly`` nothing is created or written, not even a `-wal` or `-shm` file beside the
    /// save: a missing slot is an error, and a save from an older schema is upgraded in a private temporary copy, so
    /// it can be loaded from a read-only folder.
    ///
    /// - Parameters:
    ///   - slot: The slot's name (sanitized as ``slotURL(_:)`` does).
    ///   - access: Whether the save may be written; ``SaveFile/Access/readWrite`` by default.
    /// - Returns: The open save.
    /// A slot whose file (or the `-wal`, `-shm` or `-journal` file beside it) is a symbolic link, a FIFO or a device
    /// is refused, never read or written through. Writing under a name that makes the file of a save made under
    /// another name (`a/b` and `a b` both make `a-b.parley`) is refused too; see `docs/save-format.md`. Opening for
    /// writing does not claim the folder: a game claims it first with ``lockFolder()``.
    ///
    /// - Throws: ``SaveGameError``: ``SaveGameError/Code/notASave``, ``SaveGameError/Code/corrupt``,
    ///   ``SaveGameError/Code/truncated``, ``SaveGameError/Code/newerSchema`` for files that cannot be used;
    ///   ``SaveGameError/Code/unsafePath`` for a link or special file; ``SaveGameError/Code/nameTaken`` for a name
    ///   that would share another save's file;
    ///   ``SaveGameError/Code/readOnly``, ``SaveGameError/Code/cannotOpen``, ``SaveGameError/Code/busy`` when the
    ///   file or folder cannot be written or opened; ``SaveGameError/Code/notFound`` for a missing slot opened
    ///   read-only; ``SaveGameError/Code/migrationFailed`` when an upgrade failed (and was rolled back).
    public func open(slot: String, access: SaveFile.Access = .readWrite) throws -> SaveFile {
        let url = try slotURL(slot)
        let name = url.deletingPathExtension().lastPathComponent
        try checkPlainFiles(url)
        // A copy from or to this file being made (openCopy) is finished before anything may write it.
        if access == .readWrite { try SaveCopy.settle(url) }
        let finding = try SaveInspector.inspect(url, migrator: migrator)
        switch access {
        case .readWrite:
            try createFolder()
            if case .save = finding { try checkName(slot, file: url) }
            return try SaveFile.openForWriting(slot: name, url: url, migrator: migrator, now: now, requestedName: slot)
        case .readOnly:
            switch finding {
            case .missing:
                throw SaveGameError(.notFound, path: url.path, detail: "no slot \"\(name)\"")
            case .empty:
                throw SaveGameError(.noGame, path: url.path, detail: "the slot was created but never saved")
            case .save(let applied):
                let upToDate = Set(applied).isSuperset(of: migrator.migrationIDs)
                return try SaveFile.openForReading(
                    slot: name, url: url, upgradingCopy: !upToDate, migrator: migrator, now: now, requestedName: slot)
            }
        }
    }

    /// Opens a slot for writing without inspecting its file: for a save this process has just checked (opened
    /// read-only and loaded) or written itself (a copy of a checked save).
    ///
    /// The inspection reads the schema and the ends of every table (``open(slot:access:)``); a game that has just
    /// checked a save before using it need not pay for it twice. Only a game holding the folder's claim
    /// (``lockFolder()``) may use this: the claim is what keeps another Parley from changing the file in between. The
    /// file must be of this schema version (a save that was upgraded in a temporary copy when read goes through
    /// ``open(slot:access:)`` and its migrations).
    ///
    /// - Parameter slot: The slot's name.
    /// - Returns: The save, open for writing.
    /// - Throws: ``SaveGameError`` as ``open(slot:access:)`` does, but for the inspection's.
    package func openChecked(slot: String) throws -> SaveFile {
        let url = try slotURL(slot)
        try checkPlainFiles(url)
        try SaveCopy.settle(url)
        try checkName(slot, file: url)
        return try SaveFile.openForWriting(
            slot: url.deletingPathExtension().lastPathComponent, url: url, migrator: migrator, now: now,
            requestedName: slot)
    }

    /// Opens for writing a save that was just read and checked through `checked` (see ``openChecked(slot:)``).
    ///
    /// - Parameter checked: The save, opened read-only by this store and loaded.
    /// - Returns: The same slot, open for writing.
    /// - Throws: ``SaveGameError`` as ``open(slot:access:)`` does.
    package func openForWriting(checked: SaveFile) throws -> SaveFile {
        guard checked.temporaryCopy == nil else { return try open(slot: checked.requestedName) }
        return try openChecked(slot: checked.requestedName)
    }

    /// Continues a checked save in another slot: returns that slot, open for writing, whose file is replaced by a copy
    /// of the save, made on a thread of its own while the game goes on.
    ///
    /// This is how the game's `load` of a slot outside its autosave family becomes the autosave, without the player
    /// waiting for a copy of the whole file (which grows with the conversations): the returned save reads
    /// conversations (``SaveFile/transcript(npc:)``) from `source` until the copy is made; anything else it does (its
    /// first write, above all) waits for the copy, and so does ``SaveFile/close()``. Await ``SaveFile/copyMade()``
    /// before writing from an actor, so as not to block a thread meanwhile. Until the copy replaces it, the slot holds
    /// what it held: a crash before then leaves it as it was (and a `.partial` file that ``lockFolder()`` removes).
    ///
    /// Only a game holding the folder's claim (``lockFolder()``) may use this, as for ``openChecked(slot:)``; opening
    /// the source or the slot for writing through this store meanwhile waits for the copy first.
    ///
    /// - Parameters:
    ///   - source: The save to continue, opened read-only by this store and loaded (so checked). The returned save
    ///     owns it from now on and closes it when the copy is made: do not use or close it.
    ///   - slot: The slot to continue it in, for example the game's autosave slot.
    ///   - keeping: Feedback reports and recordings to add to the copy (the ones the slot holds, which it would
    ///     otherwise lose), those with ids the copy holds already skipped.
    /// - Returns: The slot, open for writing once the copy is made.
    /// - Throws: ``SaveGameError`` as ``openChecked(slot:)`` does, or when the source's files cannot be opened. A
    ///   copy that fails later is reported by the first read or write that waits for it, and tried again by the next.
    package func openCopy(
        of source: SaveFile, as slot: String, keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment])
    ) throws -> SaveFile {
        let url = try slotURL(slot)
        try checkPlainFiles(url)
        try SaveCopy.settle(url)
        return try SaveFile.openCopy(
            of: source, slot: url.deletingPathExtension().lastPathComponent, url: url, keeping: keeping, now: now)
    }

    /// Whether a slot has a file.
    ///
    /// - Parameter slot: The slot's name.
    /// - Returns: `true` when `<folder>/<slot>.parley` exists.
    public func exists(slot: String) -> Bool {
        guard let url = try? slotURL(slot) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// Every slot in the folder, most recently saved first; slots never saved and unreadable files come last, by
    /// name.
    ///
    /// A file is opened (read-only: listing never changes a save) only when the folder's listing index does not
    /// know it as it is now: what was read of each save is kept in `.parley-index.json` with the save's fingerprint
    /// (``SaveFingerprint``), so a folder of hundreds of saves is listed from one small file and a `stat` of each.
    /// A file that cannot be read is listed with its error (not a save, damaged, from a newer version) rather than
    /// left out, and read again every time.
    ///
    /// - Returns: The slots; empty when the folder does not exist.
    public func list() -> [SaveSlotSummary] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let slots = names.filter { $0.hasSuffix(".\(Self.fileExtension)") }.map {
            String($0.dropLast(Self.fileExtension.count + 1))
        }
        var index = SaveListingIndex.read(in: folder)
        let summaries = slots.map { indexedSummary(slot: $0, index: &index, read: summary(slot:)) }
        index.keepOnly(Set(slots))
        index.writeIfChanged(in: folder)
        return Self.mostRecentFirst(summaries)
    }

    /// A slot's summary from the listing index when its file is unchanged, else read (by `read`) and kept in it.
    func indexedSummary(
        slot: String, index: inout SaveListingIndex, read: (String) -> SaveSlotSummary
    ) -> SaveSlotSummary {
        let url = folder.appendingPathComponent(slot).appendingPathExtension(Self.fileExtension)
        let fingerprint = SaveFingerprint(of: url)
        if let entry = index.entry(slot, fingerprint: fingerprint) {
            return SaveSlotSummary(slot: slot, url: url, metadata: entry.metadata, error: nil)
        }
        let summary = read(slot)
        index.keep(summary, before: fingerprint)
        return summary
    }

    /// A slot as ``list()`` shows it, read without changing anything.
    func summary(slot: String) -> SaveSlotSummary {
        let url = folder.appendingPathComponent(slot).appendingPathExtension(Self.fileExtension)
        do {
            try checkPlainFiles(url)
            guard case .save = try SaveInspector.inspect(url, migrator: migrator) else {
                return SaveSlotSummary(slot: slot, url: url, metadata: nil, error: nil)
            }
            let db = try Database(path: url.path, options: Self.readOptions(for: url))
            let metadata = try SaveFile.readMetadata(db, path: url.path)
            return SaveSlotSummary(slot: slot, url: url, metadata: metadata, error: nil)
        } catch let error as SaveGameError where error.code == .noGame {
            return SaveSlotSummary(slot: slot, url: url, metadata: nil, error: nil)
        } catch {
            return SaveSlotSummary(
                slot: slot, url: url, metadata: nil, error: SaveGameError.wrapping(error, path: url.path))
        }
    }

    /// Summaries sorted as ``list()`` sorts them.
    static func mostRecentFirst(_ summaries: [SaveSlotSummary]) -> [SaveSlotSummary] {
        summaries.sorted { first, second in
            switch (first.metadata?.updatedAt, second.metadata?.updatedAt) {
            case (let a?, let b?) where a != b: a > b
            case (.some, nil): true
            case (nil, .some): false
            default: first.slot < second.slot
            }
        }
    }

    /// Deletes a slot: its file and SQLite's `-wal`, `-shm` and `-journal` files beside it.
    ///
    /// Close every ``SaveFile`` of the slot first.
    ///
    /// - Parameter slot: The slot's name.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/notFound`` when there is no such slot, or
    ///   ``SaveGameError/Code/readOnly`` when the file cannot be removed.
    public func delete(slot: String) throws {
        let url = try slotURL(slot)
        let manager = FileManager.default
        // By lstat: a symbolic link (even a dangling one) is a slot to delete; removing it removes the link only.
        guard Self.fileType(url.path) != .missing else {
            throw SaveGameError(.notFound, path: url.path, detail: "no slot \"\(slot)\"")
        }
        // A copy to this slot being made would put the file back.
        try SaveCopy.settle(url)
        do {
            // The main file last: while it exists, the slot is still there and can be deleted again.
            for suffix in Self.sideFileSuffixes where Self.fileType(url.path + suffix) != .missing {
                try manager.removeItem(atPath: url.path + suffix)
            }
            try manager.removeItem(at: url)
        } catch {
            throw SaveGameError(
                .readOnly, path: url.path, detail: "cannot remove it: \(error.localizedDescription)",
                underlyingError: error)
        }
    }

    /// A slot's whole content as one JSON document: metadata, state, conversations, pending offers, feedback and
    /// recordings (the shape is in `docs/save-format.md`). The save is opened read-only.
    ///
    /// - Parameter slot: The slot's name.
    /// - Returns: The JSON document.
    /// - Throws: ``SaveGameError`` as ``open(slot:access:)`` with ``SaveFile/Access/readOnly`` and
    ///   ``SaveFile/export()`` do.
    public func export(slot: String) throws -> JSONValue {
        try open(slot: slot, access: .readOnly).export()
    }

    // MARK: - Helpers

    private func createFolder() throws {
        try SaveFolderLock.createFolder(folder)
    }
}

import Foundation
import GameWorld
import ParleySQLite
import Synchronization

/// One open save slot: reads and writes the game state, the NPCs' conversations, feedback and recordings.
///
/// Get one from ``SaveGameStore/open(slot:access:)``. Every write is one SQLite transaction in a write-ahead log
/// with `synchronous = FULL`: it is on disk when the call returns, and a crash or `kill -9` at any moment leaves
/// the previous save intact and loadable. A write that fails (full disk, read-only folder) changes nothing and
/// throws a ``SaveGameError`` saying why; the game can go on and try again later.
///
/// ```swift
/// let save = try store.open(slot: "slot1")
/// try save.writeFull(SaveSnapshot(state: state, playTime: .zero, label: "New game"))   // a manual save
/// try save.autosave(SaveDelta(state: state, events: newEvents, conversations: [npc: transcript], playTime: t))
/// let loaded = try save.load(pack: pack)
/// let mira = try save.transcript(npc: "mira")     // read when the player talks to Mira again
/// ```
///
/// The calls are synchronous and safe from any thread or task: a lock serializes them. They are short (an
/// autosave writes a few rows), but a full save or a load of a large game may take milliseconds; call them off
/// the main actor in an interactive game.
public final class SaveFile: Sendable {
    /// Whether a save may be written.
    public enum Access: Sendable, Hashable {
        /// Read and write; the slot is created if missing and upgraded if older.
        case readWrite
        /// Read only: nothing is created or written, and every write throws ``SaveGameError/Code/readOnly``.
        case readOnly
    }

    /// The slot's name: the file name without `.parley`.
    public let slot: String

    /// The save file.
    public let url: URL

    /// Whether the save may be written.
    public let access: Access

    /// The connection; for a save continuing from another slot until the copy of it is made
    /// (``SaveGameStore/openCopy(of:as:keeping:)``), that copy.
    private let connectionState: Mutex<Connection>

    /// The connection, or what stands for it.
    private enum Connection: Sendable {
        /// Open on ``url`` (or on the upgraded temporary copy of it).
        case open(DatabaseQueue)
        /// Not open yet: the file is being copied from another slot, whose conversations are read meanwhile.
        case copying(SaveCopy)
        /// Closed before the copy was made.
        case closed
    }

    /// The clock for `updated_at` and the like.
    let now: @Sendable () -> Date

    /// The temporary folder holding an upgraded copy of an older save opened read-only, removed on release.
    let temporaryCopy: URL?

    /// The slot's name as it was asked for (`My Save`), which a full save records so that another name sharing
    /// the file (`My/Save`) is refused; see ``SaveGameStore/open(slot:access:)``.
    let requestedName: String

    private init(
        slot: String, url: URL, access: Access, queue: DatabaseQueue, now: @escaping @Sendable () -> Date,
        temporaryCopy: URL? = nil, requestedName: String
    ) {
        self.slot = slot
        self.url = url
        self.access = access
        self.connectionState = Mutex(.open(queue))
        self.now = now
        self.temporaryCopy = temporaryCopy
        self.requestedName = requestedName
    }

    /// A save continuing from another slot's file until `copy` is made.
    private init(slot: String, url: URL, copy: SaveCopy, now: @escaping @Sendable () -> Date) {
        self.slot = slot
        self.url = url
        self.access = .readWrite
        self.connectionState = Mutex(.copying(copy))
        self.now = now
        self.temporaryCopy = nil
        self.requestedName = slot
    }

    deinit {
        // A copy being made goes on, and is put in place when done; none is tried again.
        if case .copying(let copy) = connectionState.withLock({ $0 }) {
            copy.abandon()
            copy.releaseSource()
        }
        if let temporaryCopy { try? FileManager.default.removeItem(at: temporaryCopy) }
    }

    /// Closes the save now: later reads and writes throw. Closing twice does nothing.
    ///
    /// A save open for writing keeps a write-ahead log (`<slot>.parley-wal`) and its index (`-shm`) beside it;
    /// closing the last connection writes the log back into the file and removes both, so the save is one
    /// self-contained file again. A game closes its saves when the player quits; releasing the ``SaveFile`` does
    /// the same. A save whose copy from another slot is still being made waits for it first, so that its slot
    /// holds the game that was loaded.
    public func close() {
        let previous = connectionState.withLock { state -> Connection in
            let previous = state
            state = .closed
            return previous
        }
        switch previous {
        case .open(let queue): queue.close()
        case .copying(let copy):
            // One more try if the last one failed; after that the slot keeps what it held.
            if (try? copy.wait()) == nil, (try? copy.wait()) == nil { copy.abandon() }
            copy.releaseSource()
        case .closed: break
        }
    }

    /// Waits, without blocking a thread, until the copy this save continues from is made (see
    /// ``SaveGameStore/openCopy(of:as:keeping:)``), then opens it, as any save open for writing is; returns at once
    /// for any other save. A copy that failed before is tried again; a failure is thrown by the next read or write.
    package func copyMade() async {
        guard case .copying(let copy) = connectionState.withLock({ $0 }) else { return }
        await copy.finished()
        if copy.isMade { _ = try? connection() }
    }

    /// Whether this save continues from another slot and its copy is not made yet.
    package var isWaitingForItsCopy: Bool {
        guard case .copying(let copy) = connectionState.withLock({ $0 }) else { return false }
        return !copy.isMade
    }

    /// The connection: for a save continuing from another slot, once its copy is made (waiting for it).
    ///
    /// - Returns: The connection.
    /// - Throws: ``SaveGameError`` when the save was closed, or the copy failed (the next call tries again).
    func connection() throws -> DatabaseQueue {
        while true {
            switch connectionState.withLock({ $0 }) {
            case .open(let queue):
                return queue
            case .closed:
                throw SaveGameError(.ioError, path: url.path, detail: "the save was closed")
            case .copying(let copy):
                try copy.wait()
                let adopted = try connectionState.withLock { state -> DatabaseQueue? in
                    guard case .copying(let same) = state, same === copy else { return nil }
                    let queue = try Self.openCopied(url)
                    state = .open(queue)
                    return queue
                }
                if let adopted {
                    copy.releaseSource()
                    return adopted
                }
            }
        }
    }

    /// The copy that this save reads conversations from until it is made, or `nil`.
    var pendingCopy: SaveCopy? {
        guard case .copying(let copy) = connectionState.withLock({ $0 }), !copy.isMade else { return nil }
        return copy
    }

    /// The file the connection reads: ``url``, or the upgraded temporary copy of it.
    var databasePath: String {
        get throws { try connection().path }
    }

    // MARK: - Opening

    /// Opens (creating if needed) and migrates a file that ``SaveInspector`` accepted.
    static func openForWriting(
        slot: String, url: URL, migrator: Migrator, now: @escaping @Sendable () -> Date, requestedName: String
    ) throws -> SaveFile {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, options: SaveGameStore.writeOptions)
            try migrator.migrate(queue)
        } catch {
            throw SaveGameError.wrapping(error, path: url.path)
        }
        let file = SaveFile(
            slot: slot, url: url, access: .readWrite, queue: queue, now: now, requestedName: requestedName)
        // A new slot gets its creation time; a slot that has one is not written to by opening.
        let created = try file.reading { db in
            try db.scalar("SELECT value FROM metadata WHERE key = 'created_at'", as: String.self)
        }
        if created == nil {
            try file.writing { writer in
                try writer.setMetadata(.createdAt, SaveCoding.text(now()), onlyIfMissing: true)
            }
        }
        return file
    }

    /// Continues `source` in `slot`, whose file it replaces with a copy of it, made on a thread of its own.
    static func openCopy(
        of source: SaveFile, slot: String, url: URL,
        keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment]),
        now: @escaping @Sendable () -> Date
    ) throws -> SaveFile {
        let copy = try SaveCopy(of: source, to: url, slotName: slot, keeping: keeping)
        return SaveFile(slot: slot, url: url, copy: copy, now: now)
    }

    /// Opens for writing a copy just made of a checked save (of this schema version): no migration, no inspection.
    private static func openCopied(_ url: URL) throws -> DatabaseQueue {
        do {
            return try DatabaseQueue(path: url.path, options: SaveGameStore.writeOptions)
        } catch {
            throw SaveGameError.wrapping(error, path: url.path)
        }
    }

    /// Opens a save read-only; an older save is copied to a temporary folder and upgraded there.
    static func openForReading(
        slot: String, url: URL, upgradingCopy: Bool, migrator: Migrator, now: @escaping @Sendable () -> Date,
        requestedName: String
    ) throws -> SaveFile {
        guard upgradingCopy else {
            do {
                let queue = try DatabaseQueue(path: url.path, options: SaveGameStore.readOptions(for: url))
                return SaveFile(
                    slot: slot, url: url, access: .readOnly, queue: queue, now: now, requestedName: requestedName)
            } catch {
                throw SaveGameError.wrapping(error, path: url.path)
            }
        }
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("parley-save-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let copy = folder.appendingPathComponent(url.lastPathComponent)
            try manager.copyItem(at: url, to: copy)
            if manager.fileExists(atPath: url.path + "-wal") {
                try manager.copyItem(atPath: url.path + "-wal", toPath: copy.path + "-wal")
            }
            let queue = try DatabaseQueue(path: copy.path, options: SaveGameStore.writeOptions)
            try migrator.migrate(queue)
            return SaveFile(
                slot: slot, url: url, access: .readOnly, queue: queue, now: now, temporaryCopy: folder,
                requestedName: requestedName)
        } catch {
            try? manager.removeItem(at: folder)
            throw SaveGameError.wrapping(error, path: url.path)
        }
    }

    // MARK: - Reading metadata

    /// The save's metadata.
    ///
    /// - Returns: The metadata.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/noGame`` when nothing was saved in the slot
    ///   yet, ``SaveGameError/Code/corrupt`` when a value is missing or unreadable.
    public func metadata() throws -> SaveMetadata {
        let path = url.path
        return try reading { db in try Self.readMetadata(db, path: path) }
    }

    /// Whether the slot holds a game: whether a full save was ever written to it.
    ///
    /// - Returns: `true` once ``writeFull(_:)`` has succeeded.
    /// - Throws: ``SaveGameError`` when the file cannot be read.
    public func hasGame() throws -> Bool {
        try reading { db in
            try db.scalar("SELECT 1 FROM metadata WHERE key = ?", [MetadataKey.worldID.rawValue], as: Int.self) != nil
        }
    }

    /// Checks the whole file for damage (`PRAGMA integrity_check`): every page, row and index.
    ///
    /// It reads the whole file; run it on demand (a `saves check` command, a test), not on every load. Opening and
    /// loading a save check only what does not grow with it and what they read (see
    /// ``SaveGameStore/open(slot:access:)``), so damage on a page the game has not read yet (a conversation, a
    /// recording) is found here, or when it is read.
    ///
    /// - Returns: The problems found, in SQLite's words; empty when the file is sound.
    /// - Throws: ``SaveGameError`` when the check cannot run.
    public func integrityCheck() throws -> [String] {
        let queue = try connection()
        do {
            // Outside a transaction of its own: damage that stops the check leaves SQLite's read in an error state,
            // which would make committing it fail and lose the problems found.
            return try queue.writeWithoutTransaction { db in try db.integrityCheck() }
        } catch {
            throw classify(error)
        }
    }

    /// Reads the metadata rows of a save.
    static func readMetadata(_ db: Database, path: String) throws -> SaveMetadata {
        var values: [String: String] = [:]
        for row in try db.query("SELECT key, value FROM metadata") {
            values[try row.get(0)] = try row.get(1)
        }
        guard let worldID = values[MetadataKey.worldID.rawValue] else {
            throw SaveGameError(.noGame, path: path, detail: "the slot was created but never saved")
        }
        func require<T>(_ key: MetadataKey, _ read: (String) -> T?) throws -> T {
            guard let text = values[key.rawValue], let value = read(text) else {
                throw SaveGameError(
                    .corrupt, path: path, detail: "the metadata value \"\(key.rawValue)\" is missing or unreadable")
            }
            return value
        }
        return SaveMetadata(
            schemaVersion: try db.userVersion(), parleyVersion: values[MetadataKey.parleyVersion.rawValue] ?? "",
            createdAt: try require(.createdAt, SaveCoding.date), updatedAt: try require(.updatedAt, SaveCoding.date),
            playTime: try require(.playTime, SaveCoding.duration), label: values[MetadataKey.label.rawValue] ?? "",
            worldID: worldID, worldTitle: values[MetadataKey.worldTitle.rawValue] ?? "",
            contentHash: try require(.contentHash, ContentHash.init(hex:)),
            playerName: values[MetadataKey.playerName.rawValue] ?? "",
            locationName: values[MetadataKey.locationName.rawValue] ?? "",
            talkingTo: values[MetadataKey.talkingTo.rawValue].flatMap { $0.isEmpty ? nil : NPCID($0) })
    }

    // MARK: - Running transactions

    /// Runs `body` in a read transaction, turning failures into ``SaveGameError``s.
    func reading<T>(_ body: (Database) throws -> sending T) throws -> sending T {
        let queue = try connection()
        do {
            return try queue.read(body)
        } catch {
            throw classify(error)
        }
    }

    /// Runs `body` in one write transaction, turning failures into ``SaveGameError``s; nothing is written when it
    /// throws.
    @discardableResult
    func writing(_ body: (inout SaveWriter) throws -> Void) throws -> SaveWriteSummary {
        guard access == .readWrite else {
            throw SaveGameError(.readOnly, path: url.path, detail: "the save was opened read-only")
        }
        let queue = try connection()
        do {
            return try queue.write { db in
                var writer = SaveWriter(db: db)
                try body(&writer)
                return writer.summary
            }
        } catch {
            throw classify(error)
        }
    }

    /// Runs `body` in one write transaction as ``writing(_:)`` does, on the connection's own thread
    /// (``DatabaseQueue/asyncWrite(_:)``), suspending the calling task meanwhile.
    func asyncWriting(_ body: @escaping @Sendable (inout SaveWriter) throws -> Void) async throws -> SaveWriteSummary {
        guard access == .readWrite else {
            throw SaveGameError(.readOnly, path: url.path, detail: "the save was opened read-only")
        }
        let queue = try connection()
        do {
            return try await queue.asyncWrite { db in
                var writer = SaveWriter(db: db)
                try body(&writer)
                return writer.summary
            }
        } catch {
            throw classify(error)
        }
    }

    /// The save-level error for `error`, telling truncated files from other damage.
    func classify(_ error: any Error) -> SaveGameError {
        let wrapped = SaveGameError.wrapping(error, path: url.path)
        guard wrapped.code == .corrupt else { return wrapped }
        return SaveInspector.damaged(url, detail: wrapped.detail, underlyingError: wrapped.underlyingError ?? error)
    }
}

import Dispatch
import Foundation
import ParleySQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A copy of a checked save into another slot, made on a thread of its own while the game goes on: how an in-game
/// `load` of another slot gives the autosave slot its own copy without the player waiting for it.
///
/// The copy is the file itself, byte for byte (with its write-ahead log, if it has one), so it costs a file copy,
/// not a parse: it is written to a temporary name beside the destination (`.<name>.<id>.partial`, which
/// ``SaveGameStore/lockFolder()`` removes if a killed process left one), the feedback reports and recordings to
/// keep are added to it, it is synced to the disk and renamed over the destination only when complete. A crash at
/// any moment leaves the destination as it was, or the whole copy; the source is only read.
///
/// Until the copy is made, the save it belongs to (``SaveFile``, opened with
/// ``SaveGameStore/openCopy(of:as:keeping:)``) reads conversations from the source; anything else it does waits for
/// the copy. A write to the source's or the destination's file through ``SaveGameStore`` waits for it too
/// (``settle(_:)``), so nothing changes either file while it is copied or read.
final class SaveCopy: Sendable {
    /// How far the copy is.
    private enum Progress: Sendable {
        /// Being made; the group is left when it is done.
        case running(DispatchGroup)
        /// Made: the destination holds the copy.
        case made
        /// The last attempt failed with this error, not reported yet.
        case failed(SaveGameError)
        /// The last attempt failed and its error was reported; the next wait tries again.
        case idle
        /// Given up: the save it was for was closed or released without it. No attempt is made any more.
        case abandoned
    }

    /// The files copied, open since the copy was asked for, so that it copies the very file that was checked.
    let files: SaveCopySource
    /// The slot's own file, which nothing may write while the copy is made or read from it.
    let sourceSlot: URL
    /// The file the copy replaces.
    let destination: URL
    /// The slot name the copy records.
    let slotName: String
    /// The feedback reports and recordings added to the copy.
    let keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment])

    /// The save copied, read for conversations until the copy is made; `nil` once it is no longer read.
    private let source: Mutex<SaveFile?>
    /// How far the copy is.
    private let progress = Mutex<Progress>(.idle)
    /// Whether the copy was given up (``abandon()``), even while an attempt was under way; set and read with
    /// ``progress`` locked.
    private let givenUp = Mutex(false)

    /// Copies that are being made or whose source is still read, which ``settle(_:)`` waits for.
    private static let active = Mutex<[ObjectIdentifier: SaveCopy]>([:])

    /// For tests: what runs on the copying thread before each attempt at a copy to a destination (by its path), with
    /// the attempt's number from 1; it may block (to hold the copy back) or throw (to make the attempt fail).
    static let attemptHooks = Mutex<[String: @Sendable (Int) throws -> Void]>([:])

    /// The number of attempts started.
    private let attempts = Mutex(0)

    /// Starts copying `source` (a save opened read-only and checked) over `destination`.
    ///
    /// - Parameters:
    ///   - source: The save to copy; the copy owns it from now on, and closes it once it is no longer read.
    ///   - destination: The file to replace. It must not be a symbolic link.
    ///   - slotName: The name the copy's slot is known by.
    ///   - keeping: Feedback reports and recordings to add to the copy.
    /// - Throws: ``SaveGameError`` when the source's files cannot be opened.
    init(
        of source: SaveFile, to destination: URL, slotName: String,
        keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment])
    ) throws {
        files = try SaveCopySource(source.databasePath, reportingAs: source.url)
        sourceSlot = source.url
        self.destination = destination
        self.slotName = slotName
        self.keeping = keeping
        self.source = Mutex(source)
        Self.active.withLock { $0[ObjectIdentifier(self)] = self }
        start()
    }

    // MARK: - Waiting

    /// Whether the copy is made and in place.
    var isMade: Bool {
        progress.withLock { if case .made = $0 { true } else { false } }
    }

    /// Waits until the copy is made, blocking the calling thread.
    ///
    /// - Throws: ``SaveGameError`` when the copy failed; the destination is then as it was. The next wait tries
    ///   again, unless the copy was abandoned.
    func wait() throws {
        while true {
            let step = progress.withLock { progress -> Result<DispatchGroup?, SaveGameError> in
                switch progress {
                case .running(let group): return .success(group)
                case .made: return .success(nil)
                case .failed(let error):
                    progress = .idle
                    return .failure(error)
                case .idle: return .success(startLocked(&progress))
                case .abandoned:
                    let detail = "its copy of \(sourceSlot.lastPathComponent) was given up when the save was closed"
                    return .failure(SaveGameError(.ioError, path: destination.path, detail: detail))
                }
            }
            guard let group = try step.get() else { return }
            group.wait()
        }
    }

    /// Waits until the copy is made or has failed, without blocking a thread; a copy that failed before is tried
    /// again. The error, if any, is thrown by the next ``wait()``.
    func finished() async {
        let group: DispatchGroup? = progress.withLock { progress in
            switch progress {
            case .running(let group): group
            case .made, .failed, .abandoned: nil
            case .idle: startLocked(&progress)
            }
        }
        guard let group else { return }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
    }

    // MARK: - Reading the source

    /// Runs `body` on the source while it may still be read; `nil` once it was let go (the copy is then made).
    ///
    /// - Parameter body: What to read.
    /// - Returns: What `body` returned, or `nil`.
    func readSource<T: Sendable>(_ body: (SaveFile) throws -> T) throws -> T? {
        try source.withLock { source in try source.map(body) }
    }

    /// Gives the copy up if it is not made: an attempt under way goes on (and puts the copy in place if it succeeds),
    /// but none is made after it, not even by ``settle(_:)``. For the save the copy was for, closed or released.
    func abandon() {
        progress.withLock { progress in
            // Under the progress lock, as the attempt reads it when it ends.
            givenUp.withLock { $0 = true }
            switch progress {
            case .failed, .idle: progress = .abandoned
            case .running, .made, .abandoned: break
            }
        }
        forgetIfDone()
    }

    /// Stops reading the source and closes it, after any read in progress; once the copy is made too, the copy no
    /// longer holds back writes to the source or the destination.
    func releaseSource() {
        source.withLock { source in
            source?.close()
            source = nil
        }
        forgetIfDone()
    }

    // MARK: - Writers

    /// Waits for every copy from or to `url` to be made, and lets go of its source: call it before writing the
    /// file (or deleting it), so that nothing changes a file being copied or read, and no copy replaces a file
    /// written after it.
    ///
    /// - Parameter url: The file about to be written.
    /// - Throws: ``SaveGameError`` when such a copy fails again; nothing may be written to the file then.
    static func settle(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        let copies = active.withLock { active in
            active.values.filter {
                $0.sourceSlot.standardizedFileURL.path == path || $0.destination.standardizedFileURL.path == path
            }
        }
        for copy in copies {
            if copy.isAbandoned {
                // No attempt is made any more; one under way is waited for, since it may still replace the file.
                try? copy.wait()
            } else {
                do {
                    try copy.wait()
                } catch {
                    // Reported once already, or by no one: one more try before refusing the write.
                    try copy.wait()
                }
            }
            copy.releaseSource()
        }
    }

    // MARK: - Making the copy

    /// Starts an attempt on a thread of its own.
    private func start() {
        progress.withLock { progress in _ = startLocked(&progress) }
    }

    /// Starts an attempt; call with the progress locked.
    private func startLocked(_ progress: inout Progress) -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        progress = .running(group)
        let attempt = attempts.withLock { count in
            count += 1
            return count
        }
        let thread = Thread { [self] in
            let hook = Self.attemptHooks.withLock { $0[destination.standardizedFileURL.path] }
            let result = Result {
                try hook?(attempt)
                try Self.make(from: files, to: destination, slotName: slotName, keeping: keeping)
            }
            .mapError { SaveGameError.wrapping($0, path: destination.path) }
            self.progress.withLock { progress in
                let abandoned = givenUp.withLock { $0 }
                switch result {
                case .success: progress = .made
                case .failure(let error): progress = abandoned ? .abandoned : .failed(error)
                }
            }
            group.leave()
            forgetIfDone()
        }
        thread.name = "Parley save copy"
        thread.start()
        return group
    }

    /// Whether the copy was given up, and no attempt is under way.
    private var isAbandoned: Bool {
        progress.withLock { if case .abandoned = $0 { true } else { false } }
    }

    /// Leaves the list of active copies once the copy is made (or given up) and its source let go.
    private func forgetIfDone() {
        let finished = progress.withLock { progress in
            switch progress {
            case .made, .abandoned: true
            case .running, .failed, .idle: false
            }
        }
        guard finished, source.withLock({ $0 == nil }) else { return }
        _ = Self.active.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Copies `files` over `destination`: to a temporary name beside it first, with the attachments to keep and the
    /// slot's name added, synced, then renamed over it.
    ///
    /// - Parameters:
    ///   - files: The save's files, open.
    ///   - destination: The file to replace.
    ///   - slotName: The name the copy's slot is known by.
    ///   - keeping: Feedback reports and recordings to add, those with ids the copy holds already skipped.
    /// - Throws: ``SaveGameError`` when the copy cannot be made; the destination is then unchanged.
    static func make(
        from files: SaveCopySource, to destination: URL, slotName: String,
        keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment])
    ) throws {
        let manager = FileManager.default
        switch SaveGameStore.fileType(destination.path) {
        case .missing, .regular: break
        case .symbolicLink:
            throw SaveGameError(.unsafePath, path: destination.path, detail: "it is a symbolic link")
        case .directory, .other:
            throw SaveGameError(.unsafePath, path: destination.path, detail: "it is not a plain file")
        }
        let folder = destination.deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        defer {
            try? manager.removeItem(at: partial)
            for suffix in SaveGameStore.sideFileSuffixes { try? manager.removeItem(atPath: partial.path + suffix) }
        }
        do {
            try files.write(to: partial, for: destination)
            // The copy is finished on its own connection (which reads a copied log into it), then checkpointed
            // whole, so that the renamed file holds everything: nothing is left in a log beside the partial name.
            let copy = try DatabaseQueue(path: partial.path, options: SaveGameStore.writeOptions)
            try copy.write { db in
                var writer = SaveWriter(db: db)
                try writer.insertAttachments(keeping.feedback, into: .feedback)
                try writer.insertAttachments(keeping.recordings, into: .recordings)
                try writer.setMetadata(.slotName, slotName)
            }
            try copy.writeWithoutTransaction { db in
                let busy = try db.query("PRAGMA wal_checkpoint(TRUNCATE)").first.map { try $0.get(0, as: Int.self) }
                guard busy == 0 else {
                    throw SaveGameError(
                        .busy, path: destination.path, detail: "the copy's log could not be folded into it")
                }
            }
            copy.close()
            for suffix in ["-wal", "-shm"] { try? manager.removeItem(atPath: destination.path + suffix) }
            // rename(2) replaces the destination atomically; syncing the folder makes the new name durable.
            guard rename(partial.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
            SaveCopySource.sync(folder: folder)
        } catch {
            throw SaveGameError.wrapping(error, path: destination.path)
        }
    }
}

import Foundation
import ParleySQLite

#if canImport(Glibc)
import Glibc
#endif

extension SaveFile {
    /// Copies the whole save, page by page, to a new file (SQLite's `VACUUM INTO`), replacing what is there.
    ///
    /// This is how a loaded save becomes the autosave slot without reading and re-writing every transcript: the
    /// copy costs a file copy, not a parse. The copy is written to a temporary name next to the destination
    /// (`.<name>.<id>.partial`, which ``SaveGameStore/lockFolder()`` removes if a killed process left one) and
    /// renamed over it only when complete, so a crash leaves either the old destination or the new one.
    ///
    /// The feedback attachments and recordings passed in `keeping` are added to the copy before it replaces the
    /// destination, so that replacing a save does not lose its reports (a game passes the ones its autosave holds).
    /// Close every connection to the destination first: one left open would go on writing the replaced file.
    ///
    /// - Parameters:
    ///   - destination: The new file, for example `SaveGameStore.slotURL("autosave")`. It must not be a symbolic
    ///     link.
    ///   - slotName: The name the copy's slot is known by (recorded as the copy's slot name); the destination's
    ///     file name by default.
    ///   - keeping: Feedback attachments and recordings to add to the copy, those with ids it holds already
    ///     skipped.
    /// - Throws: ``SaveGameError`` when the copy cannot be written (the destination is then unchanged), with code
    ///   ``SaveGameError/Code/unsafePath`` when the destination is a symbolic link or not a plain file.
    public func copy(
        to destination: URL, slotName: String? = nil, keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment]) = ([], [])
    ) throws {
        let manager = FileManager.default
        switch SaveGameStore.fileType(destination.path) {
        case .missing, .regular: break
        case .symbolicLink:
            throw SaveGameError(.unsafePath, path: destination.path, detail: "it is a symbolic link")
        case .directory, .other:
            throw SaveGameError(.unsafePath, path: destination.path, detail: "it is not a plain file")
        }
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        defer {
            try? manager.removeItem(at: partial)
            for suffix in SaveGameStore.sideFileSuffixes { try? manager.removeItem(atPath: partial.path + suffix) }
        }
        do {
            try queue.writeWithoutTransaction { db in
                try db.execute("VACUUM INTO ?", [partial.path])
            }
            let name = slotName ?? destination.deletingPathExtension().lastPathComponent
            // The copy is finished on its own connection, in the rollback-journal mode VACUUM INTO leaves: no
            // write-ahead log to fold back before the rename.
            var options = SaveGameStore.writeOptions
            options.journalMode = .delete
            let copy = try DatabaseQueue(path: partial.path, options: options)
            try copy.write { db in
                var writer = SaveWriter(db: db)
                try writer.insertAttachments(keeping.feedback, into: .feedback)
                try writer.insertAttachments(keeping.recordings, into: .recordings)
                try writer.setMetadata(.slotName, name)
            }
            copy.close()
            for suffix in ["-wal", "-shm"] { try? manager.removeItem(atPath: destination.path + suffix) }
            // rename(2) replaces the destination atomically.
            guard rename(partial.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
        } catch {
            throw SaveGameError.wrapping(error, path: destination.path)
        }
    }
}

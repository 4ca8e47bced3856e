import Foundation
import ParleySQLite

extension SaveFile {
    /// Copies the whole save to a new file, replacing what is there: the file itself, byte for byte (with its
    /// write-ahead log, if it has one), not a parse.
    ///
    /// This is how a loaded save becomes the autosave slot without reading and re-writing every transcript. The copy
    /// is written to a temporary name next to the destination (`.<name>.<id>.partial`, which
    /// ``SaveGameStore/lockFolder()`` removes if a killed process left one), synced to the disk, and renamed over it
    /// only when complete, so a crash leaves either the old destination or the new one.
    ///
    /// The feedback attachments and recordings passed in `keeping` are added to the copy before it replaces the
    /// destination, so that replacing a save does not lose its reports (a game passes the ones its autosave holds).
    /// Close every connection to the destination first: one left open would go on writing the replaced file. A game
    /// that goes on playing while the copy is made uses ``SaveGameStore/openCopy(of:as:keeping:)`` instead.
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
        to destination: URL, slotName: String? = nil,
        keeping: (feedback: [SavedAttachment], recordings: [SavedAttachment]) = ([], [])
    ) throws {
        let name = slotName ?? destination.deletingPathExtension().lastPathComponent
        let queue = try connection()
        do {
            // Holding the connection, so that no write of this save runs while its files are copied.
            try queue.writeWithoutTransaction { _ in
                let files = try SaveCopySource(queue.path, reportingAs: url)
                try SaveCopy.make(from: files, to: destination, slotName: name, keeping: keeping)
            }
        } catch {
            throw SaveGameError.wrapping(error, path: destination.path)
        }
    }
}

import Foundation
import ParleySQLite

#if canImport(Glibc)
import Glibc
#endif

extension SaveFile {
    /// Copies the whole save, page by page, to a new file (SQLite's `VACUUM INTO`), replacing what is there.
    ///
    /// This is how a loaded save becomes the autosave slot without reading and re-writing every transcript: the
    /// copy costs a file copy, not a parse. The copy is written to a temporary name next to the destination and
    /// renamed over it only when complete, so a crash leaves either the old destination or the new one.
    ///
    /// - Parameter destination: The new file, for example `SaveGameStore.slotURL("autosave")`.
    /// - Throws: ``SaveGameError`` when the copy cannot be written (the destination is then unchanged).
    public func copy(to destination: URL) throws {
        let manager = FileManager.default
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        defer { try? manager.removeItem(at: partial) }
        do {
            try queue.writeWithoutTransaction { db in
                try db.execute("VACUUM INTO ?", [partial.path])
            }
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

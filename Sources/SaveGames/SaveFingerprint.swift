import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says of a save's file and of its write-ahead log: enough to tell, without opening it, that a save
/// is the one read before. A write changes the log's (or, once checkpointed, the file's) size or modification time;
/// a file replaced by a rename has another inode.
///
/// ``SaveGameStore/list()`` keeps what it read of each save beside its fingerprint (see `docs/save-format.md`, The
/// listing index), and reads again only the saves whose fingerprint changed.
public struct SaveFingerprint: Hashable, Sendable {
    /// The save file's inode, size and modification time in nanoseconds.
    var file: [Int64]
    /// The write-ahead log's size and modification time in nanoseconds; empty when there is none.
    var log: [Int64]

    /// The fingerprint of a slot's file, or `nil` when it is not a plain file, when a side file is not a plain file,
    /// or when a rollback journal is beside it (a write was interrupted: the save must be read to be recovered).
    ///
    /// - Parameter url: The slot's file.
    public init?(of url: URL) {
        func status(_ path: String) -> stat? {
            var info = stat()
            return lstat(path, &info) == 0 ? info : nil
        }
        guard let main = status(url.path), main.st_mode & S_IFMT == S_IFREG,
            status(url.path + "-journal") == nil
        else { return nil }
        if let shm = status(url.path + "-shm"), shm.st_mode & S_IFMT != S_IFREG { return nil }
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec) }
        file = [Int64(bitPattern: UInt64(main.st_ino)), Int64(main.st_size), nanoseconds(main.st_mtim)]
        if let wal = status(url.path + "-wal") {
            guard wal.st_mode & S_IFMT == S_IFREG else { return nil }
            log = [Int64(wal.st_size), nanoseconds(wal.st_mtim)]
        } else {
            log = []
        }
    }

    /// A fingerprint from its parts, as the index stores them.
    init(file: [Int64], log: [Int64]) {
        self.file = file
        self.log = log
    }
}

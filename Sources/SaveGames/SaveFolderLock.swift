import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A claim on a save folder: while it is held, no other process may write the folder's saves.
///
/// Two games writing one folder would merge two stories into one save (an item bought in one game vanishes from
/// the world of the other), so every writer claims the folder first: ``GameHost`` does before its first save, and
/// the `parley` commands that write (`play`, `saves delete`) do at start-up, so that the second of two games gets
/// a clear error at once:
///
/// ```swift
/// let lock = try store.lockFolder()      // SaveGameError.Code.inUse: "… in use by another Parley (pid 4242) …"
/// defer { lock.release() }
/// ```
///
/// The claim is an advisory `flock(2)` on the file `.parley-lock` in the folder, which holds the owner's process
/// id for the message. The operating system drops it when the process ends in any way (`kill -9` included), so a
/// crashed game never leaves its folder locked. Reading saves (`parley saves`, `transcript`) needs no claim.
/// Claims of one process on one folder share the lock (several hosts in one program do not lock each other out).
///
/// When the claim is taken, the folder is tidied: interrupted copies (`.partial` files a killed `load` left) are
/// removed, and saves that a killed process left with a write-ahead log beside them are checkpointed back into a
/// single file.
public final class SaveFolderLock: Sendable {
    /// The name of the lock file inside the save folder.
    public static let fileName = ".parley-lock"

    /// The locked folder.
    public let folder: URL

    /// The folder's identity in ``claims``: its device and inode, so that two paths to one folder (a symbolic
    /// link, `a/../a`) are one claim.
    private let key: String

    /// Whether this claim is still held. Guarded by its mutex.
    private let held = Mutex(true)

    /// Whether this claim took the lock (rather than sharing one this process held already): only then may the
    /// folder be tidied.
    let tookTheLock: Bool

    /// The claims this process holds, by folder: the lock file's descriptor and how many ``SaveFolderLock``s share
    /// it. `flock(2)` locks belong to an open file description, so a second descriptor of the same file would
    /// conflict with the first even in this process; several hosts of one process share one instead.
    private static let claims = Mutex<[String: (descriptor: Int32, count: Int)]>([:])

    /// Claims `folder`, creating it if needed.
    ///
    /// - Parameter folder: The save folder.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/inUse`` when another process holds it, naming
    ///   that process; ``SaveGameError/Code/cannotOpen`` when the folder or its lock file cannot be created (or
    ///   the lock file is a symbolic link).
    init(folder: URL) throws {
        self.folder = folder
        try Self.createFolder(folder)
        var info = stat()
        guard stat(folder.path, &info) == 0 else {
            throw SaveGameError(
                .cannotOpen, path: folder.path, detail: "cannot read the folder: \(String(cString: strerror(errno)))")
        }
        let key = "\(info.st_dev):\(info.st_ino)"
        self.key = key
        let path = folder.appendingPathComponent(Self.fileName).path
        tookTheLock = try Self.claims.withLock { claims in
            if let claim = claims[key] {
                claims[key] = (claim.descriptor, claim.count + 1)
                return false
            }
            claims[key] = (try Self.lock(path), 1)
            return true
        }
    }

    deinit {
        release()
    }

    /// Whether the claim is still held.
    public var isHeld: Bool { held.withLock { $0 } }

    /// Gives the folder up: once every claim of this process on it is released, another process may claim it.
    /// Releasing twice does nothing.
    public func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        guard wasHeld else { return }
        Self.claims.withLock { claims in
            guard let claim = claims[key] else { return }
            if claim.count > 1 {
                claims[key] = (claim.descriptor, claim.count - 1)
            } else {
                // Closing drops the flock. The file stays: removing it would race with a process about to lock it.
                close(claim.descriptor)
                claims[key] = nil
            }
        }
    }

    /// Creates a folder and its missing parents, saying in the system's words why one cannot be made.
    static func createFolder(_ folder: URL) throws {
        var missing: [String] = []
        var path = folder.standardizedFileURL.path
        while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
            missing.insert(path, at: 0)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing where mkdir(path, 0o755) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw SaveGameError(.cannotOpen, path: folder.path, detail: "cannot create the folder \(path): \(reason)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw SaveGameError(.cannotOpen, path: folder.path, detail: "it is not a folder")
        }
    }

    /// Opens and locks the lock file, writing this process's id into it.
    private static func lock(_ path: String) throws -> Int32 {
        // O_NOFOLLOW: a symbolic link planted as the lock file is refused, never written through.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw SaveGameError(.cannotOpen, path: path, detail: "cannot open the lock file: \(reason)")
        }
        guard Self.flockExclusive(descriptor) == 0 else {
            let failure = errno
            let owner = Self.owner(descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw SaveGameError(
                    .cannotOpen, path: path, detail: "cannot lock the folder: \(String(cString: strerror(failure)))")
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            throw SaveGameError(
                .inUse, path: folder, detail: "in use by another Parley" + (owner.map { " (pid \($0))" } ?? ""))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return descriptor
    }

    /// Takes the `flock(2)` without waiting for another process, and returns `flock`'s result.
    ///
    /// One holder is waited for, briefly: this very process. A lock file that names this process, while this process
    /// holds no claim on it, was released a moment ago, but a child another thread was starting at that moment
    /// (`posix_spawn` copies the descriptor table before `exec` closes the close-on-exec descriptors) still shares
    /// the lock until its `exec`. That takes microseconds, or longer on a loaded machine; up to a second is waited.
    private static func flockExclusive(_ descriptor: Int32) -> Int32 {
        for _ in 0..<200 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return 0 }
            let failure = errno
            guard failure == EWOULDBLOCK, owner(descriptor) == getpid() else {
                errno = failure
                return -1
            }
            usleep(5_000)
        }
        return flock(descriptor, LOCK_EX | LOCK_NB)
    }

    /// The process id written in a lock file, if it holds one.
    private static func owner(_ descriptor: Int32) -> pid_t? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return pid_t(text)
    }
}

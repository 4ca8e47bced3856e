import Foundation
import ParleySQLite

#if canImport(Glibc)
import Glibc
#endif

extension SaveGameStore {
    /// The suffixes of the files SQLite may keep beside a save: its write-ahead log, the log's index and a rollback
    /// journal.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    // MARK: - Claiming the folder

    /// Claims the save folder for this game: no other process may write it until the claim is released (or this
    /// process ends), then tidies what a killed process left behind.
    ///
    /// See ``SaveFolderLock``. Tidying removes interrupted copies (`.<slot>.parley.<id>.partial` files a `load`
    /// killed mid-copy left) and checkpoints every save that has a write-ahead log beside it into a single file;
    /// a file that is not a sound save is left exactly as it is.
    ///
    /// - Returns: The claim; keep it as long as the game may save.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/inUse`` when another game holds the folder, or
    ///   ``SaveGameError/Code/cannotOpen`` when the folder cannot be created.
    public func lockFolder() throws -> SaveFolderLock {
        let lock = try SaveFolderLock(folder: folder)
        // A claim shared with another of this process found the folder tidied already, and its saves may be open.
        if lock.tookTheLock { tidy() }
        return lock
    }

    /// Removes interrupted copies and folds left-over write-ahead logs into their saves. Call it only while the
    /// folder is claimed, so that no other process is copying or writing.
    func tidy() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
            let url = folder.appendingPathComponent(name)
            // Only plain files: a symbolic link is removed as a link by removeItem, but it is not ours either.
            guard Self.fileType(url.path) == .regular else { continue }
            try? manager.removeItem(at: url)
            for suffix in Self.sideFileSuffixes { try? manager.removeItem(atPath: url.path + suffix) }
        }
        for name in names where name.hasSuffix(".\(Self.fileExtension)-wal") {
            let slot = String(name.dropLast("-wal".count).dropLast(Self.fileExtension.count + 1))
            guard let url = try? slotURL(slot), url.lastPathComponent + "-wal" == name,
                (try? checkPlainFiles(url)) != nil,
                case .save? = try? SaveInspector.inspect(url, migrator: migrator)
            else { continue }
            // Opening for writing and closing checkpoints the log into the file and removes the log.
            if let queue = try? DatabaseQueue(path: url.path, options: Self.writeOptions) { queue.close() }
        }
    }

    // MARK: - Safe paths

    /// The options every connection that may write a save uses: the defaults, refusing symbolic links, with each
    /// page checked as it is read (so that a damaged page a write would touch is found before it is written).
    static var writeOptions: DatabaseOptions {
        var options = DatabaseOptions()
        options.refusesSymbolicLinks = true
        options.checksCellSizes = true
        return options
    }

    /// The options for reading a save without changing anything beside it.
    ///
    /// When no write-ahead log lies beside the file, no one is writing it (a writer keeps its log while the save is
    /// open), so it is opened `immutable`: no `-wal` or `-shm` file is created, and nothing is locked. With a log
    /// (a game is running, or one was killed), a plain read-only connection reads the log too. Each page is checked
    /// as it is read (`cell_size_check`), since a save is no longer checked whole when it is opened.
    ///
    /// - Parameter url: The save file.
    /// - Returns: The options.
    static func readOptions(for url: URL) -> DatabaseOptions {
        var options = DatabaseOptions(access: .readOnly)
        options.refusesSymbolicLinks = true
        options.checksCellSizes = true
        options.immutable = !FileManager.default.fileExists(atPath: url.path + "-wal")
        return options
    }

    /// What kind of file is at a path, without following a symbolic link.
    enum FileType: Equatable {
        case missing, regular, directory, symbolicLink, other(String)
    }

    /// The kind of file at `path`, by `lstat(2)`: a symbolic link is reported as one, not followed.
    static func fileType(_ path: String) -> FileType {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .other("a FIFO (named pipe)")
        case S_IFSOCK: return .other("a socket")
        case S_IFCHR, S_IFBLK: return .other("a device")
        default: return .other("not a plain file")
        }
    }

    /// Checks that a slot's file, and each file SQLite keeps beside it, is a plain file or missing.
    ///
    /// - Parameter url: The slot's file.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/unsafePath`` naming the file that is a symbolic
    ///   link (dangling or not), a FIFO, a device or a socket; ``SaveGameError/Code/notASave`` for a folder.
    func checkPlainFiles(_ url: URL) throws {
        switch Self.fileType(url.path) {
        case .missing, .regular: break
        case .directory: throw SaveGameError(.notASave, path: url.path, detail: "it is a folder")
        case .symbolicLink: throw SaveGameError(.unsafePath, path: url.path, detail: "it is a symbolic link")
        case .other(let kind): throw SaveGameError(.unsafePath, path: url.path, detail: "it is \(kind)")
        }
        for suffix in Self.sideFileSuffixes {
            let side = url.path + suffix
            switch Self.fileType(side) {
            case .missing, .regular: continue
            case .symbolicLink:
                throw SaveGameError(.unsafePath, path: side, detail: "it is a symbolic link beside the save")
            case .directory: throw SaveGameError(.unsafePath, path: side, detail: "it is a folder beside the save")
            case .other(let kind): throw SaveGameError(.unsafePath, path: side, detail: "it is \(kind) beside the save")
            }
        }
    }
}

import ParleySQLite

/// Why a save slot could not be opened, read or written.
///
/// Recognise the kind by ``code``; ``description`` says what happened, to which file, and what to do, so a game
/// can show it to the player as it is:
///
/// ```swift
/// do {
///     try save.autosave(delta)
/// } catch let error as SaveGameError where error.code == .diskFull {
///     print(error)   // Saving to "SaveGames/slot1.parley" failed: the disk is full. The previous save is kept. …
/// }
/// ```
///
/// A failed write never changes the save: every write is one SQLite transaction, rolled back on error. A file that
/// cannot be read (``Code/notASave``, ``Code/corrupt``, ``Code/truncated``, ``Code/newerSchema``) is never
/// written to.
public struct SaveGameError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case notASave, corrupt, truncated, newerSchema, readOnly, diskFull, busy, cannotOpen, ioError
            case notFound, invalidSlotName, worldMismatch, noGame, migrationFailed, inUse, unsafePath, nameTaken
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The file is not a Parley save: not an SQLite database at all (an image, a text file), or another
        /// program's database. Nothing was changed.
        public static let notASave = Code(.notASave)
        /// The save file is damaged: SQLite's integrity check or a read found broken pages or data that does not
        /// decode. Nothing was changed.
        public static let corrupt = Code(.corrupt)
        /// The save file is shorter than its own header says: it was cut off (an interrupted copy, a full disk
        /// during a copy). Nothing was changed.
        public static let truncated = Code(.truncated)
        /// The save was written by a newer version of Parley, with schema migrations this version does not know.
        /// Nothing was changed.
        public static let newerSchema = Code(.newerSchema)
        /// The save could not be written because the file, its folder or the connection is read-only. The
        /// previous save is kept.
        public static let readOnly = Code(.readOnly)
        /// The save could not be written because the disk (or the database's size limit) is full. The previous
        /// save is kept.
        public static let diskFull = Code(.diskFull)
        /// Another process holds the save file locked. Nothing was changed.
        public static let busy = Code(.busy)
        /// The save file or its folder could not be opened or created.
        public static let cannotOpen = Code(.cannotOpen)
        /// The operating system reported an I/O error, or SQLite failed in an unexpected way. The previous save is
        /// kept.
        public static let ioError = Code(.ioError)
        /// There is no save in that slot.
        public static let notFound = Code(.notFound)
        /// The slot name has nothing usable in a file name once sanitized (it is empty, or only punctuation).
        public static let invalidSlotName = Code(.invalidSlotName)
        /// The save belongs to another world than the content pack it is loaded with, or an autosave's state
        /// belongs to another world than the save.
        public static let worldMismatch = Code(.worldMismatch)
        /// The slot exists but holds no game yet: nothing was ever saved in full into it.
        public static let noGame = Code(.noGame)
        /// Upgrading a save from an older schema failed and was rolled back.
        public static let migrationFailed = Code(.migrationFailed)
        /// Another game (another Parley process, or another ``SaveFolderLock`` in this one) is using the save
        /// folder; the message names its process id. Nothing was changed.
        public static let inUse = Code(.inUse)
        /// The slot's file (or the `-wal`, `-shm` or `-journal` file beside it) is a symbolic link, a FIFO, a
        /// device or another thing that is not a plain file. Parley never reads or writes through one. Nothing
        /// was changed.
        public static let unsafePath = Code(.unsafePath)
        /// The slot name would share its file with a save made under another name (two names that differ only in
        /// characters a file name cannot hold, such as `a/b` and `a b`, or names cut to the same 64 characters).
        /// Nothing was changed.
        public static let nameTaken = Code(.nameTaken)

        /// Matches any error that is a ``SaveGameError`` with this code, so that `catch SaveGameError.Code.diskFull`
        /// works.
        ///
        /// - Parameters:
        ///   - pattern: The code to look for.
        ///   - error: The error being matched.
        /// - Returns: `true` when `error` is a ``SaveGameError`` whose ``SaveGameError/code`` is `pattern`.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SaveGameError)?.code == pattern
        }

        /// The code's name, such as `diskFull`.
        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code

    /// The save file concerned, as a path, when there is one.
    public let path: String?

    /// What went wrong, in detail: SQLite's message, the unknown migration ids, the world ids that differ.
    public let detail: String

    /// The error that caused this one, usually an `SQLiteError` or a `MigrationError`.
    public let underlyingError: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - path: The save file concerned.
    ///   - detail: What went wrong, in detail.
    ///   - underlyingError: The error that caused this one.
    public init(_ code: Code, path: String? = nil, detail: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
        self.underlyingError = underlyingError
    }

    /// What happened, to which file, and what to do about it.
    public var description: String {
        let file = path.map { "\"\($0)\"" } ?? "the save"
        let detailText = detail.isEmpty ? "" : " (\(detail))"
        switch code {
        case .notASave:
            return "\(file) is not a Parley save file\(detailText). Nothing was changed. Check the file name, or "
                + "move the file out of the save folder."
        case .corrupt:
            return "\(file) is damaged\(detailText). Nothing was changed. Restore it from a backup, or delete the "
                + "slot and start again; `sqlite3 <file> .recover` may rescue part of it."
        case .truncated:
            return "\(file) is cut short\(detailText): part of the file is missing, as after an interrupted copy. "
                + "Nothing was changed. Copy the save again from where it came from, or restore it from a backup."
        case .newerSchema:
            return "\(file) was saved by a newer version of Parley\(detailText). Nothing was changed. Open it with "
                + "that version, or update Parley."
        case .readOnly:
            return "Saving to \(file) failed: it is read-only\(detailText). The previous save is kept. Make the save "
                + "folder and file writable, or save to a slot in another folder."
        case .diskFull:
            return "Saving to \(file) failed: the disk is full\(detailText). The previous save is kept. Free some "
                + "disk space and save again."
        case .busy:
            return "\(file) is in use by another process\(detailText). Nothing was changed. Close the other game or "
                + "tool using it, then try again."
        case .cannotOpen:
            return "\(file) cannot be opened\(detailText). Check that the save folder exists and that this user may "
                + "read and write in it."
        case .ioError:
            return "Reading or writing \(file) failed\(detailText). The previous save is kept. Check the disk, then "
                + "try again."
        case .notFound:
            return "There is no save at \(file)\(detailText). List the slots with `parley saves`."
        case .invalidSlotName:
            return "The slot name cannot be used\(detailText). Use letters, digits, '-' or '_'."
        case .worldMismatch:
            return "\(file) belongs to another world\(detailText). Load it with the content pack it was saved with."
        case .noGame:
            return "\(file) holds no saved game yet\(detailText). Start a new game and save it."
        case .inUse:
            return "The save folder \(file) is \(detail.isEmpty ? "in use by another Parley" : detail). Nothing was "
                + "changed. Quit that game first, or play with another save folder (--saves DIR)."
        case .unsafePath:
            return "\(file) is not a plain file\(detailText). Parley never reads or writes a save through it, and "
                + "nothing was changed. Move it out of the save folder, or save to another slot."
        case .nameTaken:
            return "The slot name cannot be used\(detailText). Nothing was changed. Choose another name, or use the "
                + "slot's own name as `parley saves` lists it."
        default:
            return "Upgrading \(file) to this version's format failed\(detailText). The file is as it was before "
                + "the upgrade. Report this as a bug, with the file attached."
        }
    }
}

extension SaveGameError {
    /// The save-level error for an SQLite failure on `path`, classified by SQLite's code.
    ///
    /// - Parameters:
    ///   - error: What ParleySQLite or the Migrator threw (any other error becomes ``Code/ioError``).
    ///   - path: The save file.
    /// - Returns: The error to throw.
    static func wrapping(_ error: any Error, path: String) -> SaveGameError {
        if let error = error as? SaveGameError { return error }
        if let error = error as? MigrationError {
            switch error.code {
            case .newerSchema:
                return SaveGameError(
                    .newerSchema, path: path,
                    detail: "unknown migrations " + error.migrationIDs.map { "\"\($0)\"" }.joined(separator: ", "),
                    underlyingError: error)
            default:
                // A migration that failed for want of space or write access is reported as that.
                if let cause = error.underlyingError {
                    let wrapped = wrapping(cause, path: path)
                    if [.diskFull, .readOnly, .busy].contains(wrapped.code) {
                        return SaveGameError(wrapped.code, path: path, detail: wrapped.detail, underlyingError: error)
                    }
                }
                return SaveGameError(
                    .migrationFailed, path: path, detail: String(describing: error), underlyingError: error)
            }
        }
        guard let error = error as? SQLiteError else {
            return SaveGameError(.ioError, path: path, detail: String(describing: error), underlyingError: error)
        }
        if let damage = damageDescription(error) {
            return SaveGameError(.corrupt, path: path, detail: damage, underlyingError: error)
        }
        let code: Code =
            switch error.code {
            case .full: .diskFull
            case .readOnly, .permission: .readOnly
            case .busy, .locked: .busy
            case .corrupt: .corrupt
            case .notADatabase: .notASave
            case .cannotOpen: .cannotOpen
            default: .ioError
            }
        return SaveGameError(code, path: path, detail: "SQLite: \(error.message)", underlyingError: error)
    }

    /// What a failure says about the file when it can only mean the save's contents were changed outside Parley:
    /// a table or column of the save format is missing (dropped or renamed), or a value has the wrong type (text
    /// where a number belongs). `nil` for failures of the disk, the file system or locks.
    static func damageDescription(_ error: SQLiteError) -> String? {
        switch error.code {
        case .mismatch:
            return "a value has the wrong type: \(error.message)"
        case .range:
            return "a column the save format needs is missing: \(error.message)"
        case .error:
            let message = error.message
            guard message.contains("no such table") || message.contains("no such column") else { return nil }
            return "a table or column the save format needs is missing (\(message))"
        default:
            return nil
        }
    }
}

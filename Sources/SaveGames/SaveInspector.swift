import Foundation
import ParleySQLite

/// Looks at a slot's file, read-only, before anything opens it for writing: is it a Parley save, a newer one,
/// a damaged one?
///
/// Only a file this check accepts is ever opened read-write, so a file that is not a save, a damaged save or a
/// save from a newer version is never written to (not even the header, which setting the journal mode would
/// touch).
///
/// The check does not grow with the save: it reads the header, the schema and the first and last pages of each
/// table and index, not every page. What the game then reads is checked as it is read (``checkTables(_:_:url:)``
/// for the state, SQLite's page checks for the rest). A save that was not closed cleanly (its write-ahead log or a
/// rollback journal lies beside it: the game was killed, or is running) is checked whole, every page, since that is
/// when a file is likeliest to be damaged and before its log is folded in.
enum SaveInspector {
    /// What the file is.
    enum Finding: Equatable {
        /// There is no file: a new slot.
        case missing
        /// An SQLite database with no tables at all: a slot created but never saved (a new save killed before its
        /// first commit leaves one, and so does an empty file).
        case empty
        /// A Parley save that has applied these migrations.
        case save(appliedMigrations: [String])
    }

    /// Inspects the file at `url`.
    ///
    /// - Parameters:
    ///   - url: The slot's file.
    ///   - migrator: The schema's migrations.
    /// - Returns: What the file is.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/notASave``, ``SaveGameError/Code/corrupt``,
    ///   ``SaveGameError/Code/truncated`` or ``SaveGameError/Code/newerSchema`` for a file that must not be
    ///   written; or another code when the file cannot be read at all.
    static func inspect(_ url: URL, migrator: Migrator) throws -> Finding {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory.boolValue else {
            throw SaveGameError(.notASave, path: path, detail: "it is a folder")
        }
        let closedCleanly = Self.closedCleanly(url)
        // A file alone holds the whole save: shorter than its header says, it was cut off. (With a log beside it,
        // the header may be older than the log's pages.)
        if closedCleanly, let shortfall = truncation(of: url) {
            throw SaveGameError(.truncated, path: path, detail: shortfall)
        }
        do {
            let db = try Database(path: path, options: SaveGameStore.readOptions(for: url))
            let tables = try db.tableNames()
            guard !tables.isEmpty else { return .empty }
            let applicationID = try db.scalar("PRAGMA application_id", as: Int.self) ?? 0
            guard applicationID == SaveSchema.applicationID else {
                let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
                throw SaveGameError(
                    .notASave, path: path,
                    detail: "an SQLite database of another program, with tables \(shown)"
                        + (applicationID == 0 ? "" : " and application id \(applicationID)"))
            }
            let applied = try migrator.appliedMigrationIDs(in: db)
            let unknown = applied.filter { !migrator.migrationIDs.contains($0) }
            let version = try db.userVersion()
            guard unknown.isEmpty, version <= migrator.migrationIDs.count else {
                let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                throw SaveGameError(
                    .newerSchema, path: path,
                    detail: "schema version \(version), this version reads up to \(migrator.migrationIDs.count)"
                        + (unknown.isEmpty ? "" : "; unknown migrations \(names)"))
            }
            let missing = applied.flatMap { SaveSchema.tablesByMigration[$0] ?? [] }.filter { !tables.contains($0) }
            guard missing.isEmpty else {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "the save format's table\(missing.count == 1 ? "" : "s") "
                        + missing.joined(separator: ", ") + " \(missing.count == 1 ? "is" : "are") missing")
            }
            try checkColumns(db, applied: applied, migrator: migrator, url: url)
            try checkEntryPages(db, url: url)
            if !closedCleanly {
                let problems = try quickCheck(db)
                guard problems.isEmpty else {
                    throw damaged(url, detail: problems.prefix(3).joined(separator: "; "), underlyingError: nil)
                }
            }
            return .save(appliedMigrations: applied)
        } catch let error as SQLiteError {
            switch error.code {
            case .notADatabase:
                // SQLite's header is there but unreadable: a damaged save, not a foreign file.
                if hasSQLiteHeader(url) {
                    throw damaged(url, detail: "SQLite: \(error.message)", underlyingError: error)
                }
                throw SaveGameError(
                    .notASave, path: path, detail: "it is not an SQLite database (\(describeStart(of: url)))",
                    underlyingError: error)
            case .corrupt:
                throw damaged(url, detail: "SQLite: \(error.message)", underlyingError: error)
            default:
                throw SaveGameError.wrapping(error, path: path)
            }
        }
    }

    /// Whether the file was closed cleanly: no write-ahead log and no rollback journal lies beside it. Closing the
    /// last connection to a save folds its log into the file and removes it; a log left beside a save means the game
    /// was killed (or is running), a journal that another program was writing it.
    ///
    /// - Parameter url: The save file.
    /// - Returns: `true` when the file is the whole save.
    static func closedCleanly(_ url: URL) -> Bool {
        ["-wal", "-journal"].allSatisfy { SaveGameStore.fileType(url.path + $0) == .missing }
    }

    /// Runs `PRAGMA quick_check`: every page and row is read and checked, indexes are not compared with their
    /// tables (``SaveFile/integrityCheck()`` does that too). A check that stops on damage is reported as damage.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - table: Check only this table and its indexes (SQLite's partial check: the pages of their b-trees, but
    ///     not the free pages nor whether every page belongs somewhere); the whole file when `nil`.
    /// - Returns: The problems, in SQLite's words; empty when none was found.
    static func quickCheck(_ db: Database, table: String? = nil) throws -> [String] {
        do {
            let sql = table.map { "PRAGMA quick_check(\(quoted($0)))" } ?? "PRAGMA quick_check"
            let rows = try db.query(sql).map { try $0.get(0, as: String.self) }
            guard rows != ["ok"] else { return [] }
            // SQLite puts several problems in one row, under a "*** in database main ***" heading.
            return rows.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("***") }
        } catch let error as SQLiteError where error.code == .corrupt || error.code == .notADatabase {
            return ["the check stopped: \(error.message)"]
        }
    }

    // MARK: - Damage

    /// The error for a damaged save: ``SaveGameError/Code/truncated`` when the file is shorter than its header
    /// says, otherwise ``SaveGameError/Code/corrupt``.
    static func damaged(_ url: URL, detail: String, underlyingError: (any Error)?) -> SaveGameError {
        if let shortfall = truncation(of: url) {
            return SaveGameError(.truncated, path: url.path, detail: shortfall, underlyingError: underlyingError)
        }
        return SaveGameError(.corrupt, path: url.path, detail: detail, underlyingError: underlyingError)
    }

    /// How much of the file is missing, if its header says it is longer than it is.
    ///
    /// The header (the first 100 bytes) holds the page size at offset 16 and the page count at offset 28; the
    /// count is valid when the "version valid for" number at offset 92 equals the change counter at offset 24.
    static func truncation(of url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? handle.seekToEnd()).map(Int.init) ?? header.count
        let magic = Array("SQLite format 3\0".utf8)
        if header.count < 100 {
            let prefix = header.prefix(magic.count)
            return !header.isEmpty && Array(prefix) == Array(magic.prefix(prefix.count))
                ? "the file is \(size) bytes, less than the 100-byte header" : nil
        }
        guard Array(header.prefix(16)) == magic else { return nil }
        func integer(at offset: Int, count: Int) -> Int {
            header[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = integer(at: 16, count: 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = integer(at: 28, count: 4)
        guard integer(at: 92, count: 4) == integer(at: 24, count: 4), pages > 0, pageSize >= 512 else { return nil }
        let expected = pages * pageSize
        return size < expected ? "the file is \(size) bytes, its header says \(expected) (\(pages) pages)" : nil
    }

    /// Whether the file starts with SQLite's 16-byte header string.
    static func hasSQLiteHeader(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        return start == Array("SQLite format 3\0".utf8)
    }

    /// A few words on what the file looks like, for the error message: its size and known signatures.
    static func describeStart(of url: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "unreadable" }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        let size = (try? handle.seekToEnd()).map(Int.init) ?? start.count
        let kinds: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("PK".utf8), "a ZIP archive"), (Array("%PDF".utf8), "a PDF document"),
            (Array("{".utf8), "JSON text"), (Array("[".utf8), "JSON text"),
        ]
        let kind =
            kinds.first { start.starts(with: $0.0) }?.1
            ?? (start.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) } ? "text" : "data")
        return "\(size) bytes of \(kind)"
    }
}

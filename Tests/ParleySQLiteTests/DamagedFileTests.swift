import Foundation
import ParleySQLite
import Testing

/// A file that is not an SQLite database, as a player's file system might hand us one.
struct ForeignFile: Sendable, CustomTestStringConvertible {
    let name: String
    let contents: Data
    var testDescription: String { name }

    static let all: [ForeignFile] = [
        ForeignFile(name: "random bytes", contents: Data((0..<8192).map { _ in UInt8.random(in: 0...255) })),
        ForeignFile(name: "a text file", contents: Data("Save slot 1\nturn=12\nmood=wary\n".utf8)),
        ForeignFile(name: "JSON", contents: Data(#"{"slot": 1, "npcs": []}"#.utf8)),
        ForeignFile(
            name: "a PNG header",
            contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 200))
        ),
    ]
}

@Suite struct DamagedFileTests {
    // MARK: - Files that are not databases

    @Test(
        "Opening a file that is not a database fails with notADatabase, and leaves the file untouched",
        arguments: ForeignFile.all)
    func notADatabase(_ file: ForeignFile) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("slot.parley")
            try file.contents.write(to: url)
            for access in [DatabaseOptions.Access.readWriteCreate, .readOnly] {
                let error = try #require(throws: SQLiteError.self) {
                    try Database(path: url.path, options: DatabaseOptions(access: access))
                }
                #expect(error.code == .notADatabase)
                #expect(error.message.contains("file is not a database"))
                #expect(error.message.contains(url.path))
                #expect(error.description.contains("restore the file from a backup"))
            }
            #expect(try Data(contentsOf: url) == file.contents)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["slot.parley"])
        }
    }

    @Test(
        "A failed open closes the file it opened, and so does releasing an open database",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd (Linux)"))
    func noDescriptorLeaks() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("slot.parley")
            try Data("not a database".utf8).write(to: url)
            for _ in 0..<50 {
                #expect(throws: SQLiteError.self) { try Database(path: url.path) }
            }
            #expect(try Self.openDescriptors(to: url) == 0)

            try FileManager.default.removeItem(at: url)
            for _ in 0..<50 {
                let db = try Database(path: url.path)
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS npc(name TEXT)")
            }
            #expect(try Self.openDescriptors(to: url) == 0)
        }
    }

    /// How many of this process's file descriptors point at `url` (other tests run in parallel, so only
    /// descriptors to this test's own file are counted).
    private static func openDescriptors(to url: URL) throws -> Int {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let target = url.resolvingSymlinksInPath().path
        return descriptors.count { descriptor in
            let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            return destination == target
        }
    }

    @Test("An empty file is a valid, empty database")
    func emptyFile() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("slot.parley")
            try Data().write(to: url)
            let db = try Database(path: url.path)
            #expect(try db.tableNames() == [])
            #expect(try db.integrityCheck() == [])
        }
    }

    // MARK: - Damaged databases

    /// Writes a WAL database of a few hundred rows with an index, closes it (which folds the WAL into the
    /// file), and returns its size and the index's root page.
    private func makeDatabase(at url: URL) throws -> (size: Int, pageSize: Int, indexRootPage: Int) {
        let db = try Database(path: url.path)
        try db.execute(
            sql: """
                CREATE TABLE line(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
                CREATE INDEX line_text ON line(text);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                INSERT INTO line(id, text) SELECT i, hex(randomblob(40)) FROM n;
                """)
        #expect(try db.integrityCheck() == [])
        let pageSize = try #require(try db.scalar("PRAGMA page_size", as: Int.self))
        let root = try #require(
            try db.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'line_text'", as: Int.self))
        let pages = try #require(try db.scalar("PRAGMA page_count", as: Int.self))
        return (pages * pageSize, pageSize, root)
    }

    @Test(
        "A truncated database fails to open with corrupt",
        arguments: ["50 bytes", "one page", "half", "all but one page"])
    func truncated(_ length: String) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("slot.parley")
            let (size, pageSize, _) = try makeDatabase(at: url)
            #expect(try Data(contentsOf: url).count == size)
            let newSize =
                switch length {
                case "50 bytes": 50
                case "one page": pageSize
                case "half": size / 2
                default: size - pageSize
                }
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(newSize))
            try handle.close()

            let error = try #require(throws: SQLiteError.self) { try Database(path: url.path) }
            #expect(error.code == .corrupt)
            #expect(error.message.contains(url.path))
            #expect(error.description.contains("restore the file from a backup"))
        }
    }

    @Test("The integrity check is empty for a sound database and lists the damage in a damaged one")
    func integrityCheck() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("slot.parley")
            let (_, pageSize, indexRoot) = try makeDatabase(at: url)

            // Overwrite the index's root page with zeros: the schema still reads, the index does not.
            let handle = try FileHandle(forWritingTo: url)
            try handle.seek(toOffset: UInt64((indexRoot - 1) * pageSize))
            try handle.write(contentsOf: Data(count: pageSize))
            try handle.close()

            let db = try Database(path: url.path)
            let problems = try db.integrityCheck()
            #expect(!problems.isEmpty)
            #expect(problems.contains { $0.contains("Page \(indexRoot)") }, "\(problems)")
        }
    }

    // MARK: - Read-only

    @Test("A read-only connection reads, and every write fails with readOnly (even as root)")
    func readOnlyAccess() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            do {
                let db = try Database(path: path)
                try db.execute(sql: "CREATE TABLE npc(name TEXT); INSERT INTO npc VALUES ('Mira');")
            }
            let db = try Database(path: path, options: DatabaseOptions(access: .readOnly))
            #expect(try db.scalar("SELECT name FROM npc", as: String.self) == "Mira")
            let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO npc VALUES ('Tobin')") }
            #expect(error.code == .readOnly)
            #expect(error.description.contains("open it read-write"))
            #expect(throws: SQLiteError.self) { try db.setUserVersion(3) }
            #expect(try Database(path: path).scalar("SELECT count(*) FROM npc", as: Int.self) == 1)
        }
    }

    @Test(
        "A file without write permission is not written to",
        .disabled(
            if: geteuid() == 0,
            "Running as root, which file permissions do not stop; readOnlyAccess() covers read-only opening instead"
        ))
    func writeProtectedFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            do {
                let db = try Database(path: path)
                try db.execute(sql: "CREATE TABLE npc(name TEXT); INSERT INTO npc VALUES ('Mira');")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            // SQLite opens a write-protected file read-only, so the failure comes at opening (setting the
            // journal mode) or at the first write; either way it is readOnly.
            let error = try #require(throws: SQLiteError.self) {
                let db = try Database(path: path)
                try db.execute("INSERT INTO npc VALUES ('Tobin')")
            }
            #expect(error.code == .readOnly)
            let reader = try Database(path: path, options: DatabaseOptions(access: .readOnly))
            #expect(try reader.scalar("SELECT count(*) FROM npc", as: Int.self) == 1)
        }
    }
}

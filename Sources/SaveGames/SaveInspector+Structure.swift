import Foundation
import ParleySQLite

// The checks that do not grow with the save: the columns of the schema, the first and last pages of every b-tree,
// and (when the state is loaded) SQLite's check of the tables the state is read from.

extension SaveInspector {
    /// Checks that every table of the applied migrations has every column they give it: a column dropped or renamed
    /// outside Parley is found when the save is opened, not when a read or a write first needs it.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - applied: The migrations the file has applied, in order.
    ///   - migrator: The schema's migrations.
    ///   - url: The save file, for the error.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/corrupt`` naming the missing columns.
    static func checkColumns(_ db: Database, applied: [String], migrator: Migrator, url: URL) throws {
        let expected = try SaveSchema.columns(afterApplying: applied, of: migrator)
        var found: [String: Set<String>] = [:]
        for row in try db.query(
            "SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'")
        {
            found[try row.get(0, as: String.self), default: []].insert(try row.get(1))
        }
        var missing: [String] = []
        for (table, columns) in expected.sorted(by: { $0.key < $1.key }) {
            // A missing table has been reported already, by name.
            guard let present = found[table] else { continue }
            missing += columns.subtracting(present).sorted().map { "\(table).\($0)" }
        }
        guard missing.isEmpty else {
            throw SaveGameError(
                .corrupt, path: url.path,
                detail: "the save format's column\(missing.count == 1 ? "" : "s") " + missing.joined(separator: ", ")
                    + " \(missing.count == 1 ? "is" : "are") missing")
        }
    }

    /// Reads the first and the last row of every table and index: each b-tree's root page and the pages on the way
    /// to its first and last leaves, which SQLite checks as it reads them. A few pages per b-tree, whatever the size
    /// of the save; the last leaf of a table is where the next rows go.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - url: The save file, for the error.
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/corrupt`` for a damaged page (the caller names the
    ///   file).
    static func checkEntryPages(_ db: Database, url: URL) throws {
        let objects = try db.query(
            """
            SELECT type, name, tbl_name FROM sqlite_schema
            WHERE type IN ('table', 'index') AND rootpage > 0 AND name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'
            ORDER BY rootpage
            """
        ).map {
            (
                type: try $0.get(0, as: String.self), name: try $0.get(1, as: String.self),
                table: try $0.get(2, as: String.self)
            )
        }
        for object in objects {
            if object.type == "table" {
                for order in ["ASC", "DESC"] {
                    let sql = "SELECT 1 FROM \(quoted(object.name)) NOT INDEXED ORDER BY rowid \(order) LIMIT 1"
                    _ = try db.scalar(sql, as: Int.self)
                }
                continue
            }
            let columns = try db.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [object.name])
                .compactMap { try $0.get(0, as: String?.self) }
            // An index on expressions has columns without names; its pages are checked when it is used.
            guard !columns.isEmpty else { continue }
            for order in ["ASC", "DESC"] {
                let orderBy = columns.map { "\(quoted($0)) \(order)" }.joined(separator: ", ")
                _ = try db.scalar(
                    "SELECT 1 FROM \(quoted(object.table)) INDEXED BY \(quoted(object.name)) ORDER BY \(orderBy) LIMIT 1",
                    as: Int.self)
            }
        }
    }

    /// The tables ``SaveFile/load(pack:)`` reads the state from: checked by SQLite, with their indexes, before the
    /// state is read. They grow with the world (NPCs, items, locations), not with the conversations or recordings.
    static let stateTables = [
        "metadata", "player", "player_items", "npcs", "npc_items", "locations", "location_items", "pending_offers",
        "conversations", "flags", "counters", "attitudes", "quests", "beats", "dealings",
    ]

    /// Runs SQLite's check of each table and its indexes (`PRAGMA quick_check(table)`): every page of their
    /// b-trees, the order of their keys, their cells and overflow pages. The rest of the file is not read.
    ///
    /// - Parameters:
    ///   - db: The connection, in the read transaction the tables are then read in.
    ///   - tables: The tables to check; those the file does not have are skipped.
    ///   - url: The save file, for the error.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/corrupt`` (or ``SaveGameError/Code/truncated``)
    ///   naming the table and the first problems.
    static func checkTables(_ db: Database, _ tables: [String], url: URL) throws {
        let present = Set(try db.tableNames())
        for table in tables where present.contains(table) {
            let problems = try quickCheck(db, table: table)
            guard problems.isEmpty else {
                throw damaged(
                    url, detail: "the table \(table) is damaged: " + problems.prefix(3).joined(separator: "; "),
                    underlyingError: nil)
            }
        }
    }

    /// An SQL identifier in double quotes, with inner quotes doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

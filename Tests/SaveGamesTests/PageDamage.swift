import Foundation
import ParleySQLite
import Testing

/// Damage done to a save's file where a failing disk or a bad copy would do it: on one page of one table, or in one
/// row, found by reading the file's b-trees as SQLite lays them out (the file format's documented layout).
enum PageDamage {
    /// The file's page size, from its header.
    static func pageSize(of url: URL) throws -> Int {
        let bytes = try Data(contentsOf: url)
        let raw = Int(bytes[16]) << 8 | Int(bytes[17])
        return raw == 1 ? 65_536 : raw
    }

    /// The root page of a table's or an index's b-tree.
    static func rootPage(of name: String, in url: URL) throws -> Int {
        // Immutable, so that nothing is left beside the file (a log would make it a save not closed cleanly).
        var options = DatabaseOptions(access: .readOnly)
        options.immutable = true
        let db = try Database(path: url.path, options: options)
        return try #require(try db.scalar("SELECT rootpage FROM sqlite_schema WHERE name = ?", [name], as: Int.self))
    }

    /// The leaf pages of a table's or an index's b-tree, in key order.
    static func leafPages(of name: String, in url: URL) throws -> [Int] {
        let root = try rootPage(of: name, in: url)
        let bytes = try Data(contentsOf: url)
        let size = try pageSize(of: url)
        func leaves(_ page: Int) -> [Int] {
            let start = (page - 1) * size + (page == 1 ? 100 : 0)
            let type = bytes[start]
            guard type == 2 || type == 5 else { return [page] }
            let cells = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
            var children: [Int] = []
            for cell in 0..<cells {
                let pointer = Int(bytes[start + 12 + 2 * cell]) << 8 | Int(bytes[start + 13 + 2 * cell])
                children.append(integer(bytes, at: (page - 1) * size + pointer, count: 4))
            }
            children.append(integer(bytes, at: start + 8, count: 4))
            return children.flatMap(leaves)
        }
        return leaves(root)
    }

    /// Writes garbage over a whole page.
    static func overwrite(page: Int, in url: URL) throws {
        var bytes = try Data(contentsOf: url)
        let size = try pageSize(of: url)
        for offset in 0..<size { bytes[(page - 1) * size + offset] = UInt8(truncatingIfNeeded: offset &* 13 &+ 7) }
        try bytes.write(to: url)
    }

    /// The text of the first column of the first row on a table's leaf page.
    static func firstText(onPage page: Int, in url: URL) throws -> String {
        let bytes = try Data(contentsOf: url)
        let record = try firstRecord(onPage: page, bytes: bytes, pageSize: pageSize(of: url))
        let type = record.serialTypes[0]
        precondition(type >= 13 && type % 2 == 1, "the first column is not text")
        let body = record.bodyStart
        return String(decoding: bytes[body..<(body + (type - 13) / 2)], as: UTF8.self)
    }

    /// Changes the type of one column of the first row on a table's leaf page, as one damaged byte would: an integer
    /// becomes text of the same length, so the row still reads, but not as what the schema says it holds.
    static func turnIntegerToText(column: Int, onPage page: Int, in url: URL) throws {
        var bytes = try Data(contentsOf: url)
        let record = try firstRecord(onPage: page, bytes: bytes, pageSize: pageSize(of: url))
        let type = record.serialTypes[column]
        let length = [0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 8: 0, 9: 0][type]
        let bodyLength = try #require(length, "column \(column) holds no integer (serial type \(type))")
        bytes[record.serialTypeOffsets[column]] = UInt8(13 + 2 * bodyLength)
        try bytes.write(to: url)
    }

    // MARK: - The file format

    /// The first cell's record on a table leaf page: where each serial type is, what it is, and where the values
    /// begin.
    private static func firstRecord(
        onPage page: Int, bytes: Data, pageSize: Int
    ) throws -> (serialTypes: [Int], serialTypeOffsets: [Int], bodyStart: Int) {
        let start = (page - 1) * pageSize + (page == 1 ? 100 : 0)
        try #require(bytes[start] == 13, "page \(page) is not a table's leaf page")
        let pointer = Int(bytes[start + 8]) << 8 | Int(bytes[start + 9])
        var offset = (page - 1) * pageSize + pointer
        _ = varint(bytes, &offset)  // the payload's size
        _ = varint(bytes, &offset)  // the rowid
        let recordStart = offset
        let headerSize = varint(bytes, &offset)
        var types: [Int] = []
        var offsets: [Int] = []
        while offset < recordStart + headerSize {
            offsets.append(offset)
            types.append(varint(bytes, &offset))
        }
        return (types, offsets, recordStart + headerSize)
    }

    /// SQLite's variable-length integer at `offset`, which moves past it.
    private static func varint(_ bytes: Data, _ offset: inout Int) -> Int {
        var value = 0
        for index in 0..<9 {
            let byte = Int(bytes[offset])
            offset += 1
            if index == 8 { return value << 8 | byte }
            value = value << 7 | (byte & 0x7F)
            if byte < 0x80 { return value }
        }
        return value
    }

    /// A big-endian integer of `count` bytes.
    private static func integer(_ bytes: Data, at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}

import Foundation
import ParleySQLite
import Testing

/// One value to round-trip, named so that test output stays readable for long values.
struct ValueCase: Sendable, CustomTestStringConvertible {
    let name: String
    let value: SQLiteValue
    var testDescription: String { name }
}

@Suite struct SQLiteValueTests {
    static let cases: [ValueCase] = [
        ValueCase(name: "null", value: .null),
        ValueCase(name: "zero", value: .integer(0)),
        ValueCase(name: "minus one", value: .integer(-1)),
        ValueCase(name: "Int64.min", value: .integer(.min)),
        ValueCase(name: "Int64.max", value: .integer(.max)),
        ValueCase(name: "one half", value: .real(0.5)),
        ValueCase(name: "pi", value: .real(.pi)),
        ValueCase(name: "infinity", value: .real(.infinity)),
        ValueCase(name: "minus infinity", value: .real(-.infinity)),
        ValueCase(name: "largest double", value: .real(.greatestFiniteMagnitude)),
        ValueCase(name: "smallest subnormal", value: .real(.leastNonzeroMagnitude)),
        ValueCase(name: "empty text", value: .text("")),
        ValueCase(name: "accented text", value: .text("Café, naïve, Œuvre")),
        ValueCase(name: "CJK text", value: .text("旅人よ、ようこそ")),
        ValueCase(name: "emoji with joiners", value: .text("👩‍👩‍👧 🏳️‍🌈")),
        ValueCase(name: "right-to-left text", value: .text("مرحبا بالمسافر")),
        ValueCase(name: "text with NUL inside", value: .text("before\0after\0")),
        ValueCase(name: "one megabyte of text", value: .text(String(repeating: "Ärger ", count: 150_000))),
        ValueCase(name: "empty blob", value: .blob(Data())),
        ValueCase(name: "blob of zero bytes", value: .blob(Data([0, 0, 0, 0]))),
        ValueCase(name: "blob with zeros at both ends", value: .blob(Data([0, 1, 2, 0xFF, 0]))),
        ValueCase(name: "blob of every byte", value: .blob(Data((0...255).map(UInt8.init)))),
    ]

    @Test("A value survives a write, closing the file, and a read", arguments: cases)
    func roundTripsThroughAFile(_ testCase: ValueCase) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("values.parley").path
            do {
                let db = try Database(path: path)
                // No declared type: no column affinity, so SQLite keeps each value's storage class.
                try db.execute(sql: "CREATE TABLE value(x)")
                try db.execute("INSERT INTO value(x) VALUES (?)", [testCase.value])
            }
            let db = try Database(path: path)
            let row = try #require(try db.query("SELECT x, typeof(x) AS class FROM value").first)
            #expect(row[0] == testCase.value)
            #expect(try row.get("class", as: String.self) == testCase.value.storageClass)
        }
    }

    @Test("The sign of minus zero is kept")
    func minusZeroKeepsItsSign() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE value(x)")
        try db.execute("INSERT INTO value(x) VALUES (?)", [-0.0])
        let read = try #require(try db.scalar("SELECT x FROM value", as: Double.self))
        #expect(read == 0 && read.sign == .minus)
    }

    @Test("NaN is refused rather than stored as NULL")
    func nanIsRefused() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE value(x)")
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO value(x) VALUES (?)", [Double.nan])
        }
        #expect(error.code == .mismatch)
        #expect(error.message.contains("NaN"))
        #expect(try db.scalar("SELECT count(*) FROM value", as: Int.self) == 0)
    }

    @Test("Each value's storage class is named as SQLite's typeof() names it")
    func storageClassNames() {
        #expect(SQLiteValue.null.storageClass == "null")
        #expect(SQLiteValue.integer(1).storageClass == "integer")
        #expect(SQLiteValue.real(1).storageClass == "real")
        #expect(SQLiteValue.text("").storageClass == "text")
        #expect(SQLiteValue.blob(Data()).storageClass == "blob")
        #expect(SQLiteValue.null.isNull && !SQLiteValue.integer(0).isNull)
    }
}

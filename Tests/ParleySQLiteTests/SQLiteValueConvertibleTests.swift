import Foundation
import ParleySQLite
import Testing

@Suite struct SQLiteValueConvertibleTests {
    // MARK: - Reading stored values as Swift types

    @Test(
        "Int reads integers and integral reals, and nothing else",
        arguments: [
            (SQLiteValue.integer(42), Int?.some(42)),
            (.integer(-7), -7),
            (.real(3.0), 3),
            (.real(3.5), nil),
            (.real(1e300), nil),
            (.text("3"), nil),
            (.blob(Data([3])), nil),
            (.null, nil),
        ])
    func readsInt(_ stored: SQLiteValue, _ expected: Int?) {
        #expect(Int(sqliteValue: stored) == expected)
    }

    @Test(
        "Int64 keeps its extremes",
        arguments: [Int64.min, -1, 0, 1, Int64.max])
    func int64RoundTrips(_ value: Int64) {
        #expect(value.sqliteValue == .integer(value))
        #expect(Int64(sqliteValue: value.sqliteValue) == value)
    }

    @Test(
        "Double reads reals and integers",
        arguments: [
            (SQLiteValue.real(2.5), Double?.some(2.5)),
            (.integer(2), 2.0),
            (.text("2.5"), nil),
            (.null, nil),
        ])
    func readsDouble(_ stored: SQLiteValue, _ expected: Double?) {
        #expect(Double(sqliteValue: stored) == expected)
    }

    @Test(
        "Bool is stored as 0 or 1, and reads any integer as SQL does",
        arguments: [
            (SQLiteValue.integer(0), Bool?.some(false)),
            (.integer(1), true),
            (.integer(-5), true),
            (.text("true"), nil),
            (.real(1), nil),
            (.null, nil),
        ])
    func readsBool(_ stored: SQLiteValue, _ expected: Bool?) {
        #expect(Bool(sqliteValue: stored) == expected)
        #expect(true.sqliteValue == .integer(1))
        #expect(false.sqliteValue == .integer(0))
    }

    @Test("String and Data read only their own storage class")
    func textAndBytesAreStrict() {
        #expect(String(sqliteValue: .text("Mira")) == "Mira")
        #expect(String(sqliteValue: .blob(Data("Mira".utf8))) == nil)
        #expect(String(sqliteValue: .integer(1)) == nil)
        #expect(Data(sqliteValue: .blob(Data([0, 1]))) == Data([0, 1]))
        #expect(Data(sqliteValue: .text("Mira")) == nil)
        #expect(Data().sqliteValue == .blob(Data()))
    }

    @Test("Optional maps nil to NULL, and still fails on a value of the wrong type")
    func optional() {
        #expect(Int?.none.sqliteValue == .null)
        #expect(Int?.some(3).sqliteValue == .integer(3))
        #expect(Int?(sqliteValue: .null) == .some(nil))
        #expect(Int?(sqliteValue: .integer(3)) == .some(3))
        #expect(Int?(sqliteValue: .text("three")) == nil)
    }

    // MARK: - Through a real database

    @Test("Each standard type round-trips through SQLite")
    func standardTypesThroughSQLite() throws {
        let db = try Database(path: ":memory:")
        #expect(try db.scalar("SELECT ?", [42], as: Int.self) == 42)
        #expect(try db.scalar("SELECT ?", [Int64.min], as: Int64.self) == .min)
        #expect(try db.scalar("SELECT ?", [0.25], as: Double.self) == 0.25)
        #expect(try db.scalar("SELECT ?", ["Mira"], as: String.self) == "Mira")
        #expect(try db.scalar("SELECT ?", [Data([0, 9, 0])], as: Data.self) == Data([0, 9, 0]))
        #expect(try db.scalar("SELECT ?", [true], as: Bool.self) == true)
        #expect(try db.scalar("SELECT ?", [SQLiteValue.text("raw")], as: SQLiteValue.self) == .text("raw"))
        let missing: String? = nil
        #expect(try db.scalar("SELECT ? IS NULL", [missing], as: Bool.self) == true)
    }

    @Test("A column declared REAL gives back integers stored in it as Int")
    func realAffinityColumnReadsAsInt() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE stat(value REAL)")
        try db.execute("INSERT INTO stat(value) VALUES (?)", [3])
        #expect(try db.scalar("SELECT typeof(value) FROM stat", as: String.self) == "real")
        #expect(try db.scalar("SELECT value FROM stat", as: Int.self) == 3)
    }
}

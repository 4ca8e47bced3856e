import Foundation
import ParleySQLite
import Testing

@Suite struct StatementTests {
    // MARK: - Positional arguments

    @Test("Numbered parameters take the argument at their number")
    func numberedParameters() throws {
        let db = try Database(path: ":memory:")
        let row = try #require(try db.query("SELECT ?2 AS second, ?1 AS first", ["a", "b"]).first)
        #expect(try row.get("second", as: String.self) == "b")
        #expect(try row.get("first", as: String.self) == "a")
    }

    @Test("Too few or too many positional arguments is an error that says how many", arguments: [0, 1, 3])
    func positionalCountMustMatch(_ count: Int) throws {
        let db = try Database(path: ":memory:")
        let arguments = StatementArguments(Array(repeating: 1, count: count))
        let error = try #require(throws: SQLiteError.self) {
            try db.query("SELECT ?, ?", arguments)
        }
        #expect(error.code == .range)
        #expect(error.message.contains("2 parameter(s), but \(count) argument(s)"))
        #expect(error.sql == "SELECT ?, ?")
    }

    // MARK: - Named arguments

    @Test("Named parameters bind by name, whatever their prefix", arguments: [":", "@", "$"])
    func namedParameters(_ prefix: String) throws {
        let db = try Database(path: ":memory:")
        let sql = "SELECT \(prefix)name AS name, \(prefix)level * 2 AS double"
        for arguments: StatementArguments in [
            ["name": "Mira", "level": 3], ["\(prefix)name": "Mira", "\(prefix)level": 3],
        ] {
            let row = try #require(try db.query(sql, arguments).first)
            #expect(try row.get("name", as: String.self) == "Mira")
            #expect(try row.get("double", as: Int.self) == 6)
        }
    }

    @Test("A named parameter used twice is bound once")
    func repeatedNamedParameter() throws {
        let db = try Database(path: ":memory:")
        #expect(try db.scalar("SELECT :x + :x", ["x": 21], as: Int.self) == 42)
    }

    @Test("A missing named argument is an error that names the parameter")
    func missingNamedArgument() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try db.query("SELECT :name, :level", ["name": "Mira"])
        }
        #expect(error.code == .range)
        #expect(error.message.contains(":level"))
    }

    @Test("A named argument the statement does not have (a typo) is an error that names it")
    func unknownNamedArgument() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try db.query("SELECT :level", ["levle": 3, "level": 3])
        }
        #expect(error.code == .range)
        #expect(error.message.contains("levle"))
    }

    @Test("Named arguments cannot reach a bare ?")
    func namedArgumentsAndBareParameter() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try db.query("SELECT :name, ?", ["name": "Mira"])
        }
        #expect(error.code == .range)
        #expect(error.message.contains("bare"))
    }

    // MARK: - One statement, run many times

    @Test("A prepared statement is bound, stepped and reset many times")
    func reusedStatement() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE line(turn INTEGER, npc TEXT, text TEXT)")
        let insert = try db.prepare("INSERT INTO line(turn, npc, text) VALUES (:turn, :npc, ?3)")
        #expect(insert.parameterCount == 3)
        for turn in 1...100 {
            insert.reset()
            try insert.bind(turn, named: "turn")
            try insert.bind("Mira", named: ":npc")
            try insert.bind("line \(turn)", at: 3)
            #expect(try insert.step() == false)
            #expect(db.changes == 1)
        }
        #expect(try db.scalar("SELECT sum(turn) FROM line", as: Int.self) == 5050)
        #expect(try db.scalar("SELECT text FROM line WHERE turn = 7", as: String.self) == "line 7")

        let select = try db.prepare("SELECT turn, npc, text FROM line ORDER BY turn")
        #expect(select.columnNames == ["turn", "npc", "text"])
        var turns: [Int] = []
        while try select.step() {
            turns.append(try select.column(at: 0))
            #expect(select.value(at: 1) == .text("Mira"))
        }
        #expect(turns == Array(1...100))
    }

    @Test("Binding to an index or name the statement does not have is an error")
    func bindOutOfRange() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT ?")
        for index in [0, 2] {
            let error = try #require(throws: SQLiteError.self) { try statement.bind(1, at: index) }
            #expect(error.code == .range)
        }
        let error = try #require(throws: SQLiteError.self) { try statement.bind(1, named: "nope") }
        #expect(error.code == .range)
        #expect(error.message.contains("nope"))
    }

    @Test("Reading a column as a type it cannot hold is a mismatch error naming the column and type")
    func columnTypeMismatch() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT 'seven' AS level")
        #expect(try statement.step())
        let error = try #require(throws: SQLiteError.self) { try statement.column(at: 0, as: Int.self) }
        #expect(error.code == .mismatch)
        #expect(error.message.contains("level") && error.message.contains("text") && error.message.contains("Int"))
        #expect(error.sql == "SELECT 'seven' AS level")
    }

    // MARK: - Preparing

    @Test(
        "prepare(_:) refuses SQL with several statements, or none",
        arguments: ["SELECT 1; SELECT 2", "", "  -- a comment"])
    func prepareTakesExactlyOneStatement(_ sql: String) throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.prepare(sql) }
        #expect(error.code == .misuse)
    }

    @Test("prepare(_:) accepts a trailing semicolon and comment")
    func prepareAllowsTrailingSemicolon() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT 1; -- done\n")
        #expect(statement.sql.hasPrefix("SELECT 1"))
    }
}

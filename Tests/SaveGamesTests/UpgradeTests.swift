import Foundation
import ParleySQLite
import Testing

@testable import SaveGames

/// A save of an older schema is upgraded when opened: in place for writing, in a private copy for reading. The
/// upgrades here go from the newest released version to one more that exists only in this test. (Upgrades from each
/// released version to the newest are `FixtureTests`.)
@Suite struct UpgradeTests {
    struct Failure: Error {}

    /// Today's migrations and one more.
    static func migrator(adding id: String, _ migrate: @escaping @Sendable (Database) throws -> Void) -> Migrator {
        var migrator = SaveSchema.migrator
        migrator.registerMigration(id, migrate: migrate)
        return migrator
    }

    /// The newest released version.
    static let released = SaveGameStore.schemaVersion
    /// The version the test migration upgrades to.
    static let next = released + 1

    static let nextVersion = migrator(adding: "\(next)-test-npc-mood") { db in
        try db.execute(
            sql: """
                ALTER TABLE npcs ADD COLUMN mood TEXT;
                UPDATE metadata SET value = '\(next)' WHERE key = 'schema_version';
                PRAGMA user_version = \(next);
                """)
    }

    /// The newest released version's fixture, copied into `folder` as `slot.parley`.
    func copyFixture(to folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("slot.parley")
        try FileManager.default.copyItem(at: SaveFixtures.schemaFixture(version: Self.released), to: copy)
        return copy
    }

    @Test("Opened read-only, an older save is upgraded in a temporary copy and the file is left as it was")
    func readOnlyUpgradeUsesACopy() throws {
        try withTemporaryDirectory { folder in
            let file = try copyFixture(to: folder)
            let before = try Data(contentsOf: file)
            let store = SaveGameStore(folder: folder, now: fixedNow, migrator: Self.nextVersion)
            var copy: URL?
            do {
                let save = try store.open(slot: "slot", access: .readOnly)
                copy = save.temporaryCopy
                #expect(try save.metadata().schemaVersion == Self.next)
                #expect(try save.load(pack: SaveTestWorld.pack()).state == (try SaveFixtures.state()))
                #expect(throws: SaveGameError.self) { try save.addFeedback(id: "x", npc: nil, json: "{}") }
            }
            #expect(try Data(contentsOf: file) == before)
            let temporary = try #require(copy)
            #expect(!FileManager.default.fileExists(atPath: temporary.path), "the temporary copy was not removed")
        }
    }

    @Test("Opened read-write, an older save is upgraded in place; the older version then refuses it as newer")
    func readWriteUpgradeInPlace() throws {
        try withTemporaryDirectory { folder in
            let file = try copyFixture(to: folder)
            let save = try SaveGameStore(folder: folder, now: fixedNow, migrator: Self.nextVersion).open(slot: "slot")
            #expect(try save.metadata().schemaVersion == Self.next)
            #expect(try save.load(pack: SaveTestWorld.pack()).state == (try SaveFixtures.state()))
            let db = try Database(path: file.path, options: DatabaseOptions(access: .readOnly))
            #expect(
                try SaveSchema.migrator.appliedMigrationIDs(in: db)
                    == SaveSchema.migrator.migrationIDs + ["\(Self.next)-test-npc-mood"])
            #expect(
                try db.scalar("SELECT value FROM metadata WHERE key = 'schema_version'", as: String.self)
                    == "\(Self.next)")

            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder).open(slot: "slot")
            }
            #expect(error.code == .newerSchema)
            #expect(error.description.contains("\"\(Self.next)-test-npc-mood\""))
        }
    }

    @Test("An upgrade that fails is rolled back: the save stays at its version and loads as before")
    func failedUpgrade() throws {
        let failing = Self.migrator(adding: "\(Self.next)-fails") { db in
            try db.execute(sql: "ALTER TABLE npcs ADD COLUMN mood TEXT")
            throw Failure()
        }
        try withTemporaryDirectory { folder in
            _ = try copyFixture(to: folder)
            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder, now: fixedNow, migrator: failing).open(slot: "slot")
            }
            #expect(error.code == .migrationFailed)
            #expect(error.description.contains("The file is as it was before the upgrade"))
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            #expect(try save.metadata().schemaVersion == Self.released)
            #expect(try save.load(pack: SaveTestWorld.pack()).state == (try SaveFixtures.state()))
        }
    }
}

import ParleySQLite

/// The save file's schema: its ordered migrations, and the marks that tell a Parley save from other files.
///
/// Migrations are never edited once released; a change to the schema is a new migration appended here, a new
/// fixture `Tests/SaveGamesTests/Fixtures/schema-v<N>.sqlite`, and a new section in `docs/save-format.md`.
enum SaveSchema {
    /// `PRAGMA application_id` of every Parley save: the ASCII bytes `PRLY`.
    static let applicationID = 0x5052_4C59

    /// The value of the `format` metadata key.
    static let formatName = "parley-save"

    /// The migrations of every released schema, oldest first.
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.registerMigration("1-initial", migrate: createVersion1)
        migrator.registerMigration("2-story-state", migrate: createVersion2)
        migrator.registerMigration("3-recording-parts", migrate: createVersion3)
        migrator.registerMigration("4-dealings", migrate: createVersion4)
        migrator.registerMigration("5-traded-in", migrate: createVersion5)
        return migrator
    }()

    /// The schema version this code writes: the number of migrations.
    static var currentVersion: Int { migrator.migrationIDs.count }

    /// The tables each migration creates: a save that has applied a migration must have its tables, or it was
    /// changed outside Parley (a table dropped or renamed).
    static let tablesByMigration: [String: [String]] = [
        "1-initial": [
            "metadata", "player", "player_items", "npcs", "npc_items", "locations", "location_items", "conversations",
            "transcript_entries", "conversation_annotations", "turn_annotations", "pending_offers", "feedback",
            "recordings",
        ],
        "2-story-state": ["flags", "counters", "attitudes", "quests", "beats"],
        "3-recording-parts": ["recording_parts"],
        "4-dealings": ["dealings"],
        "5-traded-in": [],
    ]

    // MARK: - Version 1 (released with Parley 0.1.0; never edit)

    @Sendable static func createVersion1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE metadata(
                    key   TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE player(
                    id       INTEGER PRIMARY KEY CHECK (id = 1),
                    name     TEXT NOT NULL,
                    location TEXT NOT NULL,
                    gold     INTEGER NOT NULL
                );
                CREATE TABLE player_items(
                    item     TEXT PRIMARY KEY NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0)
                );
                CREATE TABLE npcs(
                    id       TEXT PRIMARY KEY NOT NULL,
                    location TEXT NOT NULL,
                    gold     INTEGER NOT NULL
                );
                CREATE TABLE npc_items(
                    npc      TEXT NOT NULL REFERENCES npcs(id) ON DELETE CASCADE,
                    item     TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (npc, item)
                );
                CREATE TABLE locations(
                    id TEXT PRIMARY KEY NOT NULL
                );
                CREATE TABLE location_items(
                    location TEXT NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
                    item     TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (location, item)
                );
                CREATE TABLE conversations(
                    npc         TEXT PRIMARY KEY NOT NULL,
                    entry_count INTEGER NOT NULL CHECK (entry_count >= 0)
                );
                CREATE TABLE transcript_entries(
                    npc      TEXT NOT NULL REFERENCES conversations(npc) ON DELETE CASCADE,
                    position INTEGER NOT NULL CHECK (position >= 0),
                    entry_id TEXT NOT NULL,
                    role     TEXT NOT NULL,
                    kind     TEXT NOT NULL,
                    json     TEXT NOT NULL,
                    PRIMARY KEY (npc, position)
                );
                CREATE TABLE conversation_annotations(
                    npc   TEXT NOT NULL REFERENCES conversations(npc) ON DELETE CASCADE,
                    key   TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY (npc, key)
                );
                CREATE TABLE turn_annotations(
                    npc             TEXT NOT NULL REFERENCES conversations(npc) ON DELETE CASCADE,
                    prompt_entry_id TEXT NOT NULL,
                    key             TEXT NOT NULL,
                    value           TEXT NOT NULL,
                    PRIMARY KEY (npc, prompt_entry_id, key)
                );
                CREATE TABLE pending_offers(
                    npc        TEXT PRIMARY KEY NOT NULL,
                    offer_json TEXT NOT NULL,
                    summary    TEXT NOT NULL
                );
                CREATE TABLE feedback(
                    id         TEXT PRIMARY KEY NOT NULL,
                    npc        TEXT,
                    created_at TEXT NOT NULL,
                    json       TEXT NOT NULL
                );
                CREATE INDEX feedback_by_npc ON feedback(npc, created_at);
                CREATE TABLE recordings(
                    id         TEXT PRIMARY KEY NOT NULL,
                    npc        TEXT,
                    created_at TEXT NOT NULL,
                    json       TEXT NOT NULL
                );
                CREATE INDEX recordings_by_npc ON recordings(npc, created_at);
                INSERT INTO metadata(key, value) VALUES ('format', 'parley-save'), ('schema_version', '1');
                PRAGMA application_id = 1347570777;
                PRAGMA user_version = 1;
                """)
    }

    // MARK: - Version 2 (added after Parley 0.1.0; never edit once released)

    /// The story's state: flags, counters, attitudes, quest stages and beats fired. Only values that differ from
    /// the start have a row (a flag that is set, a counter or attitude that is not 0, a quest past its first
    /// stage, a beat that fired).
    @Sendable static func createVersion2(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE flags(
                    name TEXT PRIMARY KEY NOT NULL
                );
                CREATE TABLE counters(
                    name  TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL CHECK (value > 0)
                );
                CREATE TABLE attitudes(
                    npc   TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL CHECK (value BETWEEN -100 AND 100 AND value != 0)
                );
                CREATE TABLE quests(
                    id    TEXT PRIMARY KEY NOT NULL,
                    stage TEXT NOT NULL
                );
                CREATE TABLE beats(
                    npc   TEXT NOT NULL,
                    beat  TEXT NOT NULL,
                    count INTEGER NOT NULL CHECK (count > 0),
                    PRIMARY KEY (npc, beat)
                );
                UPDATE metadata SET value = '2' WHERE key = 'schema_version';
                PRAGMA user_version = 2;
                """)
    }

    // MARK: - Version 3 (added after Parley 0.1.0; never edit once released)

    /// Parts that many recordings share, stored once: a turn recording's `instructions` (the NPC's instructions
    /// with the summary and facts of the last context trim, many kilobytes once a conversation is long) is the
    /// same for every turn between two trims, and its `stateBefore` until something changes hands. A recording
    /// refers to its part as `{"$part": "<id>"}`; recordings written before this version hold them inline, and both
    /// read the same.
    @Sendable static func createVersion3(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE recording_parts(
                    id   TEXT PRIMARY KEY NOT NULL,
                    json TEXT NOT NULL
                );
                UPDATE metadata SET value = '3' WHERE key = 'schema_version';
                PRAGMA user_version = 3;
                """)
    }

    // MARK: - Version 4 (added after Parley 0.1.0; never edit once released)

    /// The player's dealings with each NPC (`StoryState.dealings`): what was bought, sold and given, oldest first, one
    /// row each, so that an NPC restored from a save remembers them. Saves of earlier versions have none: the NPCs of
    /// such a save remember the dealings made after it was upgraded.
    @Sendable static func createVersion4(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dealings(
                    npc      TEXT NOT NULL,
                    position INTEGER NOT NULL CHECK (position >= 0),
                    kind     TEXT NOT NULL CHECK (kind IN ('bought', 'sold', 'gave', 'received')),
                    item     TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    gold     INTEGER NOT NULL CHECK (gold >= 0),
                    PRIMARY KEY (npc, position)
                );
                UPDATE metadata SET value = '4' WHERE key = 'schema_version';
                PRAGMA user_version = 4;
                """)
    }

    // MARK: - Version 5 (never edit once released)

    /// Dealings of a new kind, `tradedIn`: goods the player gave in part exchange for a purchase (a swap), which
    /// version 4's `CHECK` on `kind` refuses. SQLite cannot change a constraint, so the table is rebuilt with the
    /// same columns and rows. A version 4 save holds no such dealing: a swap made before the upgrade is remembered
    /// as the purchase it was saved as.
    @Sendable static func createVersion5(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE dealings_v5(
                    npc      TEXT NOT NULL,
                    position INTEGER NOT NULL CHECK (position >= 0),
                    kind     TEXT NOT NULL CHECK (kind IN ('bought', 'sold', 'gave', 'received', 'tradedIn')),
                    item     TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    gold     INTEGER NOT NULL CHECK (gold >= 0),
                    PRIMARY KEY (npc, position)
                );
                INSERT INTO dealings_v5(npc, position, kind, item, quantity, gold)
                    SELECT npc, position, kind, item, quantity, gold FROM dealings;
                DROP TABLE dealings;
                ALTER TABLE dealings_v5 RENAME TO dealings;
                UPDATE metadata SET value = '5' WHERE key = 'schema_version';
                PRAGMA user_version = 5;
                """)
    }
}

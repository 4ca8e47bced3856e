import Foundation
import GameWorld

/// What a save says about itself: its format, when and by what it was written, and which world it belongs to.
///
/// It is stored as key–value rows in the `metadata` table (see `docs/save-format.md`), so that
/// `sqlite3 SaveGames/slot1.parley "SELECT * FROM metadata"` shows it.
public struct SaveMetadata: Sendable, Hashable {
    /// The schema version: how many of the save format's migrations the file has applied (`PRAGMA user_version`).
    public var schemaVersion: Int
    /// The version of Parley that last wrote the save.
    public var parleyVersion: String
    /// When the slot was created.
    public var createdAt: Date
    /// When the save was last written (a full save or an autosave).
    public var updatedAt: Date
    /// How long the player has played this game, in total.
    public var playTime: Duration
    /// The label the player or the game gave the save, for example `Before the duel`; may be empty.
    public var label: String
    /// The id of the world the save belongs to (`world.json`'s `id`).
    public var worldID: String
    /// The world's title when the save was written.
    public var worldTitle: String
    /// The fingerprint of the content pack the save was written with.
    public var contentHash: ContentHash
    /// The player's name.
    public var playerName: String
    /// The name of the player's location when the save was written, for listings.
    public var locationName: String
    /// The NPC the player was talking to when the game was saved, if any: a continued game goes on talking to them.
    public var talkingTo: NPCID?

    /// Creates metadata.
    ///
    /// - Parameters:
    ///   - schemaVersion: The schema version.
    ///   - parleyVersion: The Parley version that wrote the save.
    ///   - createdAt: When the slot was created.
    ///   - updatedAt: When the save was last written.
    ///   - playTime: The total play time.
    ///   - label: The save's label.
    ///   - worldID: The world's id.
    ///   - worldTitle: The world's title.
    ///   - contentHash: The content pack's fingerprint.
    ///   - playerName: The player's name.
    ///   - locationName: The name of the player's location.
    ///   - talkingTo: The NPC the player was talking to, if any.
    public init(
        schemaVersion: Int, parleyVersion: String, createdAt: Date, updatedAt: Date, playTime: Duration, label: String,
        worldID: String, worldTitle: String, contentHash: ContentHash, playerName: String, locationName: String,
        talkingTo: NPCID? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.parleyVersion = parleyVersion
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.playTime = playTime
        self.label = label
        self.worldID = worldID
        self.worldTitle = worldTitle
        self.contentHash = contentHash
        self.playerName = playerName
        self.locationName = locationName
        self.talkingTo = talkingTo
    }
}

/// The keys of the `metadata` table. Their meaning is documented in `docs/save-format.md`.
enum MetadataKey: String, CaseIterable {
    case format
    case schemaVersion = "schema_version"
    case parleyVersion = "parley_version"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case playTime = "play_time_seconds"
    case label
    case worldID = "world_id"
    case worldTitle = "world_title"
    case contentHash = "content_hash"
    case playerName = "player_name"
    case locationName = "location_name"
    case slotName = "slot_name"
    case talkingTo = "talking_to"
}

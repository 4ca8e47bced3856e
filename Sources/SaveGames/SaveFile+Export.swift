import GameWorld
import LanguageModels
import ParleyJSON

extension SaveFile {
    /// The version of the export document's shape.
    public static let exportVersion = 1

    /// The whole save as one JSON document, without needing the content pack: metadata, the saved state (with the
    /// story's flags, counters, attitudes, quests and beats), every conversation as an annotated transcript, the
    /// pending offers, feedback and recordings.
    ///
    /// ```json
    /// {"format": "parley-save-export", "version": 1,
    ///  "metadata": {"schemaVersion": 1, "label": "…", "worldID": "brackenford", …},
    ///  "state": {"player": {"name": "Ada", "location": "market_square", "gold": 14, "inventory": {"bread": 1}},
    ///            "npcs": {"mira": {"location": "market_square", "gold": 120, "inventory": {…}}},
    ///            "locations": {"market_square": {"items": {…}}},
    ///            "story": {"flags": ["met_mira"], "counters": {"visits": 2}, "attitudes": {"pip": 10},
    ///                      "quests": {"locket": "asked"}, "beats": {"aurelio": {"plea": 1}}}},
    ///  "conversations": {"mira": {"transcript": {…Apple's transcript JSON…}, "annotations": {…}, "turns": {…}}},
    ///  "pendingOffers": {"mira": {"offer": {…}, "summary": "…"}},
    ///  "feedback": [{"id": "…", "npc": "mira", "createdAt": "…", "attachment": {…}}],
    ///  "recordings": […]}
    /// ```
    ///
    /// Keys are in a fixed order and NPCs, locations and items sorted, so the same save always exports to the same
    /// bytes. An attachment whose JSON does not parse is exported as a string.
    ///
    /// - Returns: The document.
    /// - Throws: ``SaveGameError``: ``SaveGameError/Code/noGame`` for a slot never saved,
    ///   ``SaveGameError/Code/corrupt`` for data that does not decode.
    public func export() throws -> JSONValue {
        let path = url.path
        let saved = try reading { db in try SavedRows(db, path: path) }
        let metadata = saved.metadata
        func stacks(_ stacks: [SavedRows.Stack]) -> JSONValue {
            .object(JSONObject(stacks.map { ($0.item, .integer($0.quantity)) }))
        }
        let state: JSONValue = [
            "player": [
                "name": .string(saved.player.name), "location": .string(saved.player.location),
                "gold": .integer(saved.player.gold), "inventory": stacks(saved.playerItems),
            ],
            "npcs": .object(
                JSONObject(
                    saved.npcs.map { npc in
                        (
                            npc.id,
                            [
                                "location": .string(npc.location), "gold": .integer(npc.gold),
                                "inventory": stacks(saved.npcItems[npc.id] ?? []),
                            ]
                        )
                    })),
            "locations": .object(
                JSONObject(saved.locations.map { ($0, ["items": stacks(saved.locationItems[$0] ?? [])]) })),
            "story": Self.jsonValue(saved.story),
        ]
        var conversations = JSONObject()
        for conversation in saved.conversations {
            conversations[conversation.npc] = try transcript(npc: NPCID(conversation.npc))?.jsonValue ?? .null
        }
        var offers = JSONObject()
        for offer in saved.offers {
            let parsed = (try? JSONValue(parsing: offer.json)) ?? .string(offer.json)
            offers[offer.npc] = ["offer": parsed, "summary": .string(offer.summary)]
        }
        func attachments(_ table: AttachmentTable) throws -> JSONValue {
            .array(
                try self.attachments(in: table, npc: nil).map { attachment in
                    [
                        "id": .string(attachment.id), "npc": attachment.npc.map { .string($0.rawValue) } ?? .null,
                        "createdAt": .string(SaveCoding.text(attachment.createdAt)),
                        "attachment": (try? JSONValue(parsing: attachment.json)) ?? .string(attachment.json),
                    ]
                })
        }
        return [
            "format": "parley-save-export",
            "version": .integer(Self.exportVersion),
            "metadata": [
                "slot": .string(slot),
                "schemaVersion": .integer(metadata.schemaVersion),
                "parleyVersion": .string(metadata.parleyVersion),
                "createdAt": .string(SaveCoding.text(metadata.createdAt)),
                "updatedAt": .string(SaveCoding.text(metadata.updatedAt)),
                "playTimeSeconds": .number(JSONNumber(text: SaveCoding.text(metadata.playTime))!),
                "label": .string(metadata.label),
                "worldID": .string(metadata.worldID),
                "worldTitle": .string(metadata.worldTitle),
                "contentHash": .string(metadata.contentHash.hex),
                "playerName": .string(metadata.playerName),
                "locationName": .string(metadata.locationName),
                "talkingTo": metadata.talkingTo.map { .string($0.rawValue) } ?? .null,
            ],
            "state": state,
            "conversations": .object(conversations),
            "pendingOffers": .object(offers),
            "feedback": try attachments(.feedback),
            "recordings": try attachments(.recordings),
        ]
    }
}

extension SaveFile {
    /// The story's rows as export JSON: flags sorted, the rest as objects keyed by name, NPC or quest.
    static func jsonValue(_ story: StoryRows) -> JSONValue {
        var beats = JSONObject()
        for row in story.beats {
            var counts = beats[row.npc]?.objectValue ?? JSONObject()
            counts[row.beat] = .integer(row.count)
            beats[row.npc] = .object(counts)
        }
        return [
            "flags": .array(story.flags.map { .string($0) }),
            "counters": .object(JSONObject(story.counters.map { ($0.name, .integer($0.value)) })),
            "attitudes": .object(JSONObject(story.attitudes.map { ($0.npc, .integer($0.value)) })),
            "quests": .object(JSONObject(story.quests.map { ($0.id, .string($0.stage)) })),
            "beats": .object(beats),
            "dealings": .object(
                JSONObject(
                    Dictionary(grouping: story.dealings, by: \.npc).sorted { $0.key < $1.key }.map { npc, rows in
                        (
                            npc,
                            .array(
                                rows.map {
                                    [
                                        "kind": .string($0.kind), "item": .string($0.item),
                                        "quantity": .integer($0.quantity), "gold": .integer($0.gold),
                                    ]
                                })
                        )
                    })),
        ]
    }
}

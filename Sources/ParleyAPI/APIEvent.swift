import GameWorld
import ParleyJSON

/// Something that happened while the game ran a line of the player's, as `parley serve` reports it
/// (`POST /v1/games/{id}/input`): what the game showed, piece by piece (`narration`, `speechBegan`, `speech`,
/// `speechEnded`, `problem`, ...), and what it did (`toolCall`, `offer`, `offerRefused`, `trade`, `beat`,
/// `questCompleted`, ...), with the NPC's id and name where one is concerned. docs/api.md lists every event with
/// its fields.
///
/// ```json
/// {"type": "speech", "npc": {"id": "mira", "name": "Mira Quickcoin"}, "text": "The Brass Lantern? "}
/// ```
public struct APIEvent: Sendable, Equatable, CustomStringConvertible {
    /// The event's type: `narration`, `speech`, `offer`, ...
    public var type: String
    /// The NPC concerned, if any.
    public var npc: NPCReference?
    /// The event's other fields, in order.
    public var fields: JSONObject

    /// An NPC as events name it: its id and the name the player sees.
    public struct NPCReference: Sendable, Equatable {
        /// The NPC's id, for example `mira`.
        public var id: NPCID
        /// The NPC's name, for example `Mira Quickcoin`.
        public var name: String

        /// Creates a reference.
        ///
        /// - Parameters:
        ///   - id: The NPC's id.
        ///   - name: The NPC's name.
        public init(id: NPCID, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - type: The event's type.
    ///   - npc: The NPC concerned, if any.
    ///   - fields: The other fields.
    public init(_ type: String, npc: NPCReference? = nil, _ fields: JSONObject = JSONObject()) {
        self.type = type
        self.npc = npc
        self.fields = fields
    }

    /// The event as JSON: `type`, then `npc` (`{"id", "name"}`) when there is one, then the other fields.
    public var json: JSONValue {
        var object = JSONObject([("type", .string(type))])
        if let npc { object["npc"] = ["id": .string(npc.id.rawValue), "name": .string(npc.name)] }
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    /// The event as one line of compact JSON.
    public var description: String { json.jsonString() }
}

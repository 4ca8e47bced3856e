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
    /// The event's type: `narration`, `speech`, `offer`, ...; its raw value is the `type` on the wire.
    public var type: Kind
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

    /// The type of an event: what its `type` says on the wire (the raw value), as docs/api.md ("Events") and
    /// docs/openapi.json (`Event`) list them, in their order.
    ///
    /// The set is closed: the server is the only one to make events, and it makes only these. A name that is not
    /// among them (from a newer server, or a typo) gives `nil` with `init(rawValue:)`; a client decides what to do
    /// with it.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A description, a result, a list: `text`.
        case narration
        /// An NPC is working out its answer: `npc`.
        case thinking
        /// The NPC starts to speak: `npc`.
        case speechBegan
        /// More of what the NPC says: `npc`, `text`.
        case speech
        /// The NPC has finished speaking: `npc`, `text` (the whole line).
        case speechEnded
        /// A model server is slow or retried; the turn goes on: `text`.
        case notice
        /// Something went wrong, in words the player can act on: `detail`.
        case problem
        /// The player reached the world's goal: `goal`.
        case goalReached
        /// The NPC's model called one of its tools: `npc`, `tool`, `arguments`, `output`.
        case toolCall
        /// A trade happened: `npc`, `playerGives`, `npcGives`.
        case trade
        /// The player gave the NPC an item: `npc`, `item`.
        case gave
        /// The player got an item from the NPC: `npc`, `item`.
        case received
        /// The player gave gold outside a trade: `npc`, `gold`.
        case paidGold
        /// The player got gold outside a trade: `npc`, `gold`.
        case receivedGold
        /// The player picked something up: `item`.
        case tookItem
        /// The player put something down: `item`.
        case droppedItem
        /// The player walked somewhere: `location`.
        case moved
        /// An NPC went elsewhere: `npc`, `location`.
        case npcMoved
        /// An offer waits for the player's answer: `npc`, `summary`, `playerGives`, `npcGives`.
        case offer
        /// The game's rules refused a trade the NPC's model proposed: `npc`, `proposal`, `reasons`.
        case offerRefused
        /// An authored beat fired: `npc`, `beat`.
        case beat
        /// A quest moved on: `quest`, `stage`.
        case questAdvanced
        /// A quest reached its last stage: `quest`, `stage`.
        case questCompleted
        /// A story flag was set: `flag`.
        case flagSet
        /// A story flag was cleared: `flag`.
        case flagCleared
        /// A value of the state changed: `field`, `value`, `previous`, and `npc`, `item` or `counter` where they
        /// apply.
        case stateChanged
        /// Only to listeners: events after `Last-Event-ID` that are no longer kept: `count`.
        case eventsMissed
        /// Only to listeners: the game ended: `game`.
        case ended
        /// The game told its NPCs what happened: `text`, `kind`, `witnesses`, `react`.
        case worldEvent
        /// The NPC takes one of the game's actions: `npc`, `callId`, `action`, `arguments`, `await`,
        /// `timeoutSeconds`.
        case action
        /// The NPC's model called one of the game's actions with arguments that do not fit its schema: `npc`,
        /// `action`, `arguments`, `reasons`.
        case actionRefused
        /// A spoken line was recognised (`POST .../say` with `audio/wav`): `npc`, `text`, `confidence` (0 to 1, or
        /// `null`), `understood` (`false`: too unsure to act on, and the NPC asks the player to say it again).
        case heard

        /// The name on the wire.
        public var description: String { rawValue }
    }

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - type: The event's type.
    ///   - npc: The NPC concerned, if any.
    ///   - fields: The other fields.
    public init(_ type: Kind, npc: NPCReference? = nil, _ fields: JSONObject = JSONObject()) {
        self.type = type
        self.npc = npc
        self.fields = fields
    }

    /// The event as JSON: `type`, then `npc` (`{"id", "name"}`) when there is one, then the other fields.
    public var json: JSONValue {
        var object = JSONObject([("type", .string(type.rawValue))])
        if let npc { object["npc"] = ["id": .string(npc.id.rawValue), "name": .string(npc.name)] }
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    /// The event as one line of compact JSON.
    public var description: String { json.jsonString() }
}

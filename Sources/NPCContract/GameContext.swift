import GameWorld
import LanguageModels

/// The game as it is when an NPC's conversation starts, carried as data in the NPC's instructions: which NPC, where,
/// and the player it talks with.
///
/// It is the instructions' `GameContext` structured segment:
///
/// ```json
/// {"npc": "mira", "player": {"name": "Ada", "gold": 14, "inventory": [{"item": "bread", "quantity": 2}]},
///  "location": "market_square"}
/// ```
///
/// Language models read the same facts in the instructions' text; the scripted model reads this.
public struct GameContext: Sendable, Hashable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// The `source` of the structured segment that carries the context.
    public static let segmentSource = "GameContext"

    /// The NPC whose instructions these are.
    public var npc: NPCID
    /// The player, with ids and quantities of what they carry.
    public var player: PlayerReport
    /// Where the NPC is.
    public var location: LocationID

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - player: The player.
    ///   - location: Where the NPC is.
    public init(npc: NPCID, player: PlayerReport, location: LocationID) {
        self.npc = npc
        self.player = player
        self.location = location
    }

    /// The context of an NPC in a game state: the player's name, gold and inventory (ids and quantities, in the
    /// inventory's order) and the NPC's location.
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - state: The game now.
    public init(npc: NPC, state: GameState) {
        let player = state.player
        self.init(
            npc: npc.id,
            player: PlayerReport(
                name: player.name, gold: player.gold,
                inventory: player.inventory.map { PlayerReport.Line(item: $0.item, quantity: $0.quantity) }),
            location: npc.location)
    }

    /// The context as the instructions' structured segment.
    public var segment: Transcript.Segment {
        .structure(Transcript.StructuredSegment(source: Self.segmentSource, content: generatedContent))
    }

    // MARK: - JSON

    /// `{"npc", "player": {"name", "gold", "inventory": [{"item", "quantity"}]}, "location"}`.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("npc", npc.rawValue)
        builder.add("player", player)
        builder.add("location", location.rawValue)
        return builder.content
    }

    /// Reads a context.
    ///
    /// - Parameter content: The `GameContext` segment's content.
    /// - Throws: `GeneratedContent.ParsingError` when a member is missing or has the wrong type.
    public init(_ content: GeneratedContent) throws {
        let reader = ContentReader(content, reading: GameContext.self)
        npc = NPCID(try reader.string("npc"))
        player = try PlayerReport(reading: reader.required("player", "PlayerReport"))
        location = LocationID(try reader.string("location"))
    }
}

extension Transcript.Instructions {
    /// The game context these instructions carry (their first `GameContext` segment that reads), if any.
    public var gameContext: GameContext? {
        for case .structure(let segment) in segments where segment.source == GameContext.segmentSource {
            if let context = try? GameContext(segment.content) { return context }
        }
        return nil
    }
}

import GameWorld
import LanguageModels
import ParleyJSON

// A refusal reason as data, so that a model can voice it in character ("I quoted you 20, friend, and 20 it is")
// instead of repeating the game's sentence about it.

extension RefusalReason {
    /// The reason's kind and values, as `ActionResult` writes it in `refusals`: `{"kind": "asksMoreThanQuoted",
    /// "npc": "Mira Quickcoin", "item": "Brass Lantern", "quoted": 20, "asked": 22}`; `{"kind": "stated"}` for a
    /// reason known only by its words.
    public var details: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("kind", kind)
        switch self {
        case .noSuchNPC(let npc): builder.add("npc", npc.rawValue)
        case .noSuchItem(let text), .noSuchTradeItem(let text): builder.add("text", text)
        case .neverPartsWith(let npc, let item):
            builder.add("npc", npc)
            builder.add("item", item)
        case .tradeRule(let rejection, _):
            // Sorted keys: the same rejection is the same bytes in every process, so a restored game's tool output
            // (and a server's prompt cache) matches the live one's.
            // A rejection holds only strings and integers, which always encode.
            do {
                builder.add(
                    "rejection", GeneratedContent(jsonValue: try JSONValueEncoder(keyOrder: .sorted).encode(rejection)))
            } catch {
                preconditionFailure("A trade rejection did not encode: \(error)")
            }
        case .asksMoreThanQuoted(let npc, let item, let quoted, let asked):
            builder.add("npc", npc)
            builder.add("item", item)
            builder.add("quoted", quoted)
            builder.add("asked", asked)
        case .paysLessThanQuoted(let npc, let item, let quoted, let paid):
            builder.add("npc", npc)
            builder.add("item", item)
            builder.add("quoted", quoted)
            builder.add("paid", paid)
        case .unreadableOffer(let detail): builder.add("detail", detail)
        case .unclearSpeech(let heard): builder.add("heard", heard)
        case .effectRefused, .stated: break
        }
        return builder.content
    }

    /// The case's name: `asksMoreThanQuoted`, `tradeRule`, ...; `stated` for a reason known only by its words and for
    /// `effectRefused`, whose error reads back only as its words.
    var kind: String {
        switch self {
        case .noSuchNPC: "noSuchNPC"
        case .noSuchItem: "noSuchItem"
        case .noSuchTradeItem: "noSuchTradeItem"
        case .neverPartsWith: "neverPartsWith"
        case .tradeRule: "tradeRule"
        case .asksMoreThanQuoted: "asksMoreThanQuoted"
        case .paysLessThanQuoted: "paysLessThanQuoted"
        case .unreadableOffer: "unreadableOffer"
        case .unclearSpeech: "unclearSpeech"
        case .effectRefused, .stated: "stated"
        }
    }

    /// Reads a reason from its details and its sentence; details that do not read (an unknown kind, a missing value)
    /// give `.stated(message)`, so a reason is never lost.
    ///
    /// - Parameters:
    ///   - details: The reason's `refusals` entry.
    ///   - message: The reason's sentence, from `reasons`.
    init(details: ContentReader, message: String) {
        self = (try? Self.read(details, message: message)) ?? .stated(message)
    }

    private static func read(_ reader: ContentReader, message: String) throws -> RefusalReason {
        switch try reader.string("kind") {
        case "noSuchNPC": return .noSuchNPC(NPCID(try reader.string("npc")))
        case "noSuchItem": return .noSuchItem(try reader.string("text"))
        case "noSuchTradeItem": return .noSuchTradeItem(try reader.string("text"))
        case "neverPartsWith": return .neverPartsWith(npc: try reader.string("npc"), item: try reader.string("item"))
        case "tradeRule":
            let rejection = try JSONValueDecoder().decode(
                TradeRejection.self, from: reader.required("rejection", "object").content.jsonValue)
            return .tradeRule(rejection, explanation: message)
        case "asksMoreThanQuoted":
            return .asksMoreThanQuoted(
                npc: try reader.string("npc"), item: try reader.string("item"), quoted: try reader.integer("quoted"),
                asked: try reader.integer("asked"))
        case "paysLessThanQuoted":
            return .paysLessThanQuoted(
                npc: try reader.string("npc"), item: try reader.string("item"), quoted: try reader.integer("quoted"),
                paid: try reader.integer("paid"))
        case "unreadableOffer": return .unreadableOffer(try reader.string("detail"))
        case "unclearSpeech": return .unclearSpeech(heard: try reader.string("heard"))
        default: return .stated(message)
        }
    }
}

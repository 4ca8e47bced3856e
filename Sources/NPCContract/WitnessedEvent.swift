import GameWorld
import LanguageModels

/// Something an NPC witnesses rather than hears: it comes to the NPC's session as a prompt with words for language
/// models and the event as data, in a `GameEvent` structured segment.
///
/// | Event | Words (for the player Ada) | Data |
/// |---|---|---|
/// | `arrived` | `(Ada comes up to you.)` | `{"event": "arrived"}` |
/// | `left` | `(Ada says goodbye and turns to go.)` | `{"event": "left"}` |
/// | `gave` | `(Ada gives you the Moonpetal Locket.)`, `(Ada gives you 2 × Loaf of Bread.)` | `{"event": "gave", "item": "moonpetal_locket", "quantity": 1}` |
/// | `offerAccepted` | `(Ada accepts your offer: <summary>)` | `{"event": "offerAccepted", "summary": "…"}` |
/// | `offerDeclined` | `(Ada declines your offer: <summary>)` | `{"event": "offerDeclined", "summary": "…"}` |
/// | `arrivedHere` | `(Ada arrives.)` | `{"event": "arrivedHere"}` |
/// | `flagSet` | `(flagSet(gate_open))` | `{"event": "flagSet(gate_open)"}` |
/// | `happened` | `(The player draws a sword.)` | `{"event": "happened", "text": "The player draws a sword.", "kind": "swordDrawn"}` |
///
/// A prompt is an event exactly when it has a `GameEvent` segment (`Transcript.Prompt.isWitnessedEvent`), whatever
/// its words say.
public enum WitnessedEvent: Sendable, Hashable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// The `source` of the structured segment that carries the event.
    public static let segmentSource = "GameEvent"

    /// The player comes up to the NPC to talk.
    case arrived
    /// The player says goodbye and leaves the conversation.
    case left
    /// The player gives the NPC an item.
    case gave(item: ItemID, quantity: Int)
    /// The player accepts the NPC's offer, summed up in words.
    case offerAccepted(summary: String)
    /// The player declines the NPC's offer, summed up in words.
    case offerDeclined(summary: String)
    /// The player arrives where the NPC is (an `arrive` beat answers it).
    case arrivedHere
    /// An effect set a flag while the player was with the NPC (a `flagSet` beat answers it).
    case flagSet(String)
    /// Something the game says happened in its own world (`POST /v1/games/{id}/events`), in its words, with the
    /// kind the game gave it (`swordDrawn`), which dialogue rules can name (`"when": {"event": "swordDrawn"}`).
    case happened(text: String, kind: String?)

    /// The event's name, the data's `event` member: `arrived`, `gave`, `flagSet(gate_open)`...
    public var name: String {
        switch self {
        case .arrived: Name.arrived.rawValue
        case .left: Name.left.rawValue
        case .gave: Name.gave.rawValue
        case .offerAccepted: Name.offerAccepted.rawValue
        case .offerDeclined: Name.offerDeclined.rawValue
        case .arrivedHere: Name.arrivedHere.rawValue
        case .flagSet(let flag): "flagSet(\(flag))"
        case .happened: Name.happened.rawValue
        }
    }

    /// The item the event is about, if any.
    public var item: ItemID? {
        if case .gave(let item, _) = self { return item }
        return nil
    }

    /// How many items the event moved, if any.
    public var quantity: Int? {
        if case .gave(_, let quantity) = self { return quantity }
        return nil
    }

    /// The offer the event settles, in words, if any.
    public var summary: String? {
        switch self {
        case .offerAccepted(let summary), .offerDeclined(let summary): summary
        default: nil
        }
    }

    /// What happened, in the game's words, for a `happened` event.
    public var happenedText: String? {
        if case .happened(let text, _) = self { return text }
        return nil
    }

    /// The kind the game gave a `happened` event, if any.
    public var kind: String? {
        if case .happened(_, let kind) = self { return kind }
        return nil
    }

    /// The names of the events without a value in their name.
    private enum Name: String {
        case arrived, left, gave, offerAccepted, offerDeclined, arrivedHere, happened
    }

    /// What a language model reads, in parentheses: `(Ada gives you the Moonpetal Locket.)`.
    ///
    /// - Parameters:
    ///   - player: The player's name.
    ///   - world: The world, for item names.
    /// - Returns: The words.
    public func text(player: String, in world: World) -> String {
        switch self {
        case .arrived: "(\(player) comes up to you.)"
        case .left: "(\(player) says goodbye and turns to go.)"
        case .gave(let item, let quantity):
            "(\(player) gives you \(quantity == 1 ? "the \(world.name(of: item))" : "\(quantity) × \(world.name(of: item))").)"
        case .offerAccepted(let summary): "(\(player) accepts your offer: \(summary))"
        case .offerDeclined(let summary): "(\(player) declines your offer: \(summary))"
        case .arrivedHere: "(\(player) arrives.)"
        case .flagSet: "(\(name))"
        case .happened(let text, _): "(\(text))"
        }
    }

    /// The event as a prompt: its words, then its data in a `GameEvent` structured segment.
    ///
    /// - Parameters:
    ///   - player: The player's name.
    ///   - world: The world, for item names.
    /// - Returns: The prompt.
    public func prompt(player: String, in world: World) -> Prompt {
        Prompt(segments: [
            .text(Transcript.TextSegment(content: text(player: player, in: world))),
            .structure(Transcript.StructuredSegment(source: Self.segmentSource, content: generatedContent)),
        ])
    }

    // MARK: - JSON

    /// `{"event", "item"?, "quantity"?, "summary"?}`: the name, then the event's values.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("event", name)
        switch self {
        case .gave(let item, let quantity):
            builder.add("item", item.rawValue)
            builder.add("quantity", quantity)
        case .offerAccepted(let summary), .offerDeclined(let summary):
            builder.add("summary", summary)
        case .happened(let text, let kind):
            builder.add("text", text)
            if let kind { builder.add("kind", kind) }
        case .arrived, .left, .arrivedHere, .flagSet:
            break
        }
        return builder.content
    }

    /// Reads an event.
    ///
    /// - Parameter content: A `GameEvent` segment's content.
    /// - Throws: `GeneratedContent.ParsingError` when the name is unknown or a value is missing or has the wrong
    ///   type.
    public init(_ content: GeneratedContent) throws {
        let reader = ContentReader(content, reading: WitnessedEvent.self)
        let nameReader = try reader.required("event", "String")
        let name = try nameReader.string()
        switch Name(rawValue: name) {
        case .arrived: self = .arrived
        case .left: self = .left
        case .gave: self = .gave(item: ItemID(try reader.string("item")), quantity: try reader.integer("quantity"))
        case .offerAccepted: self = .offerAccepted(summary: try reader.string("summary"))
        case .offerDeclined: self = .offerDeclined(summary: try reader.string("summary"))
        case .arrivedHere: self = .arrivedHere
        case .happened:
            self = .happened(text: try reader.string("text"), kind: try reader.optionalString("kind"))
        case nil:
            guard name.hasPrefix("flagSet("), name.hasSuffix(")"), name.count > "flagSet()".count else {
                throw nameReader.error("unknown event \"\(name)\"")
            }
            self = .flagSet(String(name.dropFirst("flagSet(".count).dropLast()))
        }
    }
}

extension Transcript.Prompt {
    /// Whether the prompt is an event the NPC witnessed (it has a `GameEvent` segment) rather than the player's
    /// words.
    public var isWitnessedEvent: Bool {
        segments.contains { segment in
            if case .structure(let structure) = segment {
                structure.source == WitnessedEvent.segmentSource
            } else {
                false
            }
        }
    }

    /// The event the prompt carries, if it is one this version reads.
    public var witnessedEvent: WitnessedEvent? {
        for case .structure(let segment) in segments where segment.source == WitnessedEvent.segmentSource {
            return try? WitnessedEvent(segment.content)
        }
        return nil
    }
}

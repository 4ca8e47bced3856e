import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON

/// Something that happened in the game's own world that its NPCs should know of: what the game tells them with
/// `Game.tell(_:output:)` (`POST /v1/games/{id}/events`).
///
/// Each witness gets it in its conversation as a witnessed event (`WitnessedEvent.happened`: the words in
/// parentheses for a language model, the event as data for programs), kept in the save with the rest; with
/// ``react``, each answers it at once, unprompted, as it answers a line. Dialogue rules match it by its words
/// (`keywords`) and by its ``kind`` (`"when": {"event": "swordDrawn"}`).
///
/// ```json
/// {"text": "The player draws a sword.", "kind": "swordDrawn", "witnesses": ["oona"], "react": true}
/// ```
public struct WorldEvent: Sendable, Equatable {
    /// Who witnesses an event.
    public enum Witnesses: Sendable, Equatable {
        /// The NPCs where Parley's player is.
        case here
        /// These NPCs, wherever they are, in this order.
        case npcs([NPCID])
    }

    /// What happened, in words an NPC reads: `The player draws a sword.`
    public var text: String
    /// The kind of event, for dialogue rules (`swordDrawn`), or `nil`.
    public var kind: String?
    /// Who witnesses it.
    public var witnesses: Witnesses
    /// Whether each witness answers it at once.
    public var react: Bool

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - text: What happened.
    ///   - kind: The kind of event, or `nil`.
    ///   - witnesses: Who witnesses it; the NPCs here by default.
    ///   - react: Whether each witness answers at once; `false` by default (they know of it on their next turn).
    public init(text: String, kind: String? = nil, witnesses: Witnesses = .here, react: Bool = false) {
        self.text = text
        self.kind = kind
        self.witnesses = witnesses
        self.react = react
    }

    /// The longest text an event may have, in characters: as long as a line a player types.
    public static let maximumTextLength = 2_000

    /// The members an event's JSON may have.
    static let fields = ["text", "kind", "witnesses", "react"]

    /// Reads an event from its JSON: `{"text", "kind"?, "witnesses"?: "here" | ["npc", …], "react"?}`.
    ///
    /// - Parameter json: The event as JSON, an object.
    /// - Throws: ``WorldEventError`` listing every problem of its shape, each at its JSON path.
    public init(json: JSONValue) throws(WorldEventError) {
        var problems: [WorldEventError.Problem] = []
        func fail(_ path: String, _ message: String) { problems.append(.init(path: path, message: message)) }
        guard let object = json.objectValue else {
            throw WorldEventError(problems: [.init(path: "$", message: "expected an object, found \(json.typeName)")])
        }
        for key in object.keys where !Self.fields.contains(key) {
            let guess = Suggestions.closest(to: key, in: Self.fields)
            fail(
                "$.\(key)",
                "unknown member \"\(key)\"" + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? "")
                    + "; known here: \(Self.fields.joined(separator: ", "))")
        }
        var text = ""
        switch object["text"] {
        case .string(let value)?: text = value
        case nil: fail("$.text", "missing: say what happened, in words an NPC reads (\"The player draws a sword.\")")
        case let other?: fail("$.text", "expected a string, found \(other.typeName)")
        }
        var kind: String?
        switch object["kind"] {
        case .string(let value)?: kind = value
        case nil, .null?: break
        case let other?: fail("$.kind", "expected a string, found \(other.typeName)")
        }
        var witnesses = Witnesses.here
        switch object["witnesses"] {
        case nil, .string("here")?: break
        case .array(let elements)?:
            var ids: [NPCID] = []
            for (index, element) in elements.enumerated() {
                guard let id = element.stringValue else {
                    fail("$.witnesses[\(index)]", "expected an NPC's id, found \(element.typeName)")
                    continue
                }
                ids.append(NPCID(id))
            }
            witnesses = .npcs(ids)
        case let other?:
            fail("$.witnesses", "expected \"here\" or an array of NPC ids, found \(other.jsonString())")
        }
        var react = false
        switch object["react"] {
        case nil: break
        case .bool(let value)?: react = value
        case let other?: fail("$.react", "expected true or false, found \(other.typeName)")
        }
        if !problems.isEmpty { throw WorldEventError(problems: problems) }
        self.init(text: text, kind: kind, witnesses: witnesses, react: react)
    }

    /// Checks the event against a world: words to read, a well-formed kind, witnesses the world's NPCs.
    ///
    /// - Parameter world: The world.
    /// - Throws: ``WorldEventError`` listing every problem, each at its JSON path, with a did-you-mean for an NPC id
    ///   that is probably a typo.
    public func check(in world: World) throws(WorldEventError) {
        var problems: [WorldEventError.Problem] = []
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            problems.append(.init(path: "$.text", message: "is empty: say what happened"))
        } else if text.count > Self.maximumTextLength {
            problems.append(
                .init(
                    path: "$.text",
                    message: "has \(text.count) characters; an event has at most \(Self.maximumTextLength)"))
        }
        if let kind, !DialogueCondition.isWellFormedEventKind(kind) {
            problems.append(
                .init(
                    path: "$.kind",
                    message: "\"\(kind)\" is not a kind of event: a letter, then letters, digits and _ (at most 64), "
                        + "as dialogue rules name it (\"swordDrawn\")"))
        }
        if case .npcs(let ids) = witnesses {
            if ids.isEmpty {
                problems.append(.init(path: "$.witnesses", message: "names no NPC: name one, or say \"here\""))
            }
            for (index, id) in ids.enumerated() where world.npcs[id] == nil {
                let guess = Suggestions.closest(to: id.rawValue, in: world.npcs.keys.map(\.rawValue).sorted())
                problems.append(
                    .init(
                        path: "$.witnesses[\(index)]",
                        message: "unknown NPC \"\(id.rawValue)\""
                            + (guess.map { " (\(Suggestions.didYouMean($0)))" } ?? "")))
            }
        }
        if !problems.isEmpty { throw WorldEventError(problems: problems) }
    }

    /// The witnesses in a state: the NPCs where the player is (sorted by id), or those named, each once.
    ///
    /// - Parameter state: The game state.
    /// - Returns: The witnesses' ids.
    public func witnesses(in state: GameState) -> [NPCID] {
        switch witnesses {
        case .here: return state.npcsHere.map(\.id).sorted()
        case .npcs(let ids):
            var seen: Set<NPCID> = []
            return ids.filter { seen.insert($0).inserted }
        }
    }
}

/// Why a ``WorldEvent`` was refused: every problem, each at its JSON path. A refused event changes nothing.
public struct WorldEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One problem: where it is and what is wrong.
    public typealias Problem = StatePatchError.Problem

    /// Every problem, in the order found.
    public var problems: [Problem]

    /// Creates an error.
    ///
    /// - Parameter problems: The problems.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// The problems, one per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

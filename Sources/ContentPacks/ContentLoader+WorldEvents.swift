import GameWorld
import ParleyJSON

// MARK: - `when.event`: a dialogue rule that answers a game's own event by its kind

extension ContentLoader {
    /// Reads a rule's `"event"`: a kind, or an array of kinds, of the events a game tells its NPCs of
    /// (`POST /v1/games/{id}/events` with a `kind`). A rule with kinds answers the `gameEvent` intent: given no intent,
    /// it gets that one; given others, it is an error.
    ///
    /// - Parameters:
    ///   - value: The `event` member.
    ///   - path: Its path.
    ///   - condition: The condition read so far (its intents); gets the kinds.
    /// - Returns: Whether the member is valid.
    mutating func decodeEventKinds(
        _ value: JSONValue, at path: JSONPath, into condition: inout DialogueCondition
    )
        -> Bool
    {
        var named: [(JSONValue, JSONPath)] = []
        switch value {
        case .string: named = [(value, path)]
        case .array(let elements) where !elements.isEmpty:
            named = elements.enumerated().map { ($0.element, path.index($0.offset)) }
        case .array:
            error(path, "must not be empty", hint: "name at least one kind of event, or leave the field out")
            return false
        default:
            error(path, "expected a kind of event or an array of kinds, found \(Self.describe(value))")
            return false
        }
        var valid = true
        for (element, elementPath) in named {
            guard case .string(let kind) = element, DialogueCondition.isWellFormedEventKind(kind) else {
                error(
                    elementPath, "\(Self.describe(element)) is not a kind of event",
                    hint: "a kind is a letter, then letters, digits and _ (at most 64), as the game sends it: "
                        + "\"swordDrawn\"")
                valid = false
                continue
            }
            if !condition.events.contains(kind) { condition.events.append(kind) }
        }
        if condition.intents.isEmpty {
            condition.intents = [.gameEvent]
        } else if condition.intents != [.gameEvent] {
            error(
                path, "a rule with \"event\" answers the game's events, so its intent can only be \"gameEvent\"",
                hint: "remove the intent (\"gameEvent\" is implied), or the \"event\"")
            valid = false
        }
        return valid
    }
}

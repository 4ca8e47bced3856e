import ParleyJSON
import SaveGames

// Slots reach a game from the API as values: the name a client sent, whole, never re-read as a line the player typed.

extension APIGames {
    /// A slot name a client sent in a JSON member, checked: a string that names a save file (at least one letter or
    /// digit, no line break), passed on to the game as it is; the save folder stores it as
    /// `SaveGameStore.sanitizedSlotName(_:)` says (`Before the Mill` is `before-the-mill`).
    ///
    /// - Parameters:
    ///   - value: The member's value.
    ///   - member: The member's name, for the problem (`slot`, `load`).
    /// - Returns: The slot name.
    /// - Throws: `APIProblem` (400) saying what a slot name may hold.
    static func slotName(_ value: JSONValue?, member: String) throws(APIProblem) -> String {
        let allowed =
            "A slot name needs at least one letter or digit and no line break; it is stored in lower case, with "
            + "each run of other characters as one \"-\" (\"Before the Mill\" is before-the-mill), at most "
            + "\(SaveGameStore.maximumSlotNameLength) bytes. GET /v1/saves lists the slots."
        guard let name = value?.stringValue else {
            throw .badRequest("\"\(member)\" must be a string: the save slot's name. " + allowed)
        }
        guard !name.contains(where: \.isNewline), SaveGameStore.sanitizedSlotName(name) != nil else {
            throw .badRequest(
                "\"\(member)\" is \(JSONValue.string(String(name.prefix(80))).jsonString()), which names no slot. "
                    + allowed)
        }
        return name
    }
}

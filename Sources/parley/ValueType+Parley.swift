import CommandLineKit
import GameWorld
import SaveGames

// MARK: - Values that name things in a game

extension ValueType where Value == String {
    /// A save slot's name, as the player typed it (`My Save 1`), with at least one letter or digit: the names
    /// `SaveGameStore` can make a file name from. `""` and `...` are usage errors.
    static var slotName: ValueType<String> {
        ValueType(
            requirement: "a slot name with a letter or digit", example: "autosave",
            read: { SaveGameStore.sanitizedSlotName($0) == nil ? nil : $0 }, format: { $0 })
    }
}

extension ValueType where Value == NPCID {
    /// An NPC's id (`mira`), any non-empty text: `""` is a usage error. An id no conversation has (`Mira`) is not
    /// refused here: the command says which conversations the save has.
    static var npcID: ValueType<NPCID> {
        ValueType(
            requirement: "a non-empty NPC id", example: "mira", read: { $0.isEmpty ? nil : NPCID($0) },
            format: { $0.rawValue })
    }
}

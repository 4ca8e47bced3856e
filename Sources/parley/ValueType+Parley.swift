import CommandLineKit
import Foundation
import GameWorld
import ParleyEngine
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

extension ValueType where Value == String {
    /// A player's name (`--name`): what the game allows (`StatePatch.isValidName(_:)`), 1 to 64 characters without
    /// control characters. A longer one would make every turn fail on the context window, so it is refused at start.
    static var playerName: ValueType<String> {
        ValueType(
            requirement: "a name of 1 to \(StatePatch.maximumNameLength) characters without control characters "
                + "(line breaks, tabs)",
            example: "Aldric", read: { StatePatch.isValidName($0) ? $0 : nil }, format: { $0 })
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

extension ValueType where Value == VoiceMode {
    /// A voicing mode: `grounded` or `free`.
    static var voiceMode: ValueType<VoiceMode> {
        ValueType(
            requirement: "grounded or free", example: "grounded",
            read: { VoiceMode(rawValue: $0.lowercased()) }, format: { $0.rawValue })
    }
}

extension ValueType where Value == Double {
    /// An accuracy, as a fraction from 0 to 1 (`0.95`, `1`) or a percentage from 0 to 100 (`95`, `95%`, `99.5%`),
    /// read as a fraction: a number above 1, or one written with `%`, is a percentage. So `1` is 100%, and 1% must
    /// be written `1%` or `0.01`.
    static var accuracy: ValueType<Double> {
        ValueType(
            requirement: "a fraction from 0 to 1 or a percentage from 0 to 100 (0.95, 95 or 95%)", example: "95%",
            read: { text in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let isPercent = trimmed.hasSuffix("%")
                guard let number = Double(isPercent ? String(trimmed.dropLast()) : trimmed), number.isFinite,
                    number >= 0
                else { return nil }
                if isPercent || number > 1 { return number <= 100 ? number / 100 : nil }
                return number
            },
            format: { "\($0)" })
    }
}

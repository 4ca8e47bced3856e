import Foundation

extension SaveGameStore {
    /// The longest slot name kept, in UTF-8 bytes; longer names are cut.
    public static let maximumSlotNameLength = 64

    /// The file name (without `.parley`) that a slot name becomes, or `nil` when nothing usable is left.
    ///
    /// Letters and digits are kept, lowercased and in Unicode's composed form (so that `Slot1` and `slot1`, or two
    /// spellings of `é`, are one slot on every file system);
    /// `-` and `_` are kept; every other run of characters (spaces, `/`, `\`, `.`, `:`, control characters)
    /// becomes one `-`. Leading and trailing `-` and `_` are dropped and the name is cut to
    /// ``maximumSlotNameLength`` bytes. The result never contains a path separator or starts with a dot, so it
    /// always names a file directly inside the save folder.
    ///
    /// ```swift
    /// SaveGameStore.sanitizedSlotName("My Save 1")          // "my-save-1"
    /// SaveGameStore.sanitizedSlotName("../../etc/passwd")   // "etc-passwd"
    /// SaveGameStore.sanitizedSlotName("...")                // nil
    /// ```
    ///
    /// - Parameter slot: The slot's name as typed.
    /// - Returns: The sanitized name, or `nil`.
    public static func sanitizedSlotName(_ slot: String) -> String? {
        var name = ""
        var pendingSeparator = false
        for character in slot.precomposedStringWithCanonicalMapping {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                if pendingSeparator, !name.isEmpty { name.append("-") }
                pendingSeparator = false
                name += character.lowercased()
            } else {
                pendingSeparator = true
            }
        }
        // Cut to the byte limit on a character boundary, then drop separators left at the ends.
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= maximumSlotNameLength else { break }
            cut.append(character)
        }
        let trimmed = cut.drop { $0 == "-" || $0 == "_" }.reversed().drop { $0 == "-" || $0 == "_" }.reversed()
        let result = String(trimmed)
        return result.isEmpty ? nil : result
    }
}

import Foundation
import ParleySQLite

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

    /// What two slot names must share to name the same save: the name in Unicode's composed form, lowercased, with
    /// each run of white space as one space and none at the ends. `My Save` and `my  save` share it; `my/save`
    /// and `my save` do not, though both become the file `my-save.parley`.
    ///
    /// - Parameter name: A slot name as typed.
    /// - Returns: The key.
    static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Refuses to write a save under a name that shares its file with a save made under another name.
    ///
    /// Reading is not refused: any name that sanitizes to a slot's file reads that slot, which shares nothing.
    /// The file's own name (`my-save`) always names it. Another name that sanitizes to it is accepted when it is
    /// the name the save was made with, up to case and runs of spaces (`My Save`, `my  save`); any other
    /// (`my/save`, `my\u{202E}save`, or a name that only shares its first 64 characters) is refused, so two saves
    /// never silently share one file. A save that recorded no name (older saves) accepts every name. The file is
    /// read without changing it.
    ///
    /// - Parameters:
    ///   - name: The name the slot was asked for.
    ///   - file: The slot's file, which ``SaveInspector`` found to be a save.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/nameTaken``.
    func checkName(_ name: String, file: URL) throws {
        guard name != file.deletingPathExtension().lastPathComponent else { return }
        let recorded = try? Database(path: file.path, options: Self.readOptions(for: file)).scalar(
            "SELECT value FROM metadata WHERE key = ?", [MetadataKey.slotName.rawValue], as: String.self)
        guard let recorded = recorded ?? nil, Self.nameKey(recorded) != Self.nameKey(name) else { return }
        throw SaveGameError(
            .nameTaken, path: file.path,
            detail: "\"\(name)\" would share the file \(file.lastPathComponent) with the save \"\(recorded)\"")
    }
}

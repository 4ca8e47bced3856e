import GameWorld
import ParleyJSON

/// Stores the large members that many turn recordings share once, in the table `recording_parts`.
///
/// A recording's `instructions` (the NPC's instructions with the summary and facts of the last context trim) is the
/// same for every turn between two trims and, in a long conversation, tens of kilobytes: stored inline it made a
/// save grow by about 32 KB a turn. Its `stateBefore` (the whole game's dynamic state) is the same from turn to turn
/// until something moves. The save keeps each once, under an id made from its content, and the recording refers to
/// it as `{"$part": "<id>"}`. Reading a recording puts the member back, so every reader
/// (``SaveFile/recordings(npc:)``, exports, `parley replay`) sees the recording as it was written.
enum RecordingParts {
    /// The members of a recording that are stored as shared parts: the instructions, and the game state before the
    /// turn (the same from turn to turn until something changes hands).
    static let sharedMembers = ["instructions", "stateBefore"]
    /// Members smaller than this (in UTF-8 bytes) stay inline: a reference would save nothing.
    static let minimumSize = 256
    /// The key of a reference object.
    static let referenceKey = "$part"

    /// A recording's JSON with its shared members replaced by references, and the parts they refer to.
    ///
    /// - Parameter json: The recording's JSON text. Text that does not parse as an object is stored as it is.
    /// - Returns: The text to store, and each part's content (its id is chosen when it is stored).
    static func split(_ json: String) -> (stored: JSONObject, parts: [(member: String, json: String)])? {
        guard json.utf8.count >= minimumSize, let object = (try? JSONValue(parsing: json))?.objectValue else {
            return nil
        }
        var stored = object
        var parts: [(member: String, json: String)] = []
        for member in sharedMembers {
            guard let value = object[member], value.objectValue != nil else { continue }
            let text = value.jsonString()
            guard text.utf8.count >= minimumSize else { continue }
            parts.append((member, text))
            stored[member] = .null  // replaced by the reference once the part's id is known
        }
        return parts.isEmpty ? nil : (stored, parts)
    }

    /// The id a part's content is stored under: its FNV-1a hash, with a counter after it when another content
    /// already has that id (see `SaveWriter.storePart(_:)`).
    static func baseID(of json: String) -> String {
        "p" + ContentHash.empty.adding(json).hex
    }

    /// A stored recording's JSON with its references replaced by the parts they name.
    ///
    /// - Parameters:
    ///   - json: The stored text.
    ///   - parts: The stored parts by id.
    /// - Returns: The recording as it was written; the text as it is when it holds no reference.
    /// - Throws: `SaveGameError`-ready text: a `String` naming the missing part, as ``MissingPart``.
    static func join(_ json: String, parts: [String: String]) throws -> String {
        guard json.contains("\"\(referenceKey)\""), var object = (try? JSONValue(parsing: json))?.objectValue else {
            return json
        }
        for member in sharedMembers {
            guard let id = object[member]?[referenceKey]?.stringValue else { continue }
            guard let text = parts[id], let value = try? JSONValue(parsing: text) else { throw MissingPart(id: id) }
            object[member] = value
        }
        return JSONValue.object(object).jsonString()
    }

    /// A recording refers to a part the save does not hold (or that does not parse).
    struct MissingPart: Error {
        let id: String
    }
}

import Foundation
import GameWorld
import ParleyEngine
import ParleyJSON
import SaveGames

extension SaveFile {
    /// The turn recordings the save keeps, decoded, oldest first.
    ///
    /// - Parameter npc: Only this NPC's recordings (the others are not decoded); every NPC's when `nil`.
    /// - Returns: The recordings.
    /// - Throws: ``SaveGames/SaveGameError`` with code `corrupt` naming the save and the recording that does not
    ///   decode (its JSON is not a turn recording), or when the file cannot be read.
    public func turnRecordings(npc: NPCID? = nil) throws -> [TurnRecording] {
        try recordings(npc: npc).map { saved in
            do {
                return try TurnRecording(jsonValue: try JSONValue(parsing: saved.json))
            } catch {
                throw SaveGameError(
                    .corrupt, path: url.path, detail: "the recording \(saved.id) does not decode: \(error)",
                    underlyingError: error)
            }
        }
    }
}

extension TurnRecording {
    /// Reads the recordings of an export (`parley recordings export`): a JSON array of recordings.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The file's path, for errors.
    /// - Returns: The recordings, in the file's order.
    /// - Throws: ``RecordingFileError`` naming the file and, for a recording that does not decode, its position
    ///   and id.
    public static func recordings(exported data: Data, file: String) throws -> [TurnRecording] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(data))
        } catch {
            throw RecordingFileError(file: file, detail: "it is not JSON (\(error))")
        }
        guard let array = json.arrayValue else {
            throw RecordingFileError(file: file, detail: "it holds a JSON \(json.typeName), not an array of recordings")
        }
        return try array.enumerated().map { index, value in
            do {
                return try TurnRecording(jsonValue: value)
            } catch {
                let id = value["id"]?.stringValue.map { " (\($0))" } ?? ""
                throw RecordingFileError(file: file, detail: "recording \(index + 1)\(id) does not decode: \(error)")
            }
        }
    }
}

/// A recordings file (`parley recordings export`'s output) that cannot be read.
public struct RecordingFileError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong with it.
    public var detail: String

    /// What is wrong, and what to do.
    public var description: String {
        "\(file) is not a recordings file Parley can read: \(detail). Export the recordings again with "
            + "'parley recordings export SLOT --out FILE'."
    }
}

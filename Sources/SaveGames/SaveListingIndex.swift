import Foundation
import GameWorld
import ParleyJSON

#if canImport(Glibc)
import Glibc
#endif

/// What listings keep of each save of a folder, in `.parley-index.json` beside the saves: its fingerprint and its
/// metadata (or that it holds no game), so that ``SaveGameStore/list()``, a new game's choice of a free autosave
/// slot and `--keep-autosaves` open only the saves that changed since they were last read.
///
/// It is a cache, never the truth: a save whose fingerprint differs from the index's (written since, replaced,
/// restored from a backup) is read again, one the index does not know is read, and an index that is missing,
/// damaged or of another version is ignored and written anew. It is written whole to a temporary file and renamed
/// over the old one, so a reader sees the old index or the new one; two processes writing it at once lose only each
/// other's additions, which the next listing reads again. Files that cannot be read are never kept in it.
struct SaveListingIndex {
    /// The index's file name in the save folder.
    static let fileName = ".parley-index.json"
    /// The index format's version: another version is ignored.
    static let version = 1

    /// What the index keeps of one save.
    struct Entry: Equatable {
        var fingerprint: SaveFingerprint
        /// The save's metadata, or `nil` for a file with no game in it.
        var metadata: SaveMetadata?
    }

    /// The entries, by slot.
    var entries: [String: Entry] = [:]
    /// Whether the entries changed since the index was read.
    var changed = false

    /// The index of a folder, empty when there is none or it cannot be read.
    static func read(in folder: URL) -> SaveListingIndex {
        var index = SaveListingIndex()
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(fileName).path),
            let json = try? JSONValue(parsing: Array(data)), json["version"]?.intValue == version,
            let slots = json["slots"]?.objectValue
        else { return index }
        for (slot, value) in slots {
            let file = (value["file"]?.arrayValue ?? []).compactMap { $0.intValue.map(Int64.init) }
            let log = (value["log"]?.arrayValue ?? []).compactMap { $0.intValue.map(Int64.init) }
            guard file.count == 3, log.count == 0 || log.count == 2 else { continue }
            let fingerprint = SaveFingerprint(file: file, log: log)
            if value["metadata"] == .null {
                index.entries[slot] = Entry(fingerprint: fingerprint, metadata: nil)
            } else if let metadata = value["metadata"].flatMap(Self.metadata(from:)) {
                index.entries[slot] = Entry(fingerprint: fingerprint, metadata: metadata)
            }
        }
        return index
    }

    /// Writes the index, when it changed, to a temporary file renamed over the old one; a folder that cannot be
    /// written keeps the old index (or none).
    func writeIfChanged(in folder: URL) {
        guard changed else { return }
        var slots = JSONObject()
        for (slot, entry) in entries.sorted(by: { $0.key < $1.key }) {
            slots[slot] = [
                "file": .array(entry.fingerprint.file.map { .integer($0) }),
                "log": .array(entry.fingerprint.log.map { .integer($0) }),
                "metadata": entry.metadata.map(Self.json(of:)) ?? .null,
            ]
        }
        let json: JSONValue = ["version": .integer(Int64(Self.version)), "slots": .object(slots)]
        let target = folder.appendingPathComponent(Self.fileName)
        let temporary = folder.appendingPathComponent(
            "\(Self.fileName).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        do {
            try Data(json.jsonString().utf8).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// A slot's entry, when its file's fingerprint is still the one kept.
    func entry(_ slot: String, fingerprint: SaveFingerprint?) -> Entry? {
        guard let fingerprint, let entry = entries[slot], entry.fingerprint == fingerprint else { return nil }
        return entry
    }

    /// Keeps what was read of a slot: its metadata when it was read without an error and its file did not change
    /// while it was read; otherwise forgets the slot.
    mutating func keep(_ summary: SaveSlotSummary, before: SaveFingerprint?) {
        let after = SaveFingerprint(of: summary.url)
        if summary.error == nil, let before, before == after {
            let entry = Entry(fingerprint: before, metadata: summary.metadata)
            if entries[summary.slot] != entry {
                entries[summary.slot] = entry
                changed = true
            }
        } else if entries.removeValue(forKey: summary.slot) != nil {
            changed = true
        }
    }

    /// Forgets the slots that are not in `slots` (deleted since).
    mutating func keepOnly(_ slots: Set<String>) {
        for slot in entries.keys where !slots.contains(slot) {
            entries[slot] = nil
            changed = true
        }
    }

    // MARK: - Metadata as JSON

    static func json(of metadata: SaveMetadata) -> JSONValue {
        var object = JSONObject()
        object["schemaVersion"] = .integer(Int64(metadata.schemaVersion))
        object["parleyVersion"] = .string(metadata.parleyVersion)
        object["createdAt"] = .string(SaveCoding.text(metadata.createdAt))
        object["updatedAt"] = .string(SaveCoding.text(metadata.updatedAt))
        object["playTime"] = .string(SaveCoding.text(metadata.playTime))
        object["label"] = .string(metadata.label)
        object["worldID"] = .string(metadata.worldID)
        object["worldTitle"] = .string(metadata.worldTitle)
        object["contentHash"] = .string(metadata.contentHash.description)
        object["playerName"] = .string(metadata.playerName)
        object["locationName"] = .string(metadata.locationName)
        object["talkingTo"] = metadata.talkingTo.map { .string($0.rawValue) } ?? .null
        return .object(object)
    }

    static func metadata(from json: JSONValue) -> SaveMetadata? {
        guard let schemaVersion = json["schemaVersion"]?.intValue,
            let parleyVersion = json["parleyVersion"]?.stringValue,
            let createdAt = json["createdAt"]?.stringValue.flatMap(SaveCoding.date),
            let updatedAt = json["updatedAt"]?.stringValue.flatMap(SaveCoding.date),
            let playTime = json["playTime"]?.stringValue.flatMap(SaveCoding.duration),
            let label = json["label"]?.stringValue, let worldID = json["worldID"]?.stringValue,
            let worldTitle = json["worldTitle"]?.stringValue,
            let contentHash = json["contentHash"]?.stringValue.flatMap(ContentHash.init(hex:)),
            let playerName = json["playerName"]?.stringValue, let locationName = json["locationName"]?.stringValue
        else { return nil }
        return SaveMetadata(
            schemaVersion: schemaVersion, parleyVersion: parleyVersion, createdAt: createdAt, updatedAt: updatedAt,
            playTime: playTime, label: label, worldID: worldID, worldTitle: worldTitle, contentHash: contentHash,
            playerName: playerName, locationName: locationName,
            talkingTo: json["talkingTo"]?.stringValue.map { NPCID($0) })
    }
}

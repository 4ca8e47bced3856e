import Foundation
import GameWorld
import ParleySQLite

extension SaveFile {
    /// The tables that hold attachments.
    enum AttachmentTable: String {
        case feedback
        case recordings
    }

    /// Adds a feedback attachment (the JSON `logFeedbackAttachment` returns), in its own transaction.
    ///
    /// - Parameters:
    ///   - id: The attachment's id, unique among feedback.
    ///   - npc: The NPC it concerns, if any.
    ///   - createdAt: When it was made; now by default.
    ///   - json: Its JSON text.
    /// - Throws: ``SaveGameError``. Adding an id that is already there keeps the first attachment and is not an
    ///   error, so the same report can be written to several saves.
    public func addFeedback(id: String, npc: NPCID?, createdAt: Date? = nil, json: String) throws {
        try add(SavedAttachment(id: id, npc: npc, createdAt: createdAt ?? now(), json: json), to: .feedback)
    }

    /// The feedback attachments, oldest first.
    ///
    /// - Parameter npc: Only those about this NPC; all by default.
    /// - Returns: The attachments.
    /// - Throws: ``SaveGameError`` when the file cannot be read.
    public func feedback(npc: NPCID? = nil) throws -> [SavedAttachment] {
        try attachments(in: .feedback, npc: npc)
    }

    /// Adds a recording of a conversation, in its own transaction.
    ///
    /// - Parameters:
    ///   - id: The recording's id, unique among recordings.
    ///   - npc: The NPC it concerns, if any.
    ///   - createdAt: When it was made; now by default.
    ///   - json: Its JSON text.
    /// - Throws: ``SaveGameError``. Adding an id that is already there keeps the first recording.
    public func addRecording(id: String, npc: NPCID?, createdAt: Date? = nil, json: String) throws {
        try add(SavedAttachment(id: id, npc: npc, createdAt: createdAt ?? now(), json: json), to: .recordings)
    }

    /// The recordings, oldest first.
    ///
    /// - Parameter npc: Only those about this NPC; all by default.
    /// - Returns: The recordings.
    /// - Throws: ``SaveGameError`` when the file cannot be read.
    public func recordings(npc: NPCID? = nil) throws -> [SavedAttachment] {
        try attachments(in: .recordings, npc: npc)
    }

    // MARK: - Helpers

    private func add(_ attachment: SavedAttachment, to table: AttachmentTable) throws {
        try writing { writer in try writer.insertAttachments([attachment], into: table) }
    }

    func attachments(in table: AttachmentTable, npc: NPCID?) throws -> [SavedAttachment] {
        let path = url.path
        let (rows, parts) = try reading { db in
            let filter = npc == nil ? "" : " WHERE npc = ?"
            let arguments: StatementArguments = npc.map { [$0.rawValue] } ?? []
            let rows = try db.query(
                "SELECT id, npc, created_at, json FROM \(table.rawValue)\(filter) ORDER BY created_at, rowid", arguments
            )
            var parts: [String: String] = [:]
            if table == .recordings {
                for row in try db.query("SELECT id, json FROM recording_parts") { parts[try row.get(0)] = try row.get(1) }
            }
            return (rows, parts)
        }
        do {
            return try rows.map { row in
                var attachment = try attachment(from: row, in: table, path: path)
                guard table == .recordings else { return attachment }
                do {
                    attachment.json = try RecordingParts.join(attachment.json, parts: parts)
                } catch let missing as RecordingParts.MissingPart {
                    throw SaveGameError(
                        .corrupt, path: path,
                        detail: "the recording \(attachment.id) refers to the part \(missing.id), which the save does "
                            + "not hold")
                }
                return attachment
            }
        } catch let error as SQLiteError {
            // A value of the wrong type where a string belongs (found by `parley-bench fuzz`): the save is damaged.
            throw SaveGameError(
                .corrupt, path: path, detail: "\(table.rawValue): \(error.message)", underlyingError: error)
        }
    }

    /// One row of an attachment table.
    private func attachment(from row: Row, in table: AttachmentTable, path: String) throws -> SavedAttachment {
        let created: String = try row.get(2)
        guard let date = SaveCoding.date(created) else {
            throw SaveGameError(
                .corrupt, path: path,
                detail: "\(table.rawValue) row \(try row.get(0, as: String.self)) has the time \"\(created)\"")
        }
        return SavedAttachment(
            id: try row.get(0), npc: try row.get(1, as: String?.self).map { NPCID($0) }, createdAt: date,
            json: try row.get(3))
    }
}

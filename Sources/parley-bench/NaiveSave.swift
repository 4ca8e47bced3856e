import Foundation
import GameWorld
import LanguageModels

/// The baseline autosaves are compared with: encode the whole game (the state with its world, every conversation)
/// to one JSON document and rewrite the file, atomically (a temporary file, then `rename`).
///
/// It is given every advantage a careful naive save would have: conversations are written with Parley's own JSON
/// writer (faster than `JSONEncoder`), and the state with `JSONEncoder`. `durable` adds the `fsync` that makes the
/// new file survive a power cut, which SQLite's `synchronous = FULL` gives the real autosave.
enum NaiveSave {
    /// Writes the document and returns its size in bytes.
    ///
    /// - Parameters:
    ///   - state: The game state, world included.
    ///   - conversations: Every conversation.
    ///   - url: The file to replace.
    ///   - durable: Whether to `fsync` the file before renaming it into place.
    /// - Returns: The document's size.
    /// - Throws: Encoding and file errors.
    @discardableResult
    static func write(
        state: GameState, conversations: [NPCID: AnnotatedTranscript], to url: URL, durable: Bool
    ) throws -> Int {
        var document = Data(#"{"state":"#.utf8)
        document.append(try JSONEncoder().encode(state))
        document.append(contentsOf: Array(#","conversations":{"#.utf8))
        var first = true
        for (npc, conversation) in conversations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if !first { document.append(UInt8(ascii: ",")) }
            first = false
            document.append(contentsOf: Array("\"\(npc.rawValue)\":".utf8))
            document.append(contentsOf: Array(conversation.jsonString().utf8))
        }
        document.append(contentsOf: Array("}}".utf8))
        let temporary = url.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: document) else {
            throw BenchError("cannot write \(temporary.path)")
        }
        if durable {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
        }
        guard rename(temporary.path, url.path) == 0 else { throw BenchError("cannot rename to \(url.path)") }
        return document.count
    }
}

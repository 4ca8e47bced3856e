import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyJSON
import SaveGames

/// A save of one long conversation with Mira, written directly (playing 1,000 turns would take minutes): each turn a
/// prompt and a reply, with its game context and a recording of its token counts, as a game saves them.
enum LongConversationSave {
    /// Writes the save to `slot` in `folder`.
    ///
    /// - Parameters:
    ///   - turns: How many turns.
    ///   - slot: The slot.
    ///   - folder: The save folder.
    static func write(turns: Int, slot: String, in folder: URL) throws {
        let pack = try InspectorFixture.pack()
        let state = pack.initialState
        let before = DynamicState(state)
        var entries: [Transcript.Entry] = [
            .instructions(.init(segments: [.text(.init(content: "You are Mira, a merchant."))], toolDefinitions: []))
        ]
        var turnAnnotations: [String: [String: String]] = [:]
        var recordings: [SavedAttachment] = []
        for number in 1...turns {
            let prompt = Transcript.Prompt(
                id: "prompt-\(number)", segments: [.text(.init(content: "How is the market, turn \(number)?"))])
            let response = Transcript.Response(
                id: "response-\(number)", assetIDs: ["scripted@1"],
                segments: [.text(.init(content: "Busy as ever, friend (turn \(number))."))])
            entries += [.prompt(prompt), .response(response)]
            turnAnnotations[prompt.id] = ["player": "Ada", "gold": "40", "location": "Market Square"]
            let recording = TurnRecording(
                id: "recording-\(number)", npc: "mira", instructions: nil, input: .prompt(prompt), context: [:],
                stateBefore: before, entries: [.response(response)], modelID: "scripted", modelVersion: "1",
                usage: GenerationUsage(promptTokens: 100 + number, completionTokens: 12), totalMilliseconds: 5)
            recordings.append(
                SavedAttachment(
                    id: recording.id, npc: "mira", createdAt: Date(), json: recording.jsonValue.jsonString()))
        }
        let conversation = AnnotatedTranscript(
            transcript: Transcript(entries: entries),
            annotations: ["npc": "mira", "npc.name": "Mira Quickcoin", "model.id": "scripted", "model.version": "1"],
            turnAnnotations: turnAnnotations)
        var snapshot = SaveSnapshot(state: state, conversations: ["mira": conversation], label: "long")
        snapshot.recordings = recordings
        let file = try SaveGameStore(folder: folder).open(slot: slot)
        defer { file.close() }
        try file.writeFull(snapshot)
    }
}

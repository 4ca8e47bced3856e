import Foundation
import GameWorld
import LanguageModels

/// Transcripts of realistic shape for the benchmarks: instructions, then turns of a prompt, sometimes a tool call
/// and its structured output, and a response, as NPC conversations have.
enum SyntheticTranscript {
    /// A conversation of exactly `entries` entries (at least 1: the instructions).
    ///
    /// - Parameters:
    ///   - entries: The number of entries.
    ///   - speaker: The NPC's name, in the instructions and the replies.
    /// - Returns: The transcript.
    static func make(entries: Int, speaker: String = "Mira") -> Transcript {
        var result = [instructions(speaker: speaker)]
        var turn = 0
        while result.count < entries {
            turn += 1
            result += self.turn(turn, speaker: speaker)
        }
        return Transcript(entries: result.prefix(entries))
    }

    /// A conversation of `turns` turns after the instructions.
    ///
    /// - Parameters:
    ///   - turns: The number of turns.
    ///   - speaker: The NPC's name.
    /// - Returns: The transcript.
    static func make(turns: Int, speaker: String) -> Transcript {
        var result = [instructions(speaker: speaker)]
        for number in 0..<turns { result += turn(number + 1, speaker: speaker) }
        return Transcript(entries: result)
    }

    /// The instructions entry: a persona of about 130 words.
    static func instructions(speaker: String) -> Transcript.Entry {
        .instructions(
            .init(
                segments: [
                    .text(
                        .init(
                            content: "You are \(speaker), a merchant in the market town of Brackenford. "
                                + String(repeating: "You are cheerful, shrewd and honest about prices. ", count: 16)))
                ],
                toolDefinitions: []))
    }

    /// The entries of turn `number`: a prompt, on every third turn a tool call and its output, and a response.
    static func turn(_ number: Int, speaker: String) -> [Transcript.Entry] {
        var entries: [Transcript.Entry] = [
            .prompt(.init(segments: [.text(.init(content: "How much is the lantern today, friend? (turn \(number))"))]))
        ]
        if number % 3 == 0 {
            let call = Transcript.ToolCall(
                id: "call-\(number)-\(UUID().uuidString.prefix(8))", toolName: NPCTool.lookUpStock.rawValue,
                arguments: GeneratedContent(properties: ["item": "lantern"]))
            entries.append(.toolCalls(.init([call])))
            entries.append(
                .toolOutput(
                    .init(
                        id: call.id, toolName: NPCTool.lookUpStock.rawValue,
                        segments: [
                            .structure(
                                .init(
                                    source: NPCTool.lookUpStock.rawValue,
                                    content: GeneratedContent(properties: [
                                        "items": [GeneratedContent(properties: ["item": "lantern", "price": 25])]
                                    ])))
                        ])))
        }
        entries.append(
            .response(
                .init(
                    assetIDs: ["scripted@1"],
                    segments: [
                        .text(
                            .init(
                                content: "The lantern's 25 gold, friend, and worth every coin. Anything else, "
                                    + "said \(speaker)? (\(number))"))
                    ])))
        return entries
    }
}

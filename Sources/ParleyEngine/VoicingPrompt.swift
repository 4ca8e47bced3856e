import GameWorld
import LanguageModels

/// What a language model is given to voice a planned line (grounded voicing): who the NPC is and the rules, two
/// worked examples, then the recent conversation, the player's words, the planned line and its facts.
///
/// ```
/// system:    You are Mira Quickcoin in Brackenford Market. <persona>
///            Rewrite the reply in Mira Quickcoin's voice, in one to three short sentences. Use every fact listed,
///            exactly as written. Add no other facts: no items, prices, places, people or promises. …
/// user:      Player: do you have rope?  /  Reply: The Coil of Rope is 8 gold.  /  Facts: Coil of Rope, 8 gold
/// assistant: Rope? Aye, friend, the Coil of Rope is 8 gold.
/// …
/// user:      Earlier, Player: hello  /  Earlier, Mira Quickcoin: Hello, friend!  /  Player: how much is the
///            lantern?  /  Reply: For you, friend, the Brass Lantern is 25 gold.  /  Facts: Brass Lantern, 25 gold
/// ```
///
/// A small model copies the listed facts far more faithfully than it keeps them from a sentence (SmolLM2-135M
/// drops the price of most lines otherwise), so the planned line's facts are listed as written. The instructions
/// and the examples depend only on the NPC and the world, so the server's prompt cache keeps them from one turn to
/// the next. The examples name no item of any world beyond a rope and lamps, so a model that copies them is caught
/// by the check (`VoicedLineCheck`), not believed.
struct VoicingPrompt {
    /// The transcript the voice's session starts from: instructions, then the worked examples.
    let transcript: Transcript
    /// The last message: the conversation so far, the player's words, the planned line and its facts.
    let prompt: String
    /// The words the voiced line may use besides the planned line and the player's: the persona and the recent
    /// conversation (for `VoicedLineCheck`).
    let sources: String

    /// Builds the prompt for one line.
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - world: The world.
    ///   - planned: The planned line.
    ///   - facts: The planned line's facts, as written (`VoicedLineCheck.facts(in:)`).
    ///   - playerLine: What the player said this turn.
    ///   - recent: Earlier lines of the conversation, oldest first, as (speaker, line); the player's speaker is
    ///     written `Player`.
    ///   - sentenceBudget: The most sentences of the line.
    init(
        npc: NPC, world: World, planned: String, facts: [String], playerLine: String,
        recent: [(speaker: String, line: String)], sentenceBudget: Int
    ) {
        let most = sentenceBudget == 1 ? "one short sentence" : "one to \(Self.spelled(sentenceBudget)) short sentences"
        let rules = [
            "You are \(npc.name) in \(world.title). \(npc.persona)",
            "Rewrite the reply in \(npc.name)'s voice, in \(most). Use every fact listed, exactly as written. Add no "
                + "other facts: no items, prices, places, people or promises. Keep its yes or no. Answer with the "
                + "line only.",
        ]
        let instructions = Transcript.Entry.instructions(
            .init(
                id: "voice-instructions", segments: [.text(.init(content: rules.joined(separator: "\n")))],
                toolDefinitions: []))
        let examples: [(String, String)] = [
            (
                "Player: do you have rope?\nReply: The Coil of Rope is 8 gold.\nFacts: Coil of Rope, 8 gold",
                "Rope? Aye, friend, the Coil of Rope is 8 gold."
            ),
            ("Player: any lamps?\nReply: I don't sell lamps.\nFacts: no", "Lamps? No, I'm afraid I don't sell those."),
        ]
        var entries = [instructions]
        for (index, (asked, answered)) in examples.enumerated() {
            entries.append(.prompt(.init(id: "voice-example-\(index)", segments: [.text(.init(content: asked))])))
            entries.append(
                .response(.init(id: "voice-example-\(index)-answer", segments: [.text(.init(content: answered))])))
        }
        transcript = Transcript(entries: entries)
        var lines: [String] = []
        for (speaker, line) in recent { lines.append("Earlier, \(speaker): \(line)") }
        if !playerLine.isEmpty { lines.append("Player: \(playerLine)") }
        lines.append("Reply: \(planned)")
        lines.append("Facts: " + (facts.isEmpty ? "none" : facts.joined(separator: ", ")))
        prompt = lines.joined(separator: "\n")
        sources = ([npc.persona, npc.description, world.title] + recent.map(\.line)).joined(separator: " ")
    }

    /// Small numbers as words, for the instructions.
    static func spelled(_ number: Int) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six"]
        return words.indices.contains(number) ? words[number] : "\(number)"
    }
}

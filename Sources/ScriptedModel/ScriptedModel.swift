import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyJSON
import Synchronization

/// The embedded default model: it plays one NPC from the dialogue rules in the NPC's content, deterministically,
/// with no server and no download.
///
/// ```swift
/// let pack = try ContentPack.load(from: URL(fileURLWithPath: "Content")).get()  // import ContentPacks
/// let mira = pack.world.npcs["mira"]!
/// let session = LanguageModelSession(
///     model: ScriptedModel(npc: mira, world: pack.world, seed: 7), tools: npcTools, instructions: persona)
/// try await session.respond(to: "How much is the lantern?")   // "The Brass Lantern? 25 gold, friend, ..."
/// ```
///
/// Each request, it reads the transcript through the engine's contract (`NPCContract`): this turn's prompt (the
/// player's words, or a `WitnessedEvent` such as the player giving an item), the tool calls and outputs of this turn
/// so far (`NPCToolCall`, `NPCToolOutput`), and what the conversation before established (whether it already spoke,
/// the player's name and belongings from the `GameContext` in the instructions and from `inspectPlayer`, prices
/// quoted, the item last talked about, the pending offer). What came before the turn is remembered from the last
/// request (`ConversationMemory`), so only the entries added since are read, and a turn costs the same at the
/// 5,000th entry as at the 10th; a transcript that no longer starts as it did (a trim, another game) is read from
/// its first entry. It finds
/// the line's intent, takes the first of the NPC's rules that fits (then its own plain built-in rules), and either
/// asks for the tool calls of the rule's flow or answers with one of the rule's reply variants, its placeholders
/// filled. How rules are written and chosen is documented in `docs/modding.md` ("Dialogue").
///
/// - **Determinism.** The same transcript, tools and seed give the same output. The variant is chosen by
///   `VariantChooser`'s hash of the seed, the NPC, the rule and the number of responses so far; tool call ids are
///   `scripted-<transcript length>-<n>`.
/// - **Conditions.** A rule with a condition (`"if"` in its `when`) answers only when the condition holds in the
///   game the request carries (`request.context.conditions`, see `TurnConditions`); without one, such rules never
///   answer. From that game it also reads the NPC as it is now (its stock, gold and place change in play), so a model
///   made after a restore answers as the one made at first contact would; without it, the NPC as it was when the
///   model was made. It keeps nothing of the game between requests.
/// - **Effects.** The model does not run a rule's `effects`: changing the game is the engine's job. It records the
///   rule that answered in the response entry's `assetIDs` (`AnsweringRule`, after `scripted@<version>`), then the
///   outcome its reply answered (`AnsweringOutcome`: `outcome:clarify` marks a clarifying question), and the engine
///   runs that rule's effects once the turn is in the transcript.
/// - **Tools.** It only calls tools the request offers, and only the NPC tools (`NPCTool`); an NPC whose policy
///   says it does not trade never calls the trade tools.
/// - **Streaming.** `streamGeneration(_:)` delivers the text word by word (each chunk a word and the spaces
///   after it), like a server; the chunks joined are the whole reply.
/// - **Guided generation.** With a schema, it fills the schema from its reply (strings get the reply text,
///   numbers the price or quantity in play, ...) and checks it; a schema it cannot satisfy that way fails with
///   `LanguageModelError.unsupportedCapability`.
/// - **Tokens.** Each entry costs 4 tokens plus one token per 4 UTF-8 bytes (rounded up) of each segment's text
///   (structured segments: their compact JSON); tool definitions one per 4 bytes of name, description and
///   parameters' JSON; tool calls one per 4 bytes of name and arguments' JSON; a schema one per 4 bytes of its
///   JSON. It is the rule `MockLanguageModel` uses, so tests can reason about the context window.
public final class ScriptedModel: LanguageModel {
    /// The version of the dialogue format and of the model's behaviour; part of `version`.
    public static let formatVersion = 1

    /// The model's own plain rules, tried after the NPC's (ids `builtin_…`): what an answering rule recorded as
    /// `built-in-rule:<id>` refers to, for readers of transcripts such as `parley eval`, which checks the intents
    /// the rule answers.
    public static var builtInRules: DialogueRules { BuiltInDialogue.rules }

    /// The model's own plain rules with a lexicon's lines (`Lexicon.lines`): the rules an NPC speaking that lexicon
    /// answers with after its own. Their ids and intents are those of `builtInRules`.
    ///
    /// - Parameter lexicon: The NPC's lexicon.
    /// - Returns: The rules.
    public static func builtInRules(in lexicon: Lexicon) -> DialogueRules { BuiltInDialogue.rules(for: lexicon) }

    /// `scripted`.
    public let id = "scripted"
    /// `<formatVersion>.<hash>`: the format version and 8 hex digits of the hash of the NPC's dialogue rules and
    /// the built-in rules, so recordings and replays notice when the rules change.
    public let version: String
    /// The context window in tokens (32,768 unless set).
    public let contextSize: Int
    /// The context window, known without waiting.
    public var knownContextSize: Int? { contextSize }
    /// The NPC the model plays.
    public let npc: NPC
    /// The world it lives in: the item catalog and names.
    public let world: World
    /// The seed of the choice of reply variants.
    public let seed: UInt64
    /// Entries already counted, by id, with their count: a conversation's entries are counted again before every
    /// request, and counting structured content means encoding it. A hit needs the same id and an equal entry.
    private let counted = Mutex<[String: (entry: Transcript.Entry, tokens: Int)]>([:])
    /// Past this many remembered entries the memory starts again (a bound for very long games).
    static let countedLimit = 100_000
    /// The token counts of transcripts' first entries, so counting a conversation before each request counts only
    /// the entries added since the last count.
    private let prefixCounts = Mutex(PrefixCheckpoints<Int>())
    /// What earlier requests read of the conversation, so a request reads only the entries added since.
    let memory = ConversationMemory()
    /// The scenes of the latest requests, so the rounds of a turn read the player's line once.
    let readings = SceneReadings()

    private let resolver: ItemResolver
    private let rules: [Candidate]
    /// The built-in rules in the NPC's language.
    private let builtIn: DialogueRules

    /// A rule the model may answer with: the rule, the set it belongs to (for the set's synonyms), and where it is
    /// written (for the response's asset id).
    private struct Candidate {
        var rule: DialogueRule
        var set: DialogueRules
        var source: AnsweringRule.Source
    }

    /// A model playing an NPC.
    ///
    /// - Parameters:
    ///   - npc: The NPC, with its dialogue rules (`NPC.dialogue`); an NPC without rules speaks plain built-in
    ///     lines.
    ///   - world: The world, for the item catalog and names. The model reads and speaks the NPC's lexicon
    ///     (`World.lexicon(for:)`): its phrases, built-in lines and texts.
    ///   - seed: Chooses among reply variants; the same seed gives the same replies.
    ///   - contextSize: The context window in tokens.
    public init(npc: NPC, world: World, seed: UInt64 = 0, contextSize: Int = 32_768) {
        self.npc = npc
        // An NPC speaking another language than the pack's reads and speaks with its own lexicon.
        let lexicon = world.lexicon(speaking: npc.language)
        var spoken = world
        if lexicon != world.lexicon { spoken.lexicon = lexicon }
        self.world = spoken
        self.seed = seed
        self.contextSize = contextSize
        resolver = ItemResolver.shared(for: spoken)
        let builtIn = lexicon == .english ? BuiltInDialogue.rules : BuiltInDialogue.rules(for: lexicon)
        self.builtIn = builtIn
        rules =
            npc.dialogue.rules.map { Candidate(rule: $0, set: npc.dialogue, source: .npc(npc.id)) }
            + builtIn.rules.map { Candidate(rule: $0, set: builtIn, source: .builtIn) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var hash = ContentHash.empty.adding("scripted \(Self.formatVersion)")
        for set in [npc.dialogue, builtIn] {
            hash = hash.adding((try? encoder.encode(set)).map { Array($0) } ?? []).adding([0])
        }
        version = "\(Self.formatVersion).\(hash.hex.prefix(8))"
    }

    /// A model playing the NPC with this id in a world.
    ///
    /// - Parameters:
    ///   - npcID: The NPC's id.
    ///   - world: The world that has the NPC.
    ///   - seed: Chooses among reply variants.
    /// - Returns: `nil` when the world has no such NPC.
    public convenience init?(npcID: NPCID, world: World, seed: UInt64 = 0) {
        guard let npc = world.npcs[npcID] else { return nil }
        self.init(npc: npc, world: world, seed: seed)
    }

    // MARK: - LanguageModel

    /// Tool calling, guided generation, reading the game from the turn's context (for rules' conditions), all in
    /// this process.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.toolCalling, .guidedGeneration, .contextValues, .inProcess])
    }

    /// `false`: the model answers only from the NPC's dialogue rules, so it cannot write, say, a summary of a
    /// conversation. Callers that need one make it themselves.
    public var writesFreeText: Bool { false }

    /// Counts tokens by the documented rule, continuing from the count of the longest prefix counted before (a
    /// conversation is counted again before every request, with a few entries more), and remembering each entry's
    /// count (see `tokens(in:)`).
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        // The session counts a `Transcript`; other collections are read into an array once.
        if let transcript = entries as? Transcript { return count(transcript) }
        if let slice = entries as? ArraySlice<Transcript.Entry> { return count(slice) }
        return count(Array(entries))
    }

    /// Counts entries. A conversation is counted before every request, each time with a few more entries: the count
    /// continues from that of the longest prefix counted before (see `PrefixCheckpoints`), and this count is
    /// remembered, with the count before its last prompt (where the next turn's transcript may part from this one's).
    private func count<Entries: RandomAccessCollection<Transcript.Entry>>(_ entries: Entries) -> Int
    where Entries.Index == Int {
        let promptOffset = entries.lastIndex { if case .prompt = $0 { true } else { false } }
            .map { $0 - entries.startIndex }
        let start = prefixCounts.withLock { $0.longest(in: entries, upTo: entries.count) }
        let (total, beforePrompt) = counted.withLock { counted in
            if counted.count > Self.countedLimit { counted.removeAll(keepingCapacity: true) }
            var total = start?.value ?? 0
            var beforePrompt: Int?
            for offset in (start?.count ?? 0)..<entries.count {
                if offset == promptOffset { beforePrompt = total }
                let entry = entries[entries.startIndex + offset]
                if let hit = counted[entry.id], hit.entry == entry {
                    total += hit.tokens
                } else {
                    let tokens = Self.tokens(in: entry)
                    counted[entry.id] = (entry, tokens)
                    total += tokens
                }
            }
            return (total, beforePrompt)
        }
        prefixCounts.withLock { checkpoints in
            if let beforePrompt, let promptOffset {
                checkpoints.remember(beforePrompt, covering: promptOffset, of: entries)
            }
            if start?.count != entries.count { checkpoints.remember(total, covering: entries.count, of: entries) }
        }
        return total
    }

    /// One token per 4 bytes of the schema's JSON (`TokenEstimate`).
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        TokenEstimate.tokens(in: schema)
    }

    /// The next step of the turn: the tool calls of the answering rule's flow, or its reply.
    ///
    /// - Parameter request: The conversation so far, the tools, and the schema if any.
    /// - Returns: Tool calls, text, or (with a schema) structured content, with usage by the token rule.
    /// - Throws: `LanguageModelError.unsupportedCapability` when a schema cannot be filled from the reply.
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        let (output, answered) = try output(for: request)
        let completion: Int
        switch output {
        case .text(let text): completion = Self.tokens(inText: text)
        case .structure(let content): completion = Self.tokens(inText: content.jsonString)
        case .toolCalls(let calls):
            completion = calls.reduce(0) { $0 + Self.tokens(inText: $1.toolName + $1.arguments.jsonString) }
        }
        let prompt = try await tokenCount(for: request)
        return Generation(
            output: output, usage: GenerationUsage(promptTokens: prompt, completionTokens: completion),
            assetIDs: answered)
    }

    /// Streams the next step: the text word by word, or the tool calls at once, then usage.
    ///
    /// - Parameter request: The conversation so far, the tools, and the schema if any.
    /// - Returns: The updates; cancelling the consumer stops the stream.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let generation = try await self.generate(request)
                    switch generation.output {
                    case .toolCalls(let calls): continuation.yield(.toolCalls(calls))
                    case .text(let text):
                        for chunk in Self.chunks(of: text) {
                            try Task.checkCancellation()
                            continuation.yield(.text(chunk))
                        }
                    case .structure(let content):
                        for chunk in Self.chunks(of: content.jsonString) {
                            try Task.checkCancellation()
                            continuation.yield(.text(chunk))
                        }
                    }
                    if !generation.assetIDs.isEmpty { continuation.yield(.assetIDs(generation.assetIDs)) }
                    if let usage = generation.usage { continuation.yield(.usage(usage)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: - Token rule

    /// An entry's token cost by the shared rule, `TokenEstimate.tokens(in:)`.
    ///
    /// - Parameter entry: The entry.
    /// - Returns: 4 plus the cost of its segments, tool definitions or tool calls.
    public static func tokens(in entry: Transcript.Entry) -> Int { TokenEstimate.tokens(in: entry) }

    /// One token per 4 UTF-8 bytes, rounded up (`TokenEstimate.tokens(inText:)`).
    ///
    /// - Parameter text: The text.
    /// - Returns: The cost.
    public static func tokens(inText text: String) -> Int { TokenEstimate.tokens(inText: text) }

    // MARK: - Turns

    /// Splits text into streamed chunks: each a word and the whitespace after it.
    static func chunks(of text: String) -> [String] {
        var chunks: [String] = []
        var current = ""
        var inSpace = false
        for character in text {
            if character.isWhitespace {
                inSpace = true
            } else if inSpace {
                chunks.append(current)
                current = ""
                inSpace = false
            }
            current.append(character)
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    /// The output for a request: calls, or a reply with the asset ids of the rule that answered (`AnsweringRule`)
    /// and of the outcome its reply was chosen for (`AnsweringOutcome`), if any.
    private func output(for request: GenerationRequest) throws -> (Generation.Output, [String]) {
        // The NPC and the world as the game holds them now, when the request carries the game (its stock and gold
        // change in play): a model made at first contact and one made after a restore then answer alike. Without the
        // game, as they were when the model was made.
        let world = request.context.conditions?.state.world ?? self.world
        let npc = world.npcs[self.npc.id] ?? self.npc
        var scene = Scene(
            request: request, npc: npc, world: world, resolver: resolver, memory: memory, readings: readings)
        let allowed = allowedRules(in: request.context.conditions)
        let fallback = Candidate(rule: builtIn.rules.last!, set: builtIn, source: .builtIn)
        var chosen = allowed.first { scene.matches($0.rule, in: $0.set) } ?? fallback
        // A line only an `unknown` rule took that names an item asks about it: its price, never "you've lost me".
        if chosen.rule.when.intents.contains(.unknown), let asking = scene.askingThePrice {
            scene = asking
            chosen = allowed.first { scene.matches($0.rule, in: $0.set) } ?? fallback
        }
        var planner = FlowPlanner(
            scene: scene, npc: npc, world: world, resolver: resolver, conditions: request.context.conditions)
        planner.offered = Set(request.tools.map(\.name))
        let answering = chosen.rule
        let argumentValues = ReplyValues.make(
            scene: scene, outcome: nil, facts: planner.baseFacts, rule: answering, npc: npc, world: world,
            forArguments: true)
        switch planner.plan(for: answering, values: argumentValues) {
        case .call(let calls):
            let base = request.transcript.count
            let calls = calls.enumerated().map { index, call in
                Transcript.ToolCall(
                    id: "scripted-\(base)-\(index + 1)", toolName: call.name, arguments: call.arguments)
            }
            return (.toolCalls(calls), [])
        case .say(let outcome, let facts):
            let rule =
                [AnsweringRule(source: chosen.source, id: answering.id).assetID]
                + (outcome.map { [AnsweringOutcome($0).assetID] } ?? [])
            let text: String
            if let heard = scene.conversation.unclearSpeech {
                // The line was spoken and heard too unsurely to act on, and the game refused what it would have done:
                // the NPC asks the player to say it again, naming what it heard, rather than answer words it may not
                // have been told.
                text = SpokenRefusal.line(for: .unclearSpeech(heard: heard), in: self.world)
            } else {
                let said = reply(scene: scene, outcome: outcome, facts: facts, rules: allowed, npc: npc, world: world)
                text = Self.acknowledgingName(
                    scene.nameGiven,
                    in: Self.sayingTheRest(
                        of: scene.orderedItems, in: said, offered: outcome == .pending ? facts.item : nil,
                        world: self.world),
                    lexicon: self.world.lexicon)
            }
            guard let schema = request.schema else { return (.text(text), rule) }
            let values = ReplyValues.make(
                scene: scene, outcome: outcome, facts: facts, rule: nil, npc: npc, world: world, forArguments: true)
            let hints = GuidedContent.Hints(
                text: text, item: values[.item], price: values[.price].flatMap { Int($0) },
                quantity: values[.quantity].flatMap { Int($0) }, number: scene.number, npc: npc.name,
                agrees: outcome == .pending || outcome == .accepted || outcome == .given || scene.intent == .yes)
            return (.structure(try GuidedContent.make(for: schema, hints: hints)), rule)
        }
    }

    /// The reply: from the first rule that fits and has a variant for the outcome whose placeholders can all be
    /// filled, the variant `VariantChooser` picks. Never empty: a variant that comes out blank is passed over, and
    /// with none left the last built-in rule's own words are said.
    private func reply(
        scene: Scene, outcome: DialogueOutcome?, facts: ReplyFacts, rules: [Candidate], npc: NPC, world: World
    ) -> String {
        for candidate in rules where scene.matches(candidate.rule, in: candidate.set) {
            let rule = candidate.rule
            let variants = Self.variants(of: rule, for: outcome)
            guard !variants.isEmpty else { continue }
            let values = ReplyValues.make(
                scene: scene, outcome: outcome, facts: facts, rule: rule, npc: npc, world: world)
            let templates = variants.compactMap { try? DialogueTemplate.parse($0).get() }.filter { template in
                template.placeholders.allSatisfy { values[$0] != nil }
                    && template.members.allSatisfy { ReplyValues.member($0, of: facts) != nil }
                    && Self.saysEveryReason(template, outcome: outcome, facts: facts)
            }
            guard !templates.isEmpty else { continue }
            let index = VariantChooser.index(
                count: templates.count, seed: seed, npc: npc.id, rule: rule.id,
                responses: scene.conversation.responsesBefore)
            let text = Self.tidy(
                templates[index].render({ values[$0] ?? "" }, member: { ReplyValues.member($0, of: facts) ?? "" }))
            if !text.isEmpty { return text }
        }
        return builtIn.rules.last?.replies.first ?? "Hm."
    }

    /// A reply to a line that gives the player's name ("hi, I'm Tamsin"), with the name said back first in the NPC's
    /// language (`Lexicon.Text.nameHeard`: "Tamsin, is it? Glad to know you."), unless the reply says it already (an
    /// NPC's own rule may say `{player}`, which is the name given). Every NPC acknowledges a name this way, its own
    /// introduction following; nothing is kept besides the transcript, whose line gives the name.
    ///
    /// - Parameters:
    ///   - name: The name the line gives, if any (`Scene.nameGiven`).
    ///   - text: The reply.
    ///   - lexicon: The NPC's lexicon.
    /// - Returns: The reply, acknowledging the name.
    static func acknowledgingName(_ name: String?, in text: String, lexicon: Lexicon) -> String {
        guard let name, !name.isEmpty else { return text }
        let nameWords = Words(name)
        guard !nameWords.isEmpty, !Words(text).contains(nameWords) else { return text }
        let heard = lexicon.text(.nameHeard, ["player": name]).trimmingCharacters(in: .whitespaces)
        return heard.isEmpty ? text : heard + " " + text
    }

    /// A reply making the offer for one of several things ordered at once ("a pie and an ale, please"), with the
    /// others named after it in the NPC's language (`Lexicon.Text.orderRest`: "Then the Mug of Ale after that, if you
    /// still want it."): an offer is for one thing, and the reply must not pass the rest over in silence.
    ///
    /// - Parameters:
    ///   - ordered: The things the line ordered (`Scene.orderedItems`).
    ///   - text: The reply.
    ///   - offered: The item of the offer the game made pending this step, if any.
    ///   - world: The world speaking the NPC's lexicon, for names and the text.
    /// - Returns: The reply, naming the rest when an offer was made for one of several things ordered.
    static func sayingTheRest(of ordered: [ItemID], in text: String, offered: ItemID?, world: World) -> String {
        guard ordered.count > 1, let offered, ordered.contains(offered) else { return text }
        let rest = ordered.filter { $0 != offered }.map { world.name(of: $0) }
        let then = world.lexicon.text(.orderRest, ["item": world.lexicon.list(rest)])
            .trimmingCharacters(in: .whitespaces)
        return then.isEmpty ? text : text + " " + then
    }

    /// Whether a variant says why the game refused: by `{reasons}`, or by `{lowest}` when the price was the only
    /// reason. A refusal's reasons are never left unsaid ("I can't go under 20" when the player cannot pay at all).
    static func saysEveryReason(_ template: DialogueTemplate, outcome: DialogueOutcome?, facts: ReplyFacts) -> Bool {
        guard outcome == .refused, let reasons = facts.reasons, !reasons.isEmpty else { return true }
        let placeholders = Set(template.placeholders)
        return placeholders.contains(.reasons) || (facts.refusedOnlyForPrice && placeholders.contains(.lowest))
    }

    /// The reply variants a rule has for an outcome: its list for the outcome, else its general replies; but a rule
    /// answers `clarify` only with replies written for it, since its general replies may promise an offer.
    static func variants(of rule: DialogueRule, for outcome: DialogueOutcome?) -> [String] {
        outcome == .clarify ? rule.outcomes[.clarify] ?? [] : rule.replies(for: outcome)
    }

    /// The rules whose condition (`"if"`) holds in the turn's conditions, in order; rules without one always take
    /// part. Without conditions, rules with a condition are left out.
    private func allowedRules(in conditions: ConditionContext?) -> [Candidate] {
        guard rules.contains(where: { $0.rule.when.condition != nil }) else { return rules }
        var context = conditions
        context?.npc = npc.id
        return rules.filter { entry in
            guard let condition = entry.rule.when.condition else { return true }
            guard let context else { return false }
            return condition.holds(in: context)
        }
    }

    /// Collapses runs of spaces, trims the ends, and starts with a capital letter (a reply may start with a
    /// placeholder holding the player's words).
    private static func tidy(_ text: String) -> String {
        let text = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

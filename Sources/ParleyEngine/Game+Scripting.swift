import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyJSON

// Modders' scripting at play: conditions see the game and the conversation; rule and beat effects change the game
// only through its rules; beats are said verbatim; knowledge and goals join the instructions when they hold.

extension Game {
    // MARK: - Conditions

    /// The conversation facts for an NPC, with the line about to be said counted as the topic. Reads only what
    /// was said since the last call (see `ConversationScan`).
    func conversationFacts(of npcID: NPCID, saying prompt: Prompt?) -> ConversationFacts {
        var facts = factsIndex.facts(
            of: npcID, history: conversations[npcID]?.history ?? Transcript(), saying: prompt, world: state.world)
        facts.dealings = dealings(with: npcID)
        facts.pendingOffer = pendingOffers[npcID]?.offer
        return facts
    }

    /// The trades and gifts between the player and an NPC so far, oldest first: the game state's (so a restored game
    /// remembers them as the live one did).
    func dealings(with npcID: NPCID) -> [ConversationFacts.Dealing] { state.story.dealings(with: npcID) }

    /// The conversation facts of a history read from the start (for replays, which have no game).
    package static func conversationFacts(
        history: Transcript, saying prompt: Prompt?, npc npcID: NPCID, world: World
    )
        -> ConversationFacts
    {
        let topics = TopicIndex(npc: npcID, world: world)
        var scan = ConversationScan()
        scan.advance(over: history, topics: topics)
        return scan.facts(saying: prompt, topics: topics)
    }

    /// The context conditions are evaluated in.
    func conditionContext(for npcID: NPCID, saying prompt: Prompt? = nil) -> ConditionContext {
        ConditionContext(state: state, npc: npcID, conversation: conversationFacts(of: npcID, saying: prompt))
    }

    /// What a turn gives the NPC's model besides the conversation: for a model that reads them (the scripted model),
    /// the conditions' context as it is when the player speaks, with `prompt` counted as the topic.
    func generationContext(
        for npcID: NPCID, saying prompt: Prompt, model: any LanguageModel
    ) -> GenerationContext {
        var context = GenerationContext()
        if model.capabilities.contains(.contextValues) {
            context.conditions = conditionContext(for: npcID, saying: prompt)
        }
        return context
    }

    // MARK: - Effects

    /// Runs effects for an NPC through the world's rules; offers go through the trade guard, flags set fire their
    /// beats. Refused effects change nothing.
    func run(_ effects: [Effect], for npcID: NPCID, output: (GameOutput) -> Void, depth: Int = 0) async {
        guard !effects.isEmpty else { return }
        let result = shared.update { contents -> EffectResult in
            let result = contents.game.apply(effects, npc: npcID, rules: shared.rules)
            contents.events.append(contentsOf: result.events)
            return result
        }
        await handle(result, for: npcID, output: output, depth: depth)
    }

    /// Follows up on applied effects: offers through the guard, flag beats.
    func handle(_ result: EffectResult, for npcID: NPCID, output: (GameOutput) -> Void, depth: Int) async {
        for offer in result.offers {
            let proposal = offer.proposal(in: state.world)
            if case .pending(let pending) = propose(proposal, from: npcID) {
                output(.narration(pending.summary + " (accept or decline)"))
            }
        }
        guard depth < 3 else { return }  // flags that set flags that set flags stop here
        for flag in result.flagsSet {
            // The NPC whose effect set the flag reacts first, then anyone else here.
            let candidates = [npcID] + state.npcsHere.map(\.id).filter { $0 != npcID }
            for candidate in candidates {
                if await fireBeat(.flagSet(flag), npc: candidate, witnessed: nil, output: output, depth: depth + 1) {
                    break
                }
            }
        }
    }

    /// The effects of the dialogue rules that answered a turn: the rules its response entries name (`AnsweringRule`,
    /// recorded by the model). A turn that failed has no entries, so its rules change nothing.
    func ruleEffects(of entries: [Transcript.Entry], npc npcID: NPCID) -> [Effect] {
        guard let npc = state.world.npcs[npcID] else { return [] }
        return entries.flatMap { entry -> [Effect] in
            guard case .response(let response) = entry, let rule = response.answeringRule?.rule(of: npc) else {
                return []
            }
            return rule.effects
        }
    }

    // MARK: - Beats

    /// Fires the first beat of an NPC for an event, if one fires: its line is said verbatim (instead of, or
    /// before, the model's answer to the witnessed event) and its effects run.
    ///
    /// - Parameter answered: The NPC already answered the event, in the turn where it happened (a gift accepted in
    ///   words): the beat's effects run, but its line is not said and the model is not asked.
    /// - Returns: `true` when a beat fired.
    @discardableResult
    func fireBeat(
        _ event: BeatEvent, npc npcID: NPCID, witnessed: WitnessedEvent?, output: (GameOutput) -> Void, depth: Int = 0,
        alwaysInstead: Bool = false, answered: Bool = false
    ) async -> Bool {
        guard let npc = state.world.npcs[npcID] else { return false }
        let context = conditionContext(for: npcID)
        guard let beat = npc.beats(for: event, in: context).first else { return false }
        let fired: EffectResult
        do {
            fired = try shared.update { contents throws(GameEventError) -> EffectResult in
                let result = try contents.game.fire(beat, of: npcID, rules: shared.rules)
                contents.events.append(contentsOf: result.events)
                return result
            }
        } catch {
            return false
        }
        guard !answered else {
            await handle(fired, for: npcID, output: output, depth: depth)
            return true
        }
        let occurrence = state.story.timesFired(beat.id, of: npcID) - 1
        let item: ItemID? = {
            switch event {
            case .itemGiven(let item): item
            default: nil
            }
        }()
        let line = beat.line(occurrence: occurrence, in: conditionContext(for: npcID), item: item)
        let prompt = (witnessed ?? Self.unwitnessed(event, in: state.world))
            .prompt(player: state.player.name, in: state.world)
        if let line, beat.mode == .instead || witnessed == nil || alwaysInstead {
            await say(line, to: prompt, npc: npcID, output: output)
        } else if let line {
            await speak(prompt, to: npcID, output: output, saying: line)
        } else if witnessed != nil, !alwaysInstead {
            // A beat with no lines only runs its effects; the model answers what happened as usual.
            await speak(prompt, to: npcID, output: output)
        }
        await handle(fired, for: npcID, output: output, depth: depth)
        return true
    }

    /// The event a beat answers when it fires without a witnessed event (a flag an effect set): what the NPC
    /// witnesses with the beat's event.
    static func unwitnessed(_ event: BeatEvent, in world: World) -> WitnessedEvent {
        switch event {
        case .flagSet(let flag): .flagSet(flag)
        case .arrive: .arrivedHere
        case .firstTalk: .arrived
        case .itemGiven(let item): .gave(item: item, quantity: 1)
        case .tradeAccepted(let offer): .offerAccepted(summary: offer.summary(in: world))
        case .tradeRefused(let offer): .offerDeclined(summary: offer.summary(in: world))
        }
    }

    /// Records a verbatim line as the NPC's answer to a prompt, without the model: it joins the transcript as the
    /// NPC's response, so every model later sees it as said.
    func say(_ line: String, to prompt: Prompt, npc npcID: NPCID, output: (GameOutput) -> Void) async {
        guard let conversation = try? await conversation(with: npcID) else { return }
        let name = state.world.name(of: npcID)
        let entries: [Transcript.Entry] = [
            .prompt(.init(segments: prompt.segments)),
            .response(.init(assetIDs: ["beat"], segments: [.text(.init(content: line))])),
        ]
        let stateBefore = DynamicState(state)
        let annotations = state.annotations(talkingTo: npcID)
        conversation.session.transcript.append(contentsOf: entries)
        // Recorded so that replays keep the conversation whole; replays do not compare authored lines.
        let recording = TurnRecording(
            npc: npcID, instructions: conversation.session.transcript.first, input: entries[0], context: annotations,
            stateBefore: stateBefore, entries: entries, modelID: TurnRecording.beatModelID,
            modelVersion: state.world.contentHash.hex, totalMilliseconds: 0)
        output(.speechBegan(npc: name))
        output(.speech(line))
        output(.speechEnded)
        await apply(
            TurnResult(
                npc: npcID, entries: entries, annotations: annotations, effects: [], refusals: [], feedback: [],
                recording: recording, failure: nil, timing: .init(firstWords: nil, total: .zero)),
            output: output)
    }

    // MARK: - Knowledge and goals

    /// Puts the knowledge and goals that hold now into the NPC's instructions, when they changed. The prompt
    /// prefix changes only then.
    func refreshKnowledge(of npcID: NPCID) {
        guard var conversation = conversations[npcID], let npc = state.world.npcs[npcID] else { return }
        let context = conditionContext(for: npcID)
        let texts = npc.knowledge(in: context).map(\.text) + npc.goals(in: context).map { "Goal: \($0.text)" }
        guard texts != conversation.knowledge else { return }
        conversation.knowledge = texts
        if let composed = conversation.composedInstructions(),
            case .instructions? = conversation.session.transcript.first
        {
            conversation.session.transcript[0] = .instructions(composed)
        }
        conversations[npcID] = conversation
    }
}

extension TradeOffer {
    /// The offer as the proposal the trade guard reviews.
    func proposal(in world: World) -> OfferTrade.Arguments {
        if let stack = npcGives.items.first {
            return OfferTrade.Arguments(
                action: .sell, item: stack.item.rawValue, quantity: stack.quantity, price: playerGives.gold)
        }
        let stack = playerGives.items.first
        return OfferTrade.Arguments(
            action: .buy, item: stack?.item.rawValue ?? "", quantity: stack?.quantity, price: npcGives.gold)
    }
}

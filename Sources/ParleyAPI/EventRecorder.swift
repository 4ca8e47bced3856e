import GameWorld
import LanguageModels
import ParleyEngine
import ParleyJSON

/// Turns what a game does while it runs one line into `APIEvent`s.
///
/// What the game shows comes as it is shown (`shown(_:in:)`: narration, speech piece by piece, problems). What the
/// game did is read once the line has run, from what changed since `begin(on:)`: the NPCs' tool calls and their
/// outputs (new entries of their conversations), the game's events (trades, gifts, beats, quests, flags), the
/// offers that became pending and those the rules refused, and the calls of the game's actions refused for their
/// arguments.
struct EventRecorder {
    /// The game as it was before the line.
    private let game: Game
    private let eventCount: Int
    private let refusalCount: Int
    private let actionRefusalCount: Int
    private let offers: [NPCID: PendingOffer]
    private let historyCounts: [NPCID: Int]

    /// Notes where the game stands before a line runs.
    static func begin(on game: Game) async -> EventRecorder {
        EventRecorder(
            game: game, eventCount: await game.events.count, refusalCount: await game.refusedOffers.count,
            actionRefusalCount: await game.refusedActions.count,
            offers: await game.pendingOffers,
            historyCounts: await game.annotatedTranscripts.mapValues(\.transcript.count))
    }

    /// What an NPC is saying, between its `speechBegan` and its `speechEnded`.
    struct Speech: Sendable {
        /// The NPC speaking.
        var npc: APIEvent.NPCReference
        /// What it has said so far.
        var text = ""
    }

    /// The event for something the game showed.
    ///
    /// - Parameters:
    ///   - output: What the game showed.
    ///   - world: The world, to name NPCs by id.
    ///   - speech: What the NPC speaking now has said, kept between calls: `speech` pieces belong to the last
    ///     `speechBegan`, and `speechEnded` carries the whole line.
    /// - Returns: The event, or `nil` for nothing a client needs.
    static func shown(_ output: GameOutput, in world: World, speech: inout Speech?) -> APIEvent? {
        func reference(named name: String) -> APIEvent.NPCReference {
            let id = world.npcs.values.first { $0.name == name }?.id ?? NPCID(name)
            return APIEvent.NPCReference(id: id, name: name)
        }
        switch output {
        case .narration(let text): return APIEvent(.narration, JSONObject([("text", .string(text))]))
        case .thinking(let name): return APIEvent(.thinking, npc: reference(named: name))
        case .speechBegan(let name):
            speech = Speech(npc: reference(named: name))
            return APIEvent(.speechBegan, npc: speech?.npc)
        case .speech(let text):
            speech?.text += text
            return APIEvent(.speech, npc: speech?.npc, JSONObject([("text", .string(text))]))
        case .speechEnded:
            defer { speech = nil }
            return APIEvent(.speechEnded, npc: speech?.npc, JSONObject([("text", .string(speech?.text ?? ""))]))
        case .notice(let text): return APIEvent(.notice, JSONObject([("text", .string(text))]))
        case .problem(let text): return APIEvent(.problem, JSONObject([("detail", .string(text))]))
        case .goalReached(let goal): return APIEvent(.goalReached, JSONObject([("goal", .string(goal))]))
        }
    }

    /// What the game did while the line ran, in this order: tool calls (each with its output), the game's events,
    /// new offers, refused offers, refused calls of the game's actions.
    ///
    /// - Parameter now: The game after the line: the same one, or another one that a `load` made (then everything
    ///   it holds is new).
    func events(after now: Game) async -> [APIEvent] {
        let same = now === game
        let world = await now.state.world
        func reference(_ id: NPCID) -> APIEvent.NPCReference { .init(id: id, name: world.name(of: id)) }
        var events: [APIEvent] = []
        if same {
            for (npc, annotated) in await now.annotatedTranscripts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let start = min(historyCounts[npc] ?? 0, annotated.transcript.count)
                events += Self.toolCalls(in: annotated.transcript[start...], npc: reference(npc))
            }
        }
        let gameEvents = await now.events
        for event in gameEvents.dropFirst(same ? eventCount : 0) {
            if let api = Self.event(for: event, in: world, reference: reference) { events.append(api) }
        }
        for (npc, offer) in await now.pendingOffers.sorted(by: { $0.key.rawValue < $1.key.rawValue })
        where !same || offers[npc] != offer {
            var fields = JSONObject([("summary", .string(offer.summary))])
            for (key, value) in GameJSON.terms(of: offer.offer, in: world) { fields[key] = value }
            events.append(APIEvent(.offer, npc: reference(npc), fields))
        }
        for refusal in await now.refusedOffers.dropFirst(same ? refusalCount : 0) {
            var fields = JSONObject([
                ("proposal", (try? JSONValue(parsing: refusal.proposal)) ?? .string(refusal.proposal)),
                ("reasons", .array(refusal.reasons.map(JSONValue.string))),
            ])
            if let offer = refusal.offer {
                for (key, value) in GameJSON.terms(of: offer, in: world) { fields[key] = value }
            }
            events.append(APIEvent(.offerRefused, npc: reference(refusal.npc), fields))
        }
        for refusal in await now.refusedActions.dropFirst(same ? actionRefusalCount : 0) {
            let fields = JSONObject([
                ("action", .string(refusal.action.rawValue)),
                ("arguments", (try? JSONValue(parsing: refusal.arguments)) ?? .string(refusal.arguments)),
                ("reasons", .array(refusal.reasons.map(JSONValue.string))),
            ])
            events.append(APIEvent(.actionRefused, npc: reference(refusal.npc), fields))
        }
        return events
    }

    /// A `toolCall` event for each call among `entries`, with its output when it follows.
    private static func toolCalls(
        in entries: some Collection<Transcript.Entry>, npc: APIEvent.NPCReference
    ) -> [APIEvent] {
        var outputs: [String: Transcript.ToolOutput] = [:]
        for case .toolOutput(let output) in entries { outputs[output.id] = output }
        var events: [APIEvent] = []
        for case .toolCalls(let calls) in entries {
            for call in calls {
                var fields = JSONObject([("tool", .string(call.toolName)), ("arguments", call.arguments.jsonValue)])
                if let output = outputs[call.id] { fields["output"] = Self.json(of: output) }
                events.append(APIEvent(.toolCall, npc: npc, fields))
            }
        }
        return events
    }

    /// A tool's output: its structured content, or its text.
    private static func json(of output: Transcript.ToolOutput) -> JSONValue {
        var texts: [String] = []
        for segment in output.segments {
            switch segment {
            case .structure(let structure): return structure.content.jsonValue
            case .text(let text): texts.append(text.content)
            case .unknown: continue
            }
        }
        return .string(texts.joined(separator: "\n"))
    }

    /// The event for one of the game's events, or `nil` for those a client sees otherwise (walking is narrated and
    /// shows in the state).
    private static func event(
        for event: GameEvent, in world: World, reference: (NPCID) -> APIEvent.NPCReference
    ) -> APIEvent? {
        func item(_ id: ItemID, _ quantity: Int) -> JSONObject {
            JSONObject([("item", GameJSON.stack(of: id, quantity: quantity, in: world))])
        }
        switch event {
        case .traded(let offer):
            return APIEvent(.trade, npc: reference(offer.npc), GameJSON.terms(of: offer, in: world))
        case .gave(let id, let quantity, let npc): return APIEvent(.gave, npc: reference(npc), item(id, quantity))
        case .received(let id, let quantity, let npc):
            return APIEvent(.received, npc: reference(npc), item(id, quantity))
        case .paidGold(let amount, let npc):
            return APIEvent(.paidGold, npc: reference(npc), JSONObject([("gold", .integer(amount))]))
        case .receivedGold(let amount, let npc):
            return APIEvent(.receivedGold, npc: reference(npc), JSONObject([("gold", .integer(amount))]))
        case .tookItem(let id, let quantity, _): return APIEvent(.tookItem, item(id, quantity))
        case .droppedItem(let id, let quantity, _): return APIEvent(.droppedItem, item(id, quantity))
        case .moved(_, let to):
            return APIEvent(
                .moved,
                JSONObject([
                    ("location", ["id": .string(to.rawValue), "name": .string(world.locations[to]?.name ?? to.rawValue)] as JSONValue)
                ]))
        case .npcMoved(let npc, _, let to):
            return APIEvent(
                .npcMoved, npc: reference(npc),
                JSONObject([
                    ("location", ["id": .string(to.rawValue), "name": .string(world.locations[to]?.name ?? to.rawValue)] as JSONValue)
                ]))
        case .setFlag(let name): return APIEvent(.flagSet, JSONObject([("flag", .string(name))]))
        case .clearedFlag(let name): return APIEvent(.flagCleared, JSONObject([("flag", .string(name))]))
        case .changedCounter, .setCounter, .changedAttitude: return nil
        case .advancedQuest(let id, let stage):
            let quest = world.quests[id]
            let fields = JSONObject([
                ("quest", ["id": .string(id.rawValue), "name": .string(world.name(of: id))] as JSONValue),
                ("stage", .string(stage)),
            ])
            return APIEvent(stage == quest?.stages.last ? .questCompleted : .questAdvanced, fields)
        case .firedBeat(let npc, let beat):
            return APIEvent(.beat, npc: reference(npc), JSONObject([("beat", .string(beat))]))
        }
    }
}

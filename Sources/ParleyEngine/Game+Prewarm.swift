import GameWorld
import LanguageModels

// Prewarming: when the player enters a place, the models of the NPCs there are asked to prepare for the conversation
// that may follow (`LanguageModelSession.prewarm(promptPrefix:)`), so that its first words come sooner. A server
// backend then processes the prompt's beginning ahead of time; other models do nothing.

extension Game {
    /// Starts preparing the models of the NPCs here, in the background, and returns at once: it never delays the
    /// player's command and never fails visibly (a prewarm the backend cannot do is nothing, and a real turn that
    /// starts cancels or waits for it, see `OpenAICompatibleLanguageModel.prewarm(for:)`).
    ///
    /// What is prewarmed is what the NPC's first request will begin with:
    /// - a voice and a planner (a model's `voicing`, as `VoicedModel` declares it) in grounded mode: the voice, with
    ///   the voicing prompt's instructions and worked examples (the planner, the scripted model, needs nothing),
    ///   unless the voice is switched off;
    /// - any other model: the NPC's session as it is, or, for an NPC met for the first time, the instructions and
    ///   tools its conversation will start with. An NPC whose conversation is still unread in the save is left to
    ///   its first turn (reading it here would read the save file during play).
    func prewarmNPCsHere() {
        let here = state.npcsHere.sorted { $0.id.rawValue < $1.id.rawValue }
        guard !here.isEmpty else { return }
        let world = state.world
        let sessions = here.compactMap { npc in conversations[npc.id].map { (npc.id, $0.session) } }
        let existing = Dictionary(sessions) { first, _ in first }
        let unread = Set(here.map(\.id).filter { existing[$0] == nil && restored?.npcs.contains($0) == true })
        let models = self.models
        let voiceOn = voiceEnabled
        Task.detached(priority: .utility) { [weak self] in
            for npc in here {
                let model: any LanguageModel
                if let session = existing[npc.id] {
                    model = session.model
                } else if let made = try? await models(npc, world) {
                    model = made
                } else {
                    continue
                }
                if let voiced = model.voicing {
                    // The voice speaks only when switched on; in grounded mode, its requests are voicing prompts.
                    guard voiceOn else { continue }
                    if voiced.mode == .grounded {
                        Self.voicingSession(for: voiced, npc: npc, world: world).prewarm()
                        continue
                    }
                }
                if let session = existing[npc.id] {
                    session.prewarm()
                } else if !unread.contains(npc.id) {
                    await self?.firstSession(of: npc, model: model).prewarm()
                }
            }
        }
    }

    /// A session on the voice with the voicing prompt's instructions and examples: what every voiced line of the NPC
    /// begins with (see `VoicingPrompt`).
    static func voicingSession(for model: ModelVoicing, npc: NPC, world: World) -> LanguageModelSession {
        let prompt = VoicingPrompt(
            npc: npc, world: world, planned: "", facts: [], playerLine: "", recent: [],
            sentenceBudget: model.sentenceBudget)
        return LanguageModelSession(model: model.voice, tools: [], transcript: prompt.transcript)
    }

    /// A session like the one an NPC's conversation starts with at first contact (`conversation(with:)`): its
    /// instructions with the knowledge that holds now, and its tools. It is only prewarmed, never kept: its tools
    /// would report nothing.
    func firstSession(of npc: NPC, model: any LanguageModel) -> LanguageModelSession {
        let tools = NPCToolbox(npc: npc.id, state: shared, onRefusal: { _ in }).tools()
        let session = LanguageModelSession(
            model: model, tools: tools,
            instructions: NPCInstructions.make(npc: npc, state: state, hasTradeTools: npc.trade.trades))
        var conversation = NPCConversation(npc: npc.id, session: session)
        let context = conditionContext(for: npc.id)
        conversation.knowledge =
            npc.knowledge(in: context).map(\.text) + npc.goals(in: context).map { "Goal: \($0.text)" }
        if let composed = conversation.composedInstructions() { session.transcript[0] = .instructions(composed) }
        return session
    }
}

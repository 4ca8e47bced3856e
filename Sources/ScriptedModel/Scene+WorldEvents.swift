import GameWorld
import NPCContract

// The game's own events (`WitnessedEvent.happened`): rules match them by their words (`keywords`) and their kind
// (`"event"`).

extension Scene {
    /// The words a rule's keywords are matched against for a witnessed event: those of a game's own event (what it
    /// says happened); no words for the engine's events.
    static func words(ofWitnessed event: WitnessedEvent?, resolver: ItemResolver) -> Words? {
        guard let text = event?.happenedText else { return nil }
        return resolver.line(text)
    }

    /// Whether a rule's event kinds (`when.event`) hold: none asked, or this is a game's event of one of them.
    func matchesWorldEvent(_ when: DialogueCondition) -> Bool {
        guard !when.events.isEmpty else { return true }
        guard let kind = conversation.event?.kind else { return false }
        return when.events.contains(kind)
    }
}

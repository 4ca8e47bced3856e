import GameWorld

/// What the NPC remembers when the player asks about the conversation's past (`DialogueIntent.recall`), as one or
/// two plain sentences for `{memory}`: from the conversation's facts the engine gives (`ConversationFacts`, which
/// survive context trims), or, without them, from the working transcript.
struct Recollection: Sendable {
    /// The player's name: the one they gave in conversation (`ReplyFacts.name(given:scene:)`), or the game's.
    var name: String?
    /// The trades and gifts so far, oldest first.
    var dealings: [ConversationFacts.Dealing] = []
    /// The offer waiting for the player's answer: the item, how many, the total, and whether the NPC sells.
    var offer: (item: String, quantity: Int, price: Int, npcSells: Bool)?
    /// What the player last asked about, by name.
    var lastTopic: String?
    /// Whether the NPC has talked with the player before.
    var hasMet = false
    /// Where the player said they are from.
    var origin: String?

    /// What the NPC remembers from the facts, completed by the transcript where the facts say nothing.
    ///
    /// - Parameters:
    ///   - facts: The engine's facts, when the request carries them.
    ///   - conversation: The working transcript, read.
    ///   - world: For names.
    ///   - scene: This turn, for what its line gives (a name, a home).
    init(facts: ConversationFacts?, conversation: Conversation, scene: Scene, world: World) {
        name = ReplyFacts.name(given: facts, scene: scene)
        origin = scene.originGiven ?? facts?.playerFrom ?? conversation.history.playerFrom
        dealings = facts?.dealings ?? []
        if let offer = facts?.pendingOffer {
            let npcSells = !offer.npcGives.items.isEmpty
            let goods = npcSells ? offer.npcGives : offer.playerGives
            if let stack = goods.items.first {
                self.offer = (
                    world.name(of: stack.item), stack.quantity, npcSells ? offer.playerGives.gold : offer.npcGives.gold,
                    npcSells
                )
            }
        } else if let pending = conversation.pendingOffer {
            offer = (
                pending.item.map { world.name(of: $0) } ?? pending.itemText, pending.quantity, pending.price,
                pending.npcSells
            )
        }
        if let topic = facts?.lastTopic {
            lastTopic = world.items[ItemID(topic)]?.name ?? topic
        } else if let item = conversation.contextItem {
            lastTopic = world.name(of: item)
        }
        hasMet = facts.map { !$0.isFirstMeeting || $0.turns > 0 } ?? (conversation.responsesBefore > 0)
    }

    /// The sentences answering a question about `topic`, or `nil` when there is nothing to remember.
    func memory(of topic: RecallTopic, world: World) -> String? {
        switch topic {
        case .name:
            return name.map { "You're \($0)." }
        case .origin:
            return origin.map { "You told me you're from \($0)." }
        case .agreed:
            if let offer {
                let what = "\(offer.quantity) \(offer.item) for \(offer.price) gold"
                return offer.npcSells
                    ? "We said \(what), and it's yours when you accept."
                    : "We said \(offer.price) gold for your \(offer.quantity) \(offer.item), if you accept."
            }
            return dealings.last.map { sentence(for: $0, world: world) }
        case .dealings:
            guard !dealings.isEmpty else {
                // "What did I order?" with the order still waiting for the player's word.
                return offer.map { offer in
                    offer.npcSells
                        ? "You asked for \(offer.quantity) \(offer.item): \(offer.price) gold, when you accept."
                        : "You offered me \(offer.quantity) \(offer.item), for \(offer.price) gold when you accept."
                }
            }
            return dealings.suffix(3).map { sentence(for: $0, world: world) }.joined(separator: " ")
        case .asked:
            return lastTopic.map { "You asked about the \($0)." }
        case .met:
            guard hasMet else { return nil }
            let greeting = name.map { "Of course I remember you, \($0)." } ?? "Of course I remember you."
            guard let last = dealings.last else { return greeting }
            return greeting + " " + sentence(for: last, world: world)
        }
    }

    /// One dealing, said by the NPC to the player.
    private func sentence(for dealing: ConversationFacts.Dealing, world: World) -> String {
        let goods = "\(dealing.quantity) \(world.name(of: dealing.item))"
        switch dealing.kind {
        case .bought: return "You bought \(goods) from me for \(dealing.gold) gold."
        case .sold: return "You sold me \(goods) for \(dealing.gold) gold."
        case .gave: return "You gave me \(goods)."
        case .received: return "I gave you \(goods)."
        }
    }
}

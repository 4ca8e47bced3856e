import GameWorld

/// What the NPC remembers when the player asks about the conversation's past (`DialogueIntent.recall`), as one or
/// two plain sentences for `{memory}`: from the conversation's facts the engine gives (`ConversationFacts`, which
/// survive context trims), or, without them, from the working transcript.
struct Recollection: Sendable {
    /// The player's name: the one they gave in conversation (`ReplyFacts.name(given:scene:)`), or the game's.
    var name: String?
    /// The whole name the player gave in conversation ("Hal Brightwater"), if they gave one
    /// (`ReplyFacts.fullName(given:scene:)`).
    var fullName: String?
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
    /// What the player said they do for a living.
    var occupation: String?

    /// What the NPC remembers from the facts, completed by the transcript where the facts say nothing.
    ///
    /// - Parameters:
    ///   - facts: The engine's facts, when the request carries them.
    ///   - conversation: The working transcript, read.
    ///   - world: For names.
    ///   - scene: This turn, for what its line gives (a name, a home).
    init(facts: ConversationFacts?, conversation: Conversation, scene: Scene, world: World) {
        name = ReplyFacts.name(given: facts, scene: scene)
        fullName = ReplyFacts.fullName(given: facts, scene: scene)
        origin = scene.originGiven ?? facts?.playerFrom ?? conversation.history.playerFrom
        occupation = scene.occupationGiven ?? facts?.playerOccupation ?? conversation.history.playerOccupation
        dealings = facts?.dealings ?? []
        // (A swap, goods on both sides, is no single item for gold: nothing to say it in.)
        if let offer = facts?.pendingOffer, offer.npcGives.items.isEmpty || offer.playerGives.items.isEmpty {
            let npcSells = !offer.npcGives.items.isEmpty
            let goods = npcSells ? offer.npcGives : offer.playerGives
            if let stack = goods.items.first {
                self.offer = (
                    world.name(of: stack.item), stack.quantity, npcSells ? offer.playerGives.gold : offer.npcGives.gold,
                    npcSells
                )
            }
        } else if facts?.pendingOffer == nil, let pending = conversation.pendingOffer, pending.partExchange == nil {
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

    /// The sentences answering a question about `topic`, or `nil` when there is nothing to remember; in the NPC's
    /// language (the lexicon's `recall…` texts; the model's world speaks the NPC's lexicon).
    func memory(of topic: RecallTopic, world: World) -> String? {
        let lexicon = world.lexicon
        func terms(_ offer: (item: String, quantity: Int, price: Int, npcSells: Bool)) -> [String: String] {
            ["item": offer.item, "quantity": String(offer.quantity), "price": String(offer.price)]
        }
        switch topic {
        case .name:
            return (fullName ?? name).map { lexicon.text(.recallName, ["player": $0]) }
        case .surname:
            // "My name's Hal Brightwater": Brightwater. One name given: only that one.
            guard let fullName else { return nil }
            let surname = fullName.split(separator: " ").dropFirst().joined(separator: " ")
            guard !surname.isEmpty else { return lexicon.text(.recallNoSurname, ["player": fullName]) }
            return lexicon.text(.recallSurname, ["surname": surname, "player": fullName])
        case .origin:
            return origin.map { lexicon.text(.recallOrigin, ["place": $0]) }
        case .occupation:
            return occupation.map { lexicon.text(.recallOccupation, ["occupation": $0]) }
        case .agreed:
            if let offer {
                return lexicon.text(offer.npcSells ? .recallAgreedBuy : .recallAgreedSell, terms(offer))
            }
            return dealingGroups.last.map { sentences(for: $0, world: world) }
        case .dealings:
            guard !dealings.isEmpty else {
                // "What did I order?" with the order still waiting for the player's word.
                return offer.map { offer in
                    lexicon.text(offer.npcSells ? .recallOrderedBuy : .recallOrderedSell, terms(offer))
                }
            }
            return dealingGroups.suffix(3).map { sentences(for: $0, world: world) }.joined(separator: " ")
        case .asked:
            return lastTopic.map { lexicon.text(.recallAsked, ["item": $0]) }
        case .met:
            guard hasMet else { return nil }
            let greeting = name.map { lexicon.text(.recallMetName, ["player": $0]) } ?? lexicon.text(.recallMet)
            guard let last = dealingGroups.last else { return greeting }
            return greeting + " " + sentences(for: last, world: world)
        }
    }

    /// The dealings, each purchase with what the player traded in for it (a swap's `tradedIn` dealings follow its
    /// `bought` ones), so that "the last dealing" is a whole trade and a part exchange is never said alone.
    private var dealingGroups: [ArraySlice<ConversationFacts.Dealing>] {
        var groups: [ArraySlice<ConversationFacts.Dealing>] = []
        var start = dealings.startIndex
        for index in dealings.indices.dropFirst() where dealings[index].kind != .tradedIn {
            groups.append(dealings[start..<index])
            start = index
        }
        if start < dealings.endIndex { groups.append(dealings[start...]) }
        return groups
    }

    /// The sentences of a group of dealings (`dealingGroups`), in order.
    private func sentences(for group: ArraySlice<ConversationFacts.Dealing>, world: World) -> String {
        group.map { sentence(for: $0, world: world) }.joined(separator: " ")
    }

    /// One dealing, said by the NPC to the player.
    private func sentence(for dealing: ConversationFacts.Dealing, world: World) -> String {
        let values = [
            "item": world.name(of: dealing.item), "quantity": String(dealing.quantity), "price": String(dealing.gold),
        ]
        switch dealing.kind {
        case .bought: return world.lexicon.text(.recallBought, values)
        case .sold: return world.lexicon.text(.recallSold, values)
        case .gave: return world.lexicon.text(.recallGave, values)
        case .received: return world.lexicon.text(.recallReceived, values)
        case .tradedIn: return world.lexicon.text(.recallTradedIn, values)
        }
    }
}

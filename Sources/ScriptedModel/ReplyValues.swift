import GameWorld
import NPCContract
import ParleyJSON

/// The value of each placeholder a reply (or a rule's call) may use at one step, from the flow's facts, the scene
/// and the conversation. A placeholder without a value is absent, and variants that use it are not said.
enum ReplyValues {
    /// The values.
    ///
    /// - Parameters:
    ///   - scene: The step.
    ///   - outcome: The outcome being answered.
    ///   - facts: What the flow found out.
    ///   - rule: The rule answering (for the item a greeting noticed).
    ///   - npc: The NPC.
    ///   - world: The world, for names.
    ///   - forArguments: Whether the values go into tool arguments (`{item}` is then the item's id).
    static func make(
        scene: Scene, outcome: DialogueOutcome?, facts: ReplyFacts, rule: DialogueRule?, npc: NPC, world: World,
        forArguments: Bool = false
    ) -> [DialoguePlaceholder: String] {
        let conversation = scene.conversation
        var values: [DialoguePlaceholder: String] = [:]
        values[.npc] = npc.name
        // The name the player gave, else the game's name for them.
        values[.player] = facts.playerName ?? conversation.playerName
        values[.location] = world.name(of: conversation.location ?? npc.location)
        values[.gold] = conversation.latest.map { String($0.gold) }

        let pending = outcome == .offerPending ? conversation.pendingOffer : nil
        let offer = pending ?? conversation.settledOffer
        func name(_ item: ItemID) -> String { forArguments ? item.rawValue : world.name(of: item) }
        var item: String?
        if let pending {
            item = pending.item.map(name) ?? pending.itemText
        } else if let id = facts.item {
            item = name(id)
        } else if let text = facts.itemText {
            item = text
        } else if [.greet, .greetAgain, .returning].contains(scene.intent) {
            item = rule.flatMap { scene.noticedItem(for: $0) }.map(name)
        } else if let offer {
            item = offer.item.map(name) ?? offer.itemText
        } else {
            switch scene.focus {
            case .item(let id): item = name(id)
            case .unknown(let text): item = text
            default: break
            }
        }
        values[.item] = item
        values[.quantity] = (facts.quantity ?? offer?.quantity ?? (item != nil ? 1 : nil)).map(String.init)
        // (A swap's gold is no price of its item: `{offer}` and `{summary}` say the whole exchange.)
        values[.price] = (facts.price ?? (offer?.partExchange == nil ? offer?.price : nil)).map(String.init)
        values[.lowest] =
            (facts.lowest ?? refusedLowest(in: conversation) ?? lowest(of: facts, scene: scene, npc: npc, world: world))
            .map(String.init)
        // The texts of lists are the NPC's lexicon's (the model's world speaks it).
        let lexicon = world.lexicon
        if let stock = facts.stock, !stock.isEmpty {
            values[.stock] = lexicon.list(
                stock.map { line in
                    let item = ["item": line.name, "price": String(line.price), "quantity": String(line.quantity)]
                    return lexicon.text(line.quantity > 1 ? .stockLineCounted : .stockLine, item)
                })
        }
        let buys = npc.trade.trades ? npc.trade.buys.sorted() : []
        if !buys.isEmpty { values[.buys] = lexicon.list(buys) }
        if let appraisal = facts.appraisal, !appraisal.isEmpty {
            // One thing reads as a price ("8 gold for your Rusty Sword"), several as a list.
            // Several of one thing read as how many and what they come to ("4 gold for your 2 × Wedge of Cheese").
            let several = appraisal.count == 1 ? facts.appraisedQuantity.flatMap { $0 > 1 ? $0 : nil } : nil
            func text(_ key: Lexicon.Text, _ thing: (item: ItemID, price: Int)) -> String {
                let name = world.name(of: thing.item)
                guard let several else { return lexicon.text(key, ["item": name, "price": String(thing.price)]) }
                let goods = lexicon.text(.goodsSeveral, ["item": name, "quantity": String(several)])
                return lexicon.text(key, ["item": goods, "price": String(thing.price.saturatingMultiplied(by: several))])
            }
            values[.appraisal] =
                appraisal.count == 1
                ? text(.appraisalOne, appraisal[0]) : lexicon.list(appraisal.map { text(.appraisalLine, $0) })
        }
        if let total = facts.total, let id = facts.item {
            values[.total] = lexicon.text(
                .total, ["item": world.name(of: id), "price": String(total.price), "quantity": String(total.quantity)])
        }
        values[.summary] = facts.summary ?? conversation.event?.summary
        values[.memory] = facts.memory
        if let reasons = facts.reasons, !reasons.isEmpty { values[.reasons] = reasons.joined(separator: " ") }
        values[.offer] = (outcome == .pending ? facts.summary : nil) ?? offer?.summary
        if let choices = facts.choices, !choices.isEmpty {
            values[.choices] = lexicon.list(choices.map(name), conjunction: .or)
        }
        values[.number] = scene.number.map(String.init)
        values[.result] = facts.result.flatMap { words(for: $0.jsonValue) }
        return values.filter { !$0.value.isEmpty }
    }

    /// A member of the game's answer to an action (`{result.gate}`, `{result.gate.name}`), in words; `nil` when the
    /// answer has no such member, or it is an object or an array.
    static func member(_ member: DialogueTemplate.Member, of facts: ReplyFacts) -> String? {
        guard member.placeholder == .result, var value = facts.result?.jsonValue else { return nil }
        for name in member.path {
            guard let inner = value[name] else { return nil }
            value = inner
        }
        return words(for: value)
    }

    /// A JSON value as a reply says it: a string as it is, a number or a Boolean as written; `nil` for anything else.
    private static func words(for value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The lowest price for one that the game named when it refused this turn's offer to sell below it.
    ///
    /// A bid the NPC had not looked up a price for goes to the game as it is; the game refuses it with its price
    /// policy (`TradeRejection.priceOutsidePolicy`), whose minimum is the least the NPC takes for them all. So a
    /// refused haggle can say `{lowest}` without a look-up before it.
    static func refusedLowest(in conversation: Conversation) -> Int? {
        guard let exchange = conversation.exchanges(with: .offerTrade).last,
            case .offerTrade(let offer)? = exchange.request, offer.action == .sell
        else { return nil }
        let quantity = max(offer.quantity ?? 1, 1)
        for case .tradeRule(.priceOutsidePolicy(_, let minimum, _, _), _) in exchange.action.reasons where minimum > 0 {
            // The minimum is the lowest price for one times the quantity; rounding up keeps any remainder honest.
            return minimum / quantity + (minimum % quantity == 0 ? 0 : 1)
        }
        return nil
    }

    /// The lowest price for one of the item in play, whenever the NPC sells it: as its stock look-up said this
    /// conversation, else by its trade policy (what `lookUpStock` would say). `nil` for an item it does not sell.
    static func lowest(of facts: ReplyFacts, scene: Scene, npc: NPC, world: World) -> Int? {
        guard let id = facts.item ?? scene.focus.item ?? scene.conversation.pendingOffer?.item else { return nil }
        if let line = scene.conversation.prices[id] { return line.lowestPrice }
        guard let item = world.items[id], npc.trade.trades, item.isTradeable, npc.trade.sells.contains(item.category),
            !npc.trade.neverSells.contains(id), npc.inventory.contains(id)
        else { return nil }
        return npc.trade.lowestPrice(forValue: item.value)
    }
}

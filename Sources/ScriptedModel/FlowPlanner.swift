import GameWorld
import LanguageModels
import NPCContract
import ParleyBasics
import ParleyJSON

/// Decides the next step of a turn from the rule that answers it: call tools, or say something about an outcome.
///
/// The model is stateless: each step reads the whole transcript again, finds the same rule, and sees which of
/// its flow's tool calls have been answered this turn. A flow makes at most `maximumRounds` rounds of calls per
/// turn and then always answers.
///
/// Built-in flows (for rules with an intent and no `calls`):
/// - `askStock`: `lookUpStock {}`, then `listed` or `empty`.
/// - `askPrice`: `lookUpStock {"item"}` (or `{}` when no item is named), then `priced` (`pricedSeveral` when the
///   player asked about more than one), `missing` or `listed`.
/// - `buy`: `lookUpStock {"item"}`, then `inspectPlayer` (when the NPC has it) and, if the player can pay,
///   `offerTrade` selling it at the price the player named or the asking price × quantity, then `pending` or
///   `refused`; if the player cannot pay, `priced`, so the NPC names its price instead of making an offer; if the
///   model is not sure the line asked to buy (`Scene.isUnsure`), `clarify` after the look-up, and no offer. A line
///   that orders several things at once (`Scene.orderedItems`) gets the offer for the first named; the reply then
///   says the rest come after (`ScriptedModel.sayingTheRest`).
/// - `haggle`: `offerTrade` at the price named, on the pending offer's or the last discussed item; a bid below the
///   NPC's lowest price is countered at that lowest price, looked up first if unknown, so the answer is the same
///   whether or not the price was asked before; a bid of nothing makes no offer: `refused` with the lowest price;
///   with no price named, halfway from the current price to the lowest (looked up first if unknown). A bid on a thing the line names as
///   the player's own (`Scene.namesOwnItem`: "*my* compass for 10", "*I've got* a compass, 10 gold") first looks at
///   what the player carries (`inspectPlayer`): what they carry is theirs to sell, whatever the NPC has of the same.
///   A swap (`Scene.partExchange`) looks at the player's things and the NPC's price, then offers the NPC's item for
///   the player's and the gold named, or for its lowest price less what it pays for the player's thing.
/// - `sell`: `inspectPlayer`, then `offerTrade` buying the item at its buy-back price × quantity, or `appraised`
///   when no item was named or the line only asks what the NPC would pay (`Scene.asksValue`).
/// - `offerGift`: `acceptGift`, then `accepted` or `refused`.
/// - `returning`: `inspectPlayer`, to notice what the player carries now.
///
/// A rule's own `calls` replace the flow: they are made in order, one per round, and a refusal stops the rest. They
/// may call the game's own actions (`actions.json`) as well as the NPC tools: an action ends in `answered` (with
/// `{result}`), `failed`, `unanswered`, `told` or `refused`, and only `answered` and `told` let the next call go.
struct FlowPlanner {
    /// The next step.
    enum Step {
        /// Ask for these tool calls: the tool's name and the call's arguments.
        case call([(name: String, arguments: GeneratedContent)])
        /// Answer, for this outcome, with these facts.
        case say(DialogueOutcome?, ReplyFacts)
    }

    /// The most rounds of tool calls one turn makes.
    static let maximumRounds = 3

    let scene: Scene
    let npc: NPC
    let world: World
    let resolver: ItemResolver
    /// The game as the player speaks, when the request carries it: its conversation facts answer `recall`.
    var conditions: ConditionContext?
    /// The names of the tools the request offers, the game's actions among them.
    var offered: Set<String> = []

    private var conversation: Conversation { scene.conversation }
    private var canCall: Bool { conversation.rounds.count < Self.maximumRounds }
    private func has(_ tool: NPCTool) -> Bool { scene.tools.contains(tool) }
    private func last(_ tool: NPCTool) -> Conversation.Exchange? { conversation.exchanges(with: tool).last }

    /// The situation of an intent without a flow: an offer is waiting, or nothing.
    private var situation: DialogueOutcome? {
        scene.intent.possibleOutcomes.contains(.offerPending) && conversation.pendingOffer != nil
            ? .offerPending : nil
    }

    /// The facts the scene itself gives: the item in focus and the numbers said.
    var baseFacts: ReplyFacts {
        var facts = ReplyFacts()
        switch scene.focus {
        case .item(let id): facts.item = id
        case .unknown(let text): facts.itemText = text
        case .ambiguous(let items): facts.choices = items
        case .none: break
        }
        facts.quantity = scene.quantity
        facts.price = scene.price
        facts.playerName = ReplyFacts.name(given: conditions?.conversation, scene: scene)
        return facts
    }

    private func say(_ outcome: DialogueOutcome?, _ change: (inout ReplyFacts) -> Void = { _ in }) -> Step {
        var facts = baseFacts
        change(&facts)
        return .say(outcome, facts)
    }

    private func call(_ call: NPCToolCall) -> Step { .call([(call.tool.rawValue, call.arguments)]) }

    /// Whether the request offers what a rule's call calls: an NPC tool, or one of the game's actions.
    private func has(_ callee: DialogueCall.Callee) -> Bool {
        switch callee {
        case .tool(let tool): has(tool)
        case .action(let action): offered.contains(action.rawValue)
        }
    }

    /// The item as tools are asked about it: its id, or the player's words.
    private var focusText: String? {
        switch scene.focus {
        case .item(let id): id.rawValue
        case .unknown(let text): text
        default: nil
        }
    }

    // MARK: - Planning

    /// The next step for a rule.
    ///
    /// - Parameters:
    ///   - rule: The first rule that answers this step.
    ///   - values: Placeholder values for the arguments of the rule's own calls.
    /// - Returns: Tool calls to make, or what to answer.
    func plan(for rule: DialogueRule, values: [DialoguePlaceholder: String]) -> Step {
        if let calls = rule.calls { return explicit(calls, values: values) }
        guard !rule.when.intents.isEmpty else { return say(situation) }
        switch scene.intent {
        case .askStock: return askStock()
        case .askPrice: return askPrice()
        case .buy: return buy()
        case .haggle: return haggle()
        case .sell: return sell()
        case .offerGift: return offerGift()
        case .recall: return recall()
        case .returning:
            if has(.inspectPlayer), last(.inspectPlayer) == nil, canCall { return call(.inspectPlayer) }
            return say(situation)
        default: return say(situation)
        }
    }

    /// A question about the conversation's past: what the NPC remembers of it, or that there is nothing.
    private func recall() -> Step {
        let recollection = Recollection(
            facts: conditions?.conversation, conversation: conversation, scene: scene, world: world)
        // Every topic the question asks, in its order; those with nothing to remember are left out.
        let memories = ([scene.recall].compactMap { $0 } + scene.recallAlso).compactMap {
            recollection.memory(of: $0, world: world)
        }
        guard !memories.isEmpty else { return say(.forgotten) }
        return say(.remembered) { $0.memory = memories.joined(separator: " ") }
    }

    private func askStock() -> Step {
        guard npc.trade.trades, has(.lookUpStock) else { return say(.unavailable) }
        if let report = last(.lookUpStock)?.stock {
            return say(report.lines.isEmpty ? .empty : .listed) { $0.stock = report.lines }
        }
        return canCall ? call(.lookUpStock(.init())) : say(.unavailable)
    }

    private func askPrice() -> Step {
        switch scene.focus {
        case .ambiguous: return say(.ambiguous)
        case .none: return askStock()
        case .item, .unknown: break
        }
        guard npc.trade.trades, has(.lookUpStock), let text = focusText else { return say(.unavailable) }
        if let exchange = last(.lookUpStock) {
            let report = exchange.stock
            if let line = report.flatMap({ stockLine(in: $0) }) {
                // "How many pies have you got left?": the item's line of the stock, with its count.
                if scene.asksCount { return say(.listed) { $0.stock = [line] } }
                // "How much for 3 candles?" asks what three come to (when there are three to sell).
                let several = scene.quantity.flatMap { $0 > 1 && $0 <= line.quantity ? $0 : nil }
                return say(several == nil ? .priced : .pricedSeveral) { facts in
                    facts.item = line.item
                    facts.itemText = line.name
                    facts.price = line.price
                    facts.lowest = line.lowestPrice
                    facts.quantity = line.quantity
                    if let several { facts.total = (several, line.price.saturatingMultiplied(by: several)) }
                }
            }
            // Words the game read as several items (a category: "weapons"): the stock it listed for them.
            if let report, report.missing == nil, report.lines.count > 1 {
                return say(.listed) { $0.stock = report.lines }
            }
            return say(.missing) { $0.itemText = $0.item == nil ? (report?.missing ?? text) : nil }
        }
        return canCall ? call(.lookUpStock(.init(item: text))) : say(.unavailable)
    }

    /// The stock line for the focused item: its own, or the only one listed when the game found it by the words.
    private func stockLine(in report: StockReport) -> StockReport.Line? {
        if let item = scene.focus.item, let line = report.line(for: item) { return line }
        if report.missing == nil, report.lines.count == 1, scene.focus.item == nil { return report.lines[0] }
        return nil
    }

    private func buy() -> Step {
        switch scene.focus {
        case .none: return say(.noItem)
        case .ambiguous: return say(.ambiguous)
        case .item, .unknown: break
        }
        guard npc.trade.trades, has(.lookUpStock), has(.offerTrade), let text = focusText else {
            return say(.unavailable)
        }
        if let exchange = last(.offerTrade) { return offerOutcome(exchange) }
        if let exchange = last(.lookUpStock) {
            let report = exchange.stock
            guard let line = report.flatMap({ stockLine(in: $0) }) else {
                return say(.missing) { $0.itemText = $0.item == nil ? (report?.missing ?? text) : nil }
            }
            // "Zero jugs" is no quantity: one is meant, or nothing was.
            let quantity = max(scene.quantity ?? 1, 1)
            let price = scene.price ?? line.price.saturatingMultiplied(by: quantity)
            // Asked for free ("a free jug of cider"): no offer the game must refuse, but the price the NPC can do.
            if price == 0 {
                let floor = line.lowestPrice.saturatingMultiplied(by: quantity)
                return say(.refused) { facts in
                    facts.item = line.item
                    facts.quantity = quantity
                    facts.lowest = floor
                    facts.reasons = [world.lexicon.text(.refusalBelowLowest, ["price": String(floor)])]
                }
            }
            // Not sure the player asked to buy ("two candles?"): name the item and its price, and ask.
            if scene.isUnsure {
                return say(.clarify) { facts in
                    facts.item = line.item
                    facts.itemText = line.name
                    facts.price = line.price
                    facts.lowest = line.lowestPrice
                    facts.quantity = quantity
                    if quantity > 1 { facts.total = (quantity, line.price.saturatingMultiplied(by: quantity)) }
                }
            }
            guard canCall else { return say(.unavailable) }
            // A merchant who can see the player's purse does not offer what they cannot pay: it names the price,
            // and the player can haggle. (Offering anyway would be refused by the game, and reported.)
            if has(.inspectPlayer) {
                guard let purse = last(.inspectPlayer) else { return call(.inspectPlayer) }
                if let gold = purse.player?.gold, gold < price {
                    // Several ("three pies, please") are named with what they come to, as a price question for
                    // several is.
                    return say(quantity > 1 ? .pricedSeveral : .priced) { facts in
                        facts.item = line.item
                        facts.itemText = line.name
                        facts.price = line.price
                        facts.lowest = line.lowestPrice
                        facts.quantity = line.quantity
                        if quantity > 1 { facts.total = (quantity, line.price.saturatingMultiplied(by: quantity)) }
                    }
                }
            }
            return call(.offerTrade(.init(action: .sell, item: line.item.rawValue, quantity: quantity, price: price)))
        }
        return canCall ? call(.lookUpStock(.init(item: text))) : say(.unavailable)
    }

    private func haggle() -> Step {
        let item: ItemID
        switch scene.focus {
        case .none: return say(.noItem)
        case .ambiguous: return say(.ambiguous)
        case .unknown: return say(.missing)
        case .item(let id): item = id
        }
        guard npc.trade.trades, has(.offerTrade) else { return say(.unavailable) }
        if let exchange = last(.offerTrade) { return offerOutcome(exchange) }
        if let given = scene.partExchange { return swap(item, for: given) }
        let pending = conversation.pendingOffer.flatMap { $0.item == item ? $0 : nil }
        // "I've got a compass, 10 gold", "fancy this old coin? yours for 6": whether the player has the thing they
        // call their own, or a thing the NPC does not sell, is seen, not guessed.
        if pending == nil, scene.namesOwnItem || !isStocked(item), has(.inspectPlayer), last(.inspectPlayer) == nil,
            canCall
        {
            return call(.inspectPlayer)
        }
        let carried = (conversation.latest?.quantity(of: item) ?? 0) > 0
        if pending == nil, !isStocked(item), !carried { return say(.missing) }
        // "Fancy my compass for 10?": the player's own thing, which they carry, is theirs to sell, whatever the NPC
        // has of the same.
        let npcSells = pending?.npcSells ?? (scene.namesOwnItem && carried ? false : isStocked(item))
        let quantity = scene.quantity ?? pending?.quantity ?? 1
        func offer(_ price: Int) -> Step {
            guard canCall else { return say(.unavailable) }
            // Selling: the player must be able to pay, or the NPC names the cost instead of making a doomed offer.
            if npcSells, has(.inspectPlayer) {
                guard let purse = last(.inspectPlayer) else { return call(.inspectPlayer) }
                if let gold = purse.player?.gold, gold < price {
                    return say(.refused) {
                        $0.item = item; $0.price = price; $0.reasons = ["You have only \(gold) gold."]
                    }
                }
            }
            return call(
                .offerTrade(
                    .init(action: npcSells ? .sell : .buy, item: item.rawValue, quantity: quantity, price: price)))
        }
        if let price = scene.price {
            // A bid on something the NPC sells, whose lowest price it has not looked up yet: it looks it up first, so
            // that a bid below it gets the same counter-offer whether or not the price was asked before.
            if npcSells, conversation.prices[item] == nil, has(.lookUpStock), last(.lookUpStock) == nil, canCall {
                return call(.lookUpStock(.init(item: item.rawValue)))
            }
            // Asking for it free ("for nothing", "for 0 gold") is no bid to meet, and no offer is made for it: the NPC
            // says its lowest price instead (an offer the game must refuse would be an action nobody asked for).
            if npcSells, price == 0, let lowest = conversation.prices[item]?.lowestPrice {
                let floor = lowest.saturatingMultiplied(by: quantity)
                return say(.refused) {
                    $0.item = item; $0.quantity = quantity; $0.lowest = floor
                    $0.reasons = [world.lexicon.text(.refusalBelowLowest, ["price": String(floor)])]
                }
            }
            // A merchant who knows its lowest price counters a lower bid at that price, rather than making an
            // offer its own rules forbid; a buyer who knows what it pays counters a higher ask the same way.
            if npcSells, price > 0, let lowest = conversation.prices[item]?.lowestPrice,
                price < lowest.saturatingMultiplied(by: quantity)
            {
                return offer(lowest.saturatingMultiplied(by: quantity))
            }
            if !npcSells, let buyPrice = conversation.latest?.line(for: item)?.buyPrice,
                price > buyPrice.saturatingMultiplied(by: quantity)
            {
                return offer(buyPrice.saturatingMultiplied(by: quantity))
            }
            return offer(price)
        }
        if npcSells {
            guard let line = conversation.prices[item] else {
                if has(.lookUpStock), last(.lookUpStock) == nil, canCall {
                    return call(.lookUpStock(.init(item: item.rawValue)))
                }
                return say(last(.lookUpStock) == nil ? .unavailable : .missing)
            }
            let floor = line.lowestPrice.saturatingMultiplied(by: quantity)
            let current = pending?.price ?? line.price.saturatingMultiplied(by: quantity)
            // Half-way down to the floor, rounding the step up; written so that a price at Int.max cannot overflow.
            let gap = current - floor
            return offer(current <= floor ? floor : max(floor, current - (gap / 2 + gap % 2)))
        }
        guard let buyPrice = conversation.latest?.line(for: item)?.buyPrice else {
            if has(.inspectPlayer), last(.inspectPlayer) == nil, canCall { return call(.inspectPlayer) }
            return say(.notWanted)
        }
        return offer(buyPrice.saturatingMultiplied(by: quantity))
    }

    /// A swap (`Scene.partExchange`): the NPC's `item` for the player's `given` and the gold named ("my rusty sword
    /// plus 100 gold for the silver sword"). The NPC looks at the player's things and its own price first (in one
    /// round), then offers the swap at the gold named, or, when that falls short of its lowest price less what it pays
    /// for the player's things, at that, as it counters a bid below its lowest price; the game weighs the whole
    /// exchange in net gold.
    private func swap(_ item: ItemID, for given: ItemStack) -> Step {
        guard has(.inspectPlayer), has(.lookUpStock) else { return say(.unavailable) }
        var needed: [NPCToolCall] = []
        if last(.inspectPlayer) == nil { needed.append(.inspectPlayer) }
        if conversation.prices[item] == nil, last(.lookUpStock) == nil {
            needed.append(.lookUpStock(.init(item: item.rawValue)))
        }
        if !needed.isEmpty {
            return canCall ? .call(needed.map { ($0.tool.rawValue, $0.arguments) }) : say(.unavailable)
        }
        guard let line = conversation.prices[item] else { return say(.missing) }
        guard let carried = conversation.latest?.line(for: given.item), carried.quantity >= given.quantity else {
            return say(.notCarried) { $0.item = given.item }
        }
        guard let buyPrice = carried.buyPrice, buyPrice > 0 else { return say(.notWanted) { $0.item = given.item } }
        let quantity = max(scene.quantity ?? 1, 1)
        let floor = max(
            0, line.lowestPrice.saturatingMultiplied(by: quantity) - buyPrice.saturatingMultiplied(by: given.quantity))
        let price = max(scene.price ?? 0, floor)
        if let gold = conversation.latest?.gold, gold < price {
            return say(.refused) { $0.item = item; $0.price = price; $0.reasons = ["You have only \(gold) gold."] }
        }
        guard canCall else { return say(.unavailable) }
        return call(
            .offerTrade(
                .init(
                    action: .sell, item: item.rawValue, quantity: quantity, price: price,
                    partExchange: given.item.rawValue, partExchangeQuantity: given.quantity)))
    }

    /// Whether the NPC sells the item, as far as it knows: it quoted a price, or has it in a category it sells.
    private func isStocked(_ item: ItemID) -> Bool {
        if conversation.prices[item] != nil { return true }
        guard let known = world.items[item] else { return false }
        return npc.inventory.contains(item) && npc.trade.sells.contains(known.category)
    }

    private func sell() -> Step {
        guard npc.trade.trades, has(.inspectPlayer), has(.offerTrade) else { return say(.unavailable) }
        guard !npc.trade.buys.isEmpty else { return say(.notWanted) }
        if let exchange = last(.offerTrade) { return offerOutcome(exchange) }
        guard let exchange = last(.inspectPlayer) else { return canCall ? call(.inspectPlayer) : say(.unavailable) }
        let report = exchange.player ?? PlayerReport(name: "", gold: 0, inventory: [])
        let item: ItemID
        switch scene.focus {
        case .none:
            let offers = Self.appraisal(of: report)
            return offers.isEmpty ? say(.notWanted) : say(.appraised) { $0.appraisal = offers }
        case .unknown(let text):
            // "What would you pay for my food?": the player's things of that category, never "you have no food".
            if let named = resolver.categories(in: Words(text)) {
                let offers = Self.appraisal(of: report).filter { offer in
                    world.items[offer.item].map { named.categories.contains($0.category) } ?? false
                }
                let carries = report.inventory.contains { line in
                    world.items[line.item].map { named.categories.contains($0.category) } ?? false
                }
                if !offers.isEmpty { return say(.appraised) { $0.appraisal = offers } }
                return carries ? say(.notWanted) : say(.notCarried)
            }
            return say(.notCarried)
        case .ambiguous(let items):
            let carried = items.filter { report.quantity(of: $0) > 0 }
            switch carried.count {
            case 0: return say(.notCarried)
            case 1: item = carried[0]
            default: return say(.ambiguous) { $0.choices = carried }
            }
        case .item(let id): item = id
        }
        guard let line = report.line(for: item) else { return say(.notCarried) { $0.item = item } }
        guard let buyPrice = line.buyPrice, buyPrice > 0 else { return say(.notWanted) { $0.item = item } }
        // "What would you pay for my sword?" asks a price, as "how much is the rope?" does: no offer yet.
        if scene.asksValue, scene.price == nil {
            return say(.appraised) { facts in
                facts.item = item
                facts.appraisal = [(item, buyPrice)]
                facts.appraisedQuantity = scene.quantity
            }
        }
        let quantity = scene.quantity ?? 1
        guard canCall else { return say(.unavailable) }
        return call(
            .offerTrade(
                .init(
                    action: .buy, item: item.rawValue, quantity: quantity,
                    price: scene.price ?? buyPrice.saturatingMultiplied(by: quantity))))
    }

    private func offerGift() -> Step {
        var text = focusText
        switch scene.focus {
        case .none: return say(.noItem)
        case .ambiguous(let items):
            let carried = items.filter { (conversation.latest?.quantity(of: $0) ?? 0) > 0 }
            guard carried.count == 1 else { return say(.ambiguous) }
            text = carried[0].rawValue
        case .item, .unknown: break
        }
        guard has(.acceptGift), let text else { return say(.unavailable) }
        if let exchange = last(.acceptGift) {
            let result = exchange.action
            return say(result.isRefused ? .refused : .accepted) { facts in
                facts.item = resolver.item(named: text) ?? facts.item
                facts.summary = result.summary
                facts.reasons = result.reasons.map { SpokenRefusal.line(for: $0, in: world) }
            }
        }
        guard canCall else { return say(.unavailable) }
        return call(.acceptGift(.init(item: text, quantity: scene.quantity ?? 1)))
    }

    /// What the NPC would pay for each of the player's things it buys (for more than nothing).
    private static func appraisal(of report: PlayerReport) -> [(item: ItemID, price: Int)] {
        report.inventory.compactMap { line in
            guard let price = line.buyPrice, price > 0 else { return nil }
            return (line.item, price)
        }
    }

    // MARK: - Outcomes of calls

    /// `pending` or `refused`, with the offer's item, quantity, price, summary and reasons.
    private func offerOutcome(_ exchange: Conversation.Exchange) -> Step {
        let result = exchange.action
        let offer: OfferTrade.Arguments? = if case .offerTrade(let offer)? = exchange.request { offer } else { nil }
        return say(result.status == .pending ? .pending : .refused) { facts in
            if let text = offer?.item {
                if let item = resolver.item(named: text) {
                    facts.item = item
                    facts.itemText = nil
                } else {
                    facts.itemText = text
                }
            }
            facts.quantity = offer?.quantity ?? facts.quantity
            facts.price = offer?.price ?? facts.price
            // A swap's gold is not the item's price: only `{summary}` says the whole exchange.
            if offer?.partExchange != nil { facts.price = nil }
            // The lowest price, only when the offer was below it (otherwise the game refused for another reason).
            if let item = facts.item, let lowest = conversation.prices[item]?.lowestPrice, let price = facts.price,
                price < lowest.saturatingMultiplied(by: facts.quantity ?? 1), offer?.action != .buy
            {
                facts.lowest = lowest
            }
            facts.summary = result.summary
            facts.reasons = result.reasons.map { SpokenRefusal.line(for: $0, in: world) }
            facts.refusedOnlyForPrice = !result.reasons.isEmpty && result.reasons.allSatisfy(Self.isBelowLowestPrice)
        }
    }

    /// Whether a refusal's reason is only that the price is below what the NPC takes, which `{lowest}` says.
    static func isBelowLowestPrice(_ reason: RefusalReason) -> Bool {
        if case .tradeRule(.priceOutsidePolicy, _) = reason { return true }
        return false
    }

    /// The outcome of any exchange, for a rule's own calls.
    private func outcome(of exchange: Conversation.Exchange) -> Step {
        switch exchange.tool {
        case .lookUpStock:
            guard let report = exchange.stock else { return say(.missing) }
            if exchange.request?.item != nil {
                guard let line = report.lines.first, report.missing == nil else {
                    return say(.missing) { $0.itemText = $0.item == nil ? report.missing : nil }
                }
                return say(.priced) { facts in
                    facts.item = line.item
                    facts.price = line.price
                    facts.lowest = line.lowestPrice
                    facts.quantity = line.quantity
                }
            }
            return say(report.lines.isEmpty ? .empty : .listed) { $0.stock = report.lines }
        case .inspectPlayer:
            let offers = exchange.player.map(Self.appraisal(of:)) ?? []
            return offers.isEmpty ? say(.notWanted) : say(.appraised) { $0.appraisal = offers }
        case .offerTrade:
            return offerOutcome(exchange)
        case nil where exchange.gameAction != nil:
            return actionOutcome(exchange)
        case .giveItem, .acceptGift, nil:
            let result = exchange.action
            let success: DialogueOutcome = exchange.tool == .acceptGift ? .accepted : .given
            return say(result.isRefused || exchange.tool == nil ? .refused : success) { facts in
                if let text = exchange.request?.item, let item = resolver.item(named: text) {
                    facts.item = item
                }
                facts.quantity = exchange.request?.quantity ?? facts.quantity
                facts.summary = result.summary
                facts.reasons = result.reasons.map { SpokenRefusal.line(for: $0, in: world) }
            }
        }
    }

    /// The outcome of a call of one of the game's actions: its status, with what the game answered as `{result}` and
    /// its error or the refusal's reasons as `{reasons}`.
    private func actionOutcome(_ exchange: Conversation.Exchange) -> Step {
        let result = exchange.gameAction ?? .refused([exchange.text])
        return say(result.status.outcome) { facts in
            facts.result = result.output
            let reasons = result.error.map { [$0] } ?? result.reasons
            if !reasons.isEmpty { facts.reasons = reasons }
        }
    }

    /// A rule's own calls: made in order, one per round; a refusal stops the rest, and the outcome is that of the
    /// last call made.
    private func explicit(_ calls: [DialogueCall], values: [DialoguePlaceholder: String]) -> Step {
        guard !calls.isEmpty else { return say(situation) }
        guard calls.allSatisfy({ has($0.callee) }) else { return say(.unavailable) }
        let made = conversation.exchanges
        for (index, call) in calls.enumerated() {
            guard index < made.count, made[index].call.toolName == call.callee.name else {
                guard canCall else { return made.last.map(outcome(of:)) ?? say(situation) }
                return .call([(call.callee.name, Self.arguments(of: call, values: values))])
            }
            if isRefusal(made[index]) { return outcome(of: made[index]) }
        }
        return made.last.map(outcome(of:)) ?? say(situation)
    }

    /// Whether the game refused a call (or the tool answered in plain text, as for an error).
    private func isRefusal(_ exchange: Conversation.Exchange) -> Bool {
        switch exchange.tool {
        case .offerTrade, .giveItem, .acceptGift: exchange.action.isRefused
        case .lookUpStock, .inspectPlayer: exchange.output == nil
        case nil: exchange.gameAction.map { ![.answered, .told].contains($0.status) } ?? true
        }
    }

    /// A call's arguments with placeholders filled, written as the tool's arguments (`NPCToolCall`);
    /// `"{quantity}"`, `"{price}"` and `"{number}"` alone give numbers. Arguments that do not fit the tool's (only
    /// a rule built in code, not one a content pack loaded, can have them) are sent as they are, and the session
    /// answers that they are not valid.
    static func arguments(of call: DialogueCall, values: [DialoguePlaceholder: String]) -> GeneratedContent {
        let filled = GeneratedContent(jsonValue: .object(filledArguments(of: call, values: values)))
        guard let tool = call.tool else { return filled }
        return (try? NPCToolCall(tool: tool, arguments: filled))?.arguments ?? filled
    }

    /// A call's arguments with placeholders filled, as written.
    private static func filledArguments(of call: DialogueCall, values: [DialoguePlaceholder: String]) -> JSONObject {
        var arguments = JSONObject()
        for (name, value) in call.arguments.objectValue ?? JSONObject() {
            guard case .string(let text) = value else {
                arguments[name] = value
                continue
            }
            if let placeholder = ["{quantity}": DialoguePlaceholder.quantity, "{price}": .price, "{number}": .number][
                text]
            {
                let fallback = placeholder == .quantity ? 1 : 0
                arguments[name] = .integer(values[placeholder].flatMap { Int($0) } ?? fallback)
                continue
            }
            switch DialogueTemplate.parse(text) {
            case .success(let template): arguments[name] = .string(template.render { values[$0] ?? "" })
            case .failure: arguments[name] = value
            }
        }
        return arguments
    }
}

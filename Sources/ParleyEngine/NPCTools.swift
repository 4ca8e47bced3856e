import Foundation
import GameWorld
import LanguageModels
import NPCContract

// The tools an NPC's model may call. They act on the shared game state and never bypass the world's rules:
// trades go through `TradeRules`, gifts through `GameState.apply`. In the turn of a spoken line heard below its acting
// bar, the tools that act (`offerTrade`, `giveItem`, `acceptGift`, the game's actions) refuse with
// `RefusalReason.unclearSpeech`; those that only read (`lookUpStock`, `inspectPlayer`) answer as ever. Their names,
// arguments and outputs are the contract's types (`NPCContract`), so a language model reads the outputs as JSON and
// the scripted model reads them as data (see docs/npc-contract.md).

/// Builds the tools for one NPC.
package struct NPCToolbox: Sendable {
    let npc: NPCID
    let state: SharedGameState
    /// Called with each offer the rules refused, for feedback reports.
    let onRefusal: @Sendable (RefusedOffer) -> Void
    /// The game's action handler, for the game's own actions (`actions.json`); `nil` for a toolbox without them.
    var actionHandling: GameActionHandling?

    /// A toolbox for an NPC over the shared game state.
    ///
    /// - Parameters:
    ///   - npc: The NPC whose tools these are.
    ///   - state: The game state the tools read and change.
    ///   - onRefusal: Told of each offer the rules refused.
    package init(npc: NPCID, state: SharedGameState, onRefusal: @escaping @Sendable (RefusedOffer) -> Void) {
        self.npc = npc
        self.state = state
        self.onRefusal = onRefusal
    }

    /// The NPC's tools. Every NPC gets all five, traders or not: a model may try to trade anyway, and then the
    /// game refuses the offer (the NPC does not trade) and reports it, rather than the model never being caught.
    /// Then come the game's own actions that list the NPC (`World.actions(for:)`), in the order of their ids.
    package func tools() -> [any Tool] {
        let builtIn: [any Tool] = [
            LookUpStockTool(box: self), InspectPlayerTool(box: self), OfferTradeTool(box: self),
            GiveItemTool(box: self), AcceptGiftTool(box: self),
        ]
        return builtIn + state.game.world.actions(for: npc).map { GameActionTool(action: $0, box: self) }
    }
}

/// `lookUpStock {"item"?}`: what the NPC sells, at what price.
struct LookUpStockTool: Tool {
    let box: NPCToolbox
    let name = LookUpStock.tool.rawValue
    let description = LookUpStock.toolDescription

    func call(arguments: LookUpStock.Arguments) async throws -> LookUpStock.Output {
        let game = box.state.game
        guard let npc = game.world.npcs[box.npc] else { return StockReport(lines: []) }
        let world = game.world
        var wanted: Item?
        // A category word ("weapons", "something to eat") asks for the NPC's stock of that category.
        var category: String?
        var missing: String?
        if let text = arguments.item, !text.isEmpty {
            wanted = world.item(named: text, preferring: npc.inventory)
            if wanted == nil {
                let categories = Set(npc.inventory.compactMap { world.items[$0.item]?.category })
                // The NPC's own words for categories (an NPC may speak another language than the pack's).
                category = world.lexicon(for: npc.id).category(named: text, among: categories)
            }
            if category == nil, wanted == nil || !npc.inventory.contains(wanted!.id) || !npc.sells(wanted!) {
                missing = text
            }
        }
        var lines: [StockReport.Line] = []
        for stack in npc.inventory.sorted(by: { $0.item.rawValue < $1.item.rawValue }) {
            guard let item = world.items[stack.item], npc.sells(item) else { continue }
            if let wanted, wanted.id != item.id { continue }
            if let category, item.category != category { continue }
            lines.append(
                StockReport.Line(
                    item: item.id, name: item.name, quantity: stack.quantity,
                    price: npc.trade.askingPrice(forValue: item.value),
                    lowestPrice: npc.trade.lowestPrice(forValue: item.value)))
        }
        if category != nil, lines.isEmpty { missing = arguments.item }
        if missing != nil { lines = [] }
        return StockReport(lines: lines, missing: missing, buys: npc.trade.buys.sorted())
    }
}

/// `inspectPlayer {}`: what the player carries, and what the NPC would pay for it.
struct InspectPlayerTool: Tool {
    let box: NPCToolbox
    let name = InspectPlayer.tool.rawValue
    let description = InspectPlayer.toolDescription

    func call(arguments: InspectPlayer.Arguments) async throws -> InspectPlayer.Output {
        let game = box.state.game
        let npc = game.world.npcs[box.npc]
        var inventory: [PlayerReport.Line] = []
        for stack in game.player.inventory.sorted(by: { $0.item.rawValue < $1.item.rawValue }) {
            guard let item = game.world.items[stack.item] else { continue }
            inventory.append(
                PlayerReport.Line(
                    item: item.id, name: item.name, quantity: stack.quantity,
                    buyPrice: npc.flatMap { $0.buys(item) ? $0.trade.buyBackPrice(forValue: item.value) : nil }))
        }
        return PlayerReport(name: game.player.name, gold: game.player.gold, inventory: inventory)
    }
}

/// `offerTrade {"action", "item", "quantity", "price", "partExchange"?, "partExchangeQuantity"?}`: proposes a trade,
/// a swap when the player gives an item besides the gold; the game's rules decide.
struct OfferTradeTool: Tool {
    let box: NPCToolbox
    let name = OfferTrade.tool.rawValue
    let description = OfferTrade.toolDescription
    /// The contract's schema: models are asked for `OfferTrade.Arguments`.
    var parameters: GenerationSchema { OfferTrade.Arguments.generationSchema }

    /// What a model sent as the offer: the contract's arguments, or why they cannot be read. An offer the game
    /// cannot even read (an action other than sell or buy, no price) is still an offer the NPC made, so it is
    /// refused and reported like any other unexpected offer, not sent back as a bad call.
    struct Call: ConvertibleFromGeneratedContent {
        /// The arguments as the model sent them.
        let content: GeneratedContent
        /// The arguments read through the contract, or the error that says what is wrong with them.
        let arguments: Result<OfferTrade.Arguments, any Error>

        init(_ content: GeneratedContent) {
            self.content = content
            arguments = Result { try OfferTrade.Arguments(content) }
        }
    }

    func call(arguments call: Call) async throws -> OfferTrade.Output {
        if let reason = box.unclearSpeech { return box.holdBack(call, because: reason) }
        switch call.arguments {
        case .success(let arguments):
            return box.review(arguments)
        case .failure(let error):
            let reason = RefusalReason.unreadableOffer("\(error)")
            box.onRefusal(
                RefusedOffer(npc: box.npc, proposal: call.content.jsonString, offer: nil, reasons: [reason.message]))
            return .refused([reason])
        }
    }
}

extension NPCToolbox {
    /// Why the NPC may not act in this turn: the line it answers was spoken and heard below its acting bar
    /// (`SharedGameState.Contents.unclearSpeech`); `nil` when it may.
    var unclearSpeech: RefusalReason? {
        state.read { $0.unclearSpeech[npc] }.map { .unclearSpeech(heard: $0.text) }
    }

    /// Refuses an offer made in answer to a line heard too unsurely, before the trade guard could make it pending:
    /// recorded as a refused offer (with the trade it would have been, when its terms read), marked `unclearSpeech`
    /// so that no feedback report is filed for it.
    ///
    /// - Parameters:
    ///   - call: The offer as the model made it.
    ///   - reason: `RefusalReason.unclearSpeech`.
    /// - Returns: `refused`, for that reason alone.
    func holdBack(_ call: OfferTradeTool.Call, because reason: RefusalReason) -> ActionResult {
        var offer: TradeOffer?
        if case .success(let proposal) = call.arguments {
            let guardian = TradeGuard(quotes: [:], rules: state.rules)
            switch guardian.review(
                action: proposal.action, item: proposal.item, quantity: proposal.quantity ?? 1,
                price: proposal.price, npc: npc, in: state.game)
            {
            case .allowed(let allowed): offer = allowed
            case .refused(let refused, _): offer = refused
            }
        }
        var refusal = RefusedOffer(npc: npc, proposal: call.content.jsonString, offer: offer, reasons: [reason.message])
        refusal.unclearSpeech = true
        onRefusal(refusal)
        return .refused([reason])
    }

    /// Puts a proposal through the trade guard, with the rules the game was made with: a valid offer becomes the
    /// NPC's pending offer; a refused one is recorded for a feedback report.
    ///
    /// - Parameter proposal: The offer.
    /// - Returns: `pending` with the offer in words, or `refused` with every reason.
    func review(_ proposal: OfferTrade.Arguments) -> ActionResult {
        let game = state.game
        let guardian = TradeGuard(quotes: state.read { $0.quotes[npc] ?? [:] }, rules: state.rules)
        let verdict = guardian.review(
            action: proposal.action, item: proposal.item, quantity: proposal.quantity ?? 1, price: proposal.price,
            partExchange: proposal.partExchange.map { ($0, proposal.partExchangeQuantity ?? 1) }, npc: npc, in: game)
        switch verdict {
        case .refused(let offer, let reasons):
            onRefusal(
                RefusedOffer(
                    npc: npc, proposal: proposal.generatedContent.jsonString, offer: offer,
                    reasons: reasons.map(\.message)))
            return .refused(reasons)
        case .allowed(let offer):
            let summary = offer.summary(in: game.world)
            state.update { $0.pendingOffers[npc] = PendingOffer(offer: offer, summary: summary) }
            return ActionResult(status: .pending, summary: summary)
        }
    }
}

extension TradeOffer {
    /// The goods on one side in words: `1 Brass Lantern`, `2 × Bread, 1 Rope` (the lexicon's `goodsOne` and
    /// `goodsSeveral` texts).
    private static func goods(_ side: TradeSide, in world: World, lexicon: Lexicon = .english) -> String {
        side.items.map { stack in
            let item = world.name(of: stack.item)
            return stack.quantity == 1
                ? lexicon.text(.goodsOne, ["item": item])
                : lexicon.text(.goodsSeveral, ["item": item, "quantity": String(stack.quantity)])
        }
        .joined(separator: ", ")
    }

    /// The offer in words, in the language of the NPC who makes it (`World.lexicon(for:)`, its `offerBuy`,
    /// `offerSell` and `offerSwap` texts): `Mira Quickcoin offers 1 Brass Lantern for 20 gold.`, German `Greta Krämer
    /// bietet dir 1 Laterne für 15 Gold an.`
    package func summary(in world: World) -> String {
        let lexicon = world.lexicon(for: npc)
        let name = world.name(of: npc)
        func goods(_ side: TradeSide) -> String { Self.goods(side, in: world, lexicon: lexicon) }
        if playerGives.items.isEmpty, !npcGives.items.isEmpty {
            return lexicon.text(
                .offerBuy, ["npc": name, "goods": goods(npcGives), "price": String(playerGives.gold)])
        }
        if npcGives.items.isEmpty, !playerGives.items.isEmpty {
            return lexicon.text(
                .offerSell, ["npc": name, "goods": goods(playerGives), "price": String(npcGives.gold)])
        }
        // A side is its goods and its gold, the gold left out when there is none: "1 Silver Sword" for "1 Rusty
        // Sword and 100 gold", never "… and 0 gold".
        func side(_ side: TradeSide) -> String {
            let gold = side.gold > 0 ? [lexicon.text(.goldAmount, ["gold": String(side.gold)])] : []
            return lexicon.list(side.items.map { goods(TradeSide(items: [$0], gold: 0)) } + gold)
        }
        return lexicon.text(
            .offerSwap,
            [
                "npc": name, "npcSide": side(npcGives), "yourSide": side(playerGives),
                "goods": goods(npcGives), "gold": String(npcGives.gold),
                "yourGoods": goods(playerGives), "yourGold": String(playerGives.gold),
            ])
    }

    /// What the player did when the offer was accepted, from the player's side: `You buy 1 Brass Lantern for 20
    /// gold.`, `You sell 1 Rusty Sword for 8 gold.`, `You trade 1 Rope and 2 gold for 1 Lantern.`
    func accepted(in world: World) -> String {
        let (gets, gives) = (Self.goods(npcGives, in: world), Self.goods(playerGives, in: world))
        if playerGives.items.isEmpty, !npcGives.items.isEmpty, npcGives.gold == 0 {
            return "You buy \(gets) for \(playerGives.gold) gold."
        }
        if npcGives.items.isEmpty, !playerGives.items.isEmpty, playerGives.gold == 0 {
            return "You sell \(gives) for \(npcGives.gold) gold."
        }
        func side(_ goods: String, _ gold: Int) -> String {
            [goods.isEmpty ? nil : goods, gold > 0 ? "\(gold) gold" : nil].compactMap { $0 }.joined(separator: " and ")
        }
        return "You trade \(side(gives, playerGives.gold)) for \(side(gets, npcGives.gold))."
    }
}

/// `giveItem {"item", "quantity"}`: the NPC gives the player an item.
struct GiveItemTool: Tool {
    let box: NPCToolbox
    let name = GiveItem.tool.rawValue
    let description = GiveItem.toolDescription

    func call(arguments: GiveItem.Arguments) async throws -> GiveItem.Output {
        if let reason = box.unclearSpeech { return .refused([reason]) }
        let game = box.state.game
        let npc = game.world.npcs[box.npc]
        guard let item = game.world.item(named: arguments.item, preferring: npc?.inventory) else {
            return .refused([.noSuchItem(arguments.item)])
        }
        if let npc, npc.trade.neverSells.contains(item.id) {
            return .refused([.neverPartsWith(npc: npc.name, item: item.name)])
        }
        let quantity = arguments.quantity ?? 1
        do {
            try box.state.apply(.received(item: item.id, quantity: quantity, from: box.npc))
        } catch {
            return .refused([.effectRefused(error)])
        }
        let summary = game.world.lexicon(for: box.npc).text(
            .given, ["npc": game.world.name(of: box.npc), "item": item.name, "quantity": String(quantity)])
        return ActionResult(status: .given, summary: summary)
    }
}

/// `acceptGift {"item", "quantity"}`: the NPC takes an item the player offered.
struct AcceptGiftTool: Tool {
    let box: NPCToolbox
    let name = AcceptGift.tool.rawValue
    let description = AcceptGift.toolDescription

    func call(arguments: AcceptGift.Arguments) async throws -> AcceptGift.Output {
        if let reason = box.unclearSpeech { return .refused([reason]) }
        let game = box.state.game
        guard let item = game.world.item(named: arguments.item, preferring: game.player.inventory) else {
            return .refused([.noSuchItem(arguments.item)])
        }
        let quantity = arguments.quantity ?? 1
        // A gift the player does not carry is refused with a reason the NPC can say in its own words ("You don't
        // have any Wedge of Cheese."), not the game event's message, which is written for a model to read.
        let held = game.player.inventory.quantity(of: item.id)
        guard held >= quantity else {
            return .refused([
                .tradeRule(.playerLacksItem(item: item.id, requested: quantity, available: held), in: game.world)
            ])
        }
        do {
            try box.state.apply(.gave(item: item.id, quantity: quantity, to: box.npc))
        } catch {
            return .refused([.effectRefused(error)])
        }
        let summary = game.world.lexicon(for: box.npc).text(
            .giftAccepted, ["player": game.player.name, "item": item.name, "quantity": String(quantity)])
        return ActionResult(status: .accepted, summary: summary)
    }
}

extension NPC {
    /// Whether the NPC sells this item: it trades, sells its category, may part with it, and it is tradeable.
    func sells(_ item: Item) -> Bool {
        trade.trades && item.isTradeable && trade.sells.contains(item.category) && !trade.neverSells.contains(item.id)
    }

    /// Whether the NPC buys this item: it trades, buys its category, and it is tradeable.
    func buys(_ item: Item) -> Bool {
        trade.trades && item.isTradeable && trade.buys.contains(item.category)
    }
}

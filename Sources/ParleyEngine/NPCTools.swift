import Foundation
import GameWorld
import LanguageModels

// The tools an NPC's model may call. They act on the shared game state and never bypass the world's rules:
// trades go through `TradeRules`, gifts through `GameState.apply`. Their outputs are structured content, so a
// language model reads them as JSON and the scripted model reads them as data (see docs/modding.md).

/// The names of the NPC tools, shared with the scripted model.
public enum NPCToolName {
    /// Looks up the NPC's stock and prices.
    public static let lookUpStock = "lookUpStock"
    /// Looks at what the player carries.
    public static let inspectPlayer = "inspectPlayer"
    /// Proposes a trade; the game decides whether it is allowed.
    public static let offerTrade = "offerTrade"
    /// Gives the player an item for free.
    public static let giveItem = "giveItem"
    /// Takes an item the player offered.
    public static let acceptGift = "acceptGift"
}

/// Builds the tools for one NPC.
struct NPCToolbox {
    let npc: NPCID
    let state: SharedGameState
    /// Called with each offer the rules refused, for feedback reports.
    let onRefusal: @Sendable (RefusedOffer) -> Void

    /// The NPC's tools. Every NPC gets all five, traders or not: a model may try to trade anyway, and then the
    /// game refuses the offer (the NPC does not trade) and reports it, rather than the model never being caught.
    func tools() -> [any Tool] {
        [
            LookUpStockTool(box: self), InspectPlayerTool(box: self), OfferTradeTool(box: self),
            GiveItemTool(box: self), AcceptGiftTool(box: self),
        ]
    }

    func refused(_ reasons: [String], proposal: String, offer: TradeOffer?) -> GeneratedContent {
        onRefusal(RefusedOffer(npc: npc, proposal: proposal, offer: offer, reasons: reasons))
        return GeneratedContent(properties: ["status": "refused", "reasons": reasons])
    }
}

/// `lookUpStock {"item"?}`: what the NPC sells, at what price.
struct LookUpStockTool: Tool {
    let box: NPCToolbox
    let name = NPCToolName.lookUpStock
    let description = "Looks up what you have for sale and the prices. Give an item to look up just that one."

    struct Arguments: CodableGenerable {
        var item: String?
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(
                        name: "item", description: "The item to look up; leave out for everything", type: String?.self)
                ])
        }
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        let game = box.state.game
        guard let npc = game.world.npcs[box.npc] else { return GeneratedContent(properties: ["items": [String]()]) }
        let world = game.world
        var wanted: Item?
        var missing: String?
        if let text = arguments.item, !text.isEmpty {
            wanted = world.item(named: text, preferring: npc.inventory)
            if wanted == nil || !npc.inventory.contains(wanted!.id) || !npc.sells(wanted!) { missing = text }
        }
        var items: [GeneratedContent] = []
        for stack in npc.inventory.sorted(by: { $0.item.rawValue < $1.item.rawValue }) {
            guard let item = world.items[stack.item], npc.sells(item) else { continue }
            if let wanted, wanted.id != item.id { continue }
            items.append(
                GeneratedContent(properties: [
                    "item": item.id.rawValue, "name": item.name, "quantity": stack.quantity,
                    "price": npc.trade.askingPrice(forValue: item.value),
                    "lowestPrice": npc.trade.lowestPrice(forValue: item.value),
                ]))
        }
        if missing != nil { items = [] }
        var properties: [(String, any ConvertibleToGeneratedContent)] = [
            ("items", GeneratedContent(elements: items.map { $0 as any ConvertibleToGeneratedContent }))
        ]
        if let missing { properties.append(("missing", missing)) }
        properties.append(("buys", npc.trade.buys.sorted()))
        return GeneratedContent(properties: properties, uniquingKeysWith: { a, _ in a })
    }
}

/// `inspectPlayer {}`: what the player carries, and what the NPC would pay for it.
struct InspectPlayerTool: Tool {
    let box: NPCToolbox
    let name = NPCToolName.inspectPlayer
    let description = "Looks at what the player carries and how much gold they have."

    struct Arguments: CodableGenerable {
        static var generationSchema: GenerationSchema { GenerationSchema(type: Arguments.self, properties: []) }
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        let game = box.state.game
        let npc = game.world.npcs[box.npc]
        var inventory: [GeneratedContent] = []
        for stack in game.player.inventory.sorted(by: { $0.item.rawValue < $1.item.rawValue }) {
            guard let item = game.world.items[stack.item] else { continue }
            var properties: [(String, any ConvertibleToGeneratedContent)] = [
                ("item", item.id.rawValue), ("name", item.name), ("quantity", stack.quantity),
            ]
            if let npc, npc.buys(item) { properties.append(("buyPrice", npc.trade.buyBackPrice(forValue: item.value))) }
            inventory.append(GeneratedContent(properties: properties, uniquingKeysWith: { a, _ in a }))
        }
        return GeneratedContent(properties: [
            "name": game.player.name, "gold": game.player.gold,
            "inventory": GeneratedContent(elements: inventory.map { $0 as any ConvertibleToGeneratedContent }),
        ])
    }
}

/// `offerTrade {"action", "item", "quantity", "price"}`: proposes a trade; the game's rules decide.
struct OfferTradeTool: Tool {
    let box: NPCToolbox
    let name = NPCToolName.offerTrade
    let description =
        "Offers the player a trade. action \"sell\": you sell them the item for price gold in total; \"buy\": you buy "
        + "it from them for price gold. The game checks the offer against your stock, their purse and your prices."

    struct Arguments: CodableGenerable {
        var action: String
        var item: String
        var quantity: Int?
        var price: Int
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(name: "action", type: String.self, guides: [.anyOf(["sell", "buy"])]),
                    .init(name: "item", type: String.self),
                    .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                    .init(
                        name: "price", description: "Gold for all of them together", type: Int.self,
                        guides: [.minimum(0)]),
                ])
        }
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        box.review(
            OfferProposal(
                action: arguments.action, item: arguments.item, quantity: arguments.quantity, price: arguments.price)
        ).content
    }
}

extension NPCToolbox {
    /// The guard's answer to a proposal, as the tool's output.
    struct Review {
        var status: String
        var reasons: [String]
        var content: GeneratedContent
    }

    /// Puts a proposal through the trade guard, with the rules the game was made with: a valid offer becomes the
    /// NPC's pending offer; a refused one is recorded for a feedback report.
    func review(_ proposal: OfferProposal) -> Review {
        let text = proposal.generatedContent.jsonString
        let game = state.game
        let guardian = TradeGuard(quotes: state.read { $0.quotes[npc] ?? [:] }, rules: state.rules)
        let verdict = guardian.review(
            action: proposal.action, item: proposal.item, quantity: proposal.quantity ?? 1, price: proposal.price,
            npc: npc, in: game)
        switch verdict {
        case .refused(let offer, let reasons):
            return Review(status: "refused", reasons: reasons, content: refused(reasons, proposal: text, offer: offer))
        case .allowed(let offer):
            let summary = offer.summary(in: game.world)
            state.update { $0.pendingOffers[npc] = PendingOffer(offer: offer, summary: summary) }
            return Review(
                status: "pending", reasons: [],
                content: GeneratedContent(properties: ["status": "pending", "summary": summary]))
        }
    }
}

extension TradeOffer {
    /// The offer in words: `Mira Quickcoin offers 1 Brass Lantern for 20 gold.`
    func summary(in world: World) -> String {
        let name = world.name(of: npc)
        func goods(_ side: TradeSide) -> String {
            side.items.map {
                $0.quantity == 1 ? "1 \(world.name(of: $0.item))" : "\($0.quantity) × \(world.name(of: $0.item))"
            }
            .joined(separator: ", ")
        }
        if playerGives.items.isEmpty, !npcGives.items.isEmpty {
            return "\(name) offers \(goods(npcGives)) for \(playerGives.gold) gold."
        }
        if npcGives.items.isEmpty, !playerGives.items.isEmpty {
            return "\(name) offers \(npcGives.gold) gold for your \(goods(playerGives))."
        }
        return
            "\(name) offers \(goods(npcGives)) and \(npcGives.gold) gold for your \(goods(playerGives)) and \(playerGives.gold) gold."
    }
}

/// `giveItem {"item", "quantity"}`: the NPC gives the player an item.
struct GiveItemTool: Tool {
    let box: NPCToolbox
    let name = NPCToolName.giveItem
    let description = "Gives the player one of your items for free."

    struct Arguments: CodableGenerable {
        var item: String
        var quantity: Int?
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(name: "item", type: String.self),
                    .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                ])
        }
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        let game = box.state.game
        let npc = game.world.npcs[box.npc]
        guard let item = game.world.item(named: arguments.item, preferring: npc?.inventory) else {
            return GeneratedContent(properties: [
                "status": "refused", "reasons": ["There is no such item as \"\(arguments.item)\"."],
            ])
        }
        if let npc, npc.trade.neverSells.contains(item.id) {
            return GeneratedContent(properties: [
                "status": "refused", "reasons": ["\(npc.name) never parts with the \(item.name)."],
            ])
        }
        let quantity = arguments.quantity ?? 1
        do {
            try box.state.apply(.received(item: item.id, quantity: quantity, from: box.npc))
        } catch {
            return GeneratedContent(properties: ["status": "refused", "reasons": [error.message]])
        }
        return GeneratedContent(properties: [
            "status": "given", "summary": "\(game.world.name(of: box.npc)) gives you \(quantity) × \(item.name).",
        ])
    }
}

/// `acceptGift {"item", "quantity"}`: the NPC takes an item the player offered.
struct AcceptGiftTool: Tool {
    let box: NPCToolbox
    let name = NPCToolName.acceptGift
    let description = "Takes an item the player offers you as a gift."

    struct Arguments: CodableGenerable {
        var item: String
        var quantity: Int?
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(name: "item", type: String.self),
                    .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                ])
        }
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        let game = box.state.game
        guard let item = game.world.item(named: arguments.item, preferring: game.player.inventory) else {
            return GeneratedContent(properties: [
                "status": "refused", "reasons": ["There is no such item as \"\(arguments.item)\"."],
            ])
        }
        let quantity = arguments.quantity ?? 1
        do {
            try box.state.apply(.gave(item: item.id, quantity: quantity, to: box.npc))
        } catch {
            return GeneratedContent(properties: ["status": "refused", "reasons": [error.message]])
        }
        return GeneratedContent(properties: [
            "status": "accepted", "summary": "\(game.player.name) gives you \(quantity) × \(item.name).",
        ])
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

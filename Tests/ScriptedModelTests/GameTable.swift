import Foundation
import GameWorld
import LanguageModels
import ScriptedModel
import Synchronization
import Testing

/// A game for tests: a real `GameState` under `TradeRules`, with stub NPC tools that implement the engine's tool
/// contract (`lookUpStock`, `inspectPlayer`, `offerTrade`, `giveItem`, `acceptGift`) for one NPC, and helpers to
/// talk to that NPC through a real `LanguageModelSession` driven by a `ScriptedModel`.
final class GameTable: Sendable {
    /// The pending offer the NPC made.
    struct Pending: Sendable {
        let offer: TradeOffer
        let summary: String
    }

    struct State: Sendable {
        var game: GameState
        var pending: Pending?
        var calls: [String] = []
    }

    let npc: NPCID
    let rules = TradeRules.standard
    let state: Mutex<State>

    /// A table for one NPC, with the player moved to the NPC.
    init(_ game: GameState, npc: NPCID) throws {
        var game = game
        let location = try #require(game.world.npcs[npc]).location
        if game.player.location != location {
            game = GameState(
                world: game.world,
                player: Player(
                    name: game.player.name, location: location, gold: game.player.gold,
                    inventory: game.player.inventory))
        }
        self.npc = npc
        state = Mutex(State(game: game))
    }

    var game: GameState { state.withLock { $0.game } }
    var pending: Pending? { state.withLock { $0.pending } }
    /// The tools called, in order, as `name(arguments)`.
    var calls: [String] { state.withLock { $0.calls } }

    /// All five NPC tools.
    var tools: [any Tool] {
        [
            LookUpStock(table: self), InspectPlayer(table: self), OfferTrade(table: self), GiveItem(table: self),
            AcceptGift(table: self),
        ]
    }

    /// The tools a guard on duty gets: none that trade.
    var guardTools: [any Tool] { [InspectPlayer(table: self)] }

    // MARK: - Sessions

    /// A session with the NPC, its instructions holding the game context at first contact.
    func session(seed: UInt64 = 0, tools: [any Tool]? = nil) throws -> LanguageModelSession {
        let game = self.game
        let npc = try #require(game.world.npcs[self.npc])
        let model = ScriptedModel(npc: npc, world: game.world, seed: seed)
        let context = Structured.GameContext(
            content: GeneratedContent(properties: [
                "npc": npc.id.rawValue,
                "player": GeneratedContent(properties: [
                    "name": game.player.name, "gold": game.player.gold,
                    "inventory": GeneratedContent(
                        elements: game.player.inventory.stacks.map { stack -> any ConvertibleToGeneratedContent in
                            GeneratedContent(properties: ["item": stack.item.rawValue, "quantity": stack.quantity])
                        }),
                ]),
                "location": game.player.location.rawValue,
            ]))
        return LanguageModelSession(
            model: model, tools: tools ?? self.tools,
            instructions: Instructions {
                "You are \(npc.name). \(npc.persona)"
                context
            })
    }

    /// The prompt of a game event: text for language models and a `GameEvent` structure.
    static func event(_ text: String, _ content: GeneratedContent) -> Prompt {
        Prompt {
            text
            Structured.GameEvent(content: content)
        }
    }

    /// The player accepts the pending offer: the trade is applied; returns the event prompt for the NPC.
    func acceptPending() throws -> Prompt {
        let pending = try #require(self.pending)
        try state.withLock { state in
            try state.game.apply(.traded(offer: pending.offer), rules: rules)
            state.pending = nil
        }
        return Self.event(
            "(You accept: \(pending.summary))",
            GeneratedContent(properties: ["event": "offerAccepted", "summary": pending.summary]))
    }

    /// The player declines the pending offer.
    func declinePending() throws -> Prompt {
        let pending = try #require(self.pending)
        state.withLock { $0.pending = nil }
        return Self.event(
            "(You decline: \(pending.summary))",
            GeneratedContent(properties: ["event": "offerDeclined", "summary": pending.summary]))
    }

    /// The player gives the NPC an item (the `give` command): applied, then the event prompt.
    func give(_ item: ItemID, quantity: Int = 1) throws -> Prompt {
        try state.withLock { try $0.game.apply(.gave(item: item, quantity: quantity, to: npc), rules: rules) }
        let name = game.world.name(of: item)
        return Self.event(
            "(\(game.player.name) gives you the \(name).)",
            GeneratedContent(properties: ["event": "gave", "item": item.rawValue, "quantity": quantity]))
    }

    /// Puts an item in the player's inventory, as if found.
    func playerFinds(_ item: ItemID, quantity: Int = 1) throws {
        try state.withLock { state in
            var world = state.game.world
            var location = try #require(world.locations[state.game.player.location])
            location.items.add(item, quantity: quantity)
            world.locations[location.id] = location
            let moved = GameState(world: world, player: state.game.player)
            state.game = try moved.applying(
                .tookItem(item: item, quantity: quantity, from: location.id), rules: rules)
        }
    }

    static let arrived = event("(You walk up.)", GeneratedContent(properties: ["event": "arrived"]))
    static let left = event("(You leave.)", GeneratedContent(properties: ["event": "left"]))

    // MARK: - The tool contract

    func log(_ name: String, _ arguments: GeneratedContent) {
        state.withLock { $0.calls.append("\(name)(\(arguments.jsonString))") }
    }

    func resolve(_ text: String, in world: World) -> ItemID? {
        if world.items[ItemID(text)] != nil { return ItemID(text) }
        let named = world.items.values.filter { $0.isNamed(text) }
        return named.count == 1 ? named[0].id : nil
    }

    func stock(item: String?) -> GeneratedContent {
        let game = self.game
        let npc = game.world.npcs[self.npc]!
        let policy = npc.trade
        var lines: [(ItemID, Int)] = []
        if policy.trades {
            for stack in npc.inventory.stacks {
                guard let known = game.world.items[stack.item], known.isTradeable,
                    policy.sells.contains(known.category),
                    !policy.neverSells.contains(stack.item)
                else { continue }
                lines.append((stack.item, stack.quantity))
            }
        }
        var missing: String?
        if let item {
            if let id = resolve(item, in: game.world), let line = lines.first(where: { $0.0 == id }) {
                lines = [line]
            } else {
                lines = []
                missing = item
            }
        }
        let items = lines.map { id, quantity -> any ConvertibleToGeneratedContent in
            let value = game.world.items[id]!.value
            return GeneratedContent(properties: [
                "item": id.rawValue, "name": game.world.name(of: id), "quantity": quantity,
                "price": policy.askingPrice(forValue: value), "lowestPrice": policy.lowestPrice(forValue: value),
            ])
        }
        let buys = policy.buys.sorted().map { $0 as any ConvertibleToGeneratedContent }
        if let missing {
            return GeneratedContent(properties: [
                "items": GeneratedContent(elements: items), "missing": missing,
                "buys": GeneratedContent(elements: buys),
            ])
        }
        return GeneratedContent(properties: [
            "items": GeneratedContent(elements: items), "buys": GeneratedContent(elements: buys),
        ])
    }

    func player() -> GeneratedContent {
        let game = self.game
        let policy = game.world.npcs[npc]!.trade
        let inventory = game.player.inventory.stacks.map { stack -> any ConvertibleToGeneratedContent in
            let item = game.world.items[stack.item]!
            if policy.trades, policy.buys.contains(item.category), item.isTradeable {
                return GeneratedContent(properties: [
                    "item": stack.item.rawValue, "name": item.name, "quantity": stack.quantity,
                    "buyPrice": policy.buyBackPrice(forValue: item.value),
                ])
            }
            return GeneratedContent(properties: [
                "item": stack.item.rawValue, "name": item.name, "quantity": stack.quantity,
            ])
        }
        return GeneratedContent(properties: [
            "name": game.player.name, "gold": game.player.gold, "inventory": GeneratedContent(elements: inventory),
        ])
    }

    func refused(_ reasons: [String]) -> GeneratedContent {
        GeneratedContent(properties: [
            "status": "refused",
            "reasons": GeneratedContent(elements: reasons.map { $0 as any ConvertibleToGeneratedContent }),
        ])
    }

    func offer(_ arguments: GeneratedContent) -> GeneratedContent {
        let game = self.game
        let npc = game.world.npcs[self.npc]!
        let action = arguments.string("action")
        let text = arguments.string("item") ?? ""
        let quantity = arguments.integer("quantity") ?? 1
        let price = arguments.integer("price") ?? 0
        guard let item = resolve(text, in: game.world) else { return refused(["There is no item \"\(text)\"."]) }
        let offer =
            action == "buy"
            ? TradeOffer.selling(item, quantity: quantity, to: npc.id, for: price)
            : TradeOffer.buying(item, quantity: quantity, from: npc.id, for: price)
        let verdict = rules.validate(offer, in: game)
        guard verdict.isAccepted else {
            return refused(verdict.rejections.map { $0.explanation(in: game.world) })
        }
        let first = npc.name.split(separator: " ").first.map(String.init) ?? npc.name
        let summary =
            action == "buy"
            ? "\(first) offers \(price) gold for \(quantity) \(game.world.name(of: item))."
            : "\(first) offers \(quantity) \(game.world.name(of: item)) for \(price) gold."
        state.withLock { $0.pending = Pending(offer: offer, summary: summary) }
        return GeneratedContent(properties: ["status": "pending", "summary": summary])
    }

    func move(_ arguments: GeneratedContent, gift: Bool) -> GeneratedContent {
        let game = self.game
        let text = arguments.string("item") ?? ""
        let quantity = arguments.integer("quantity") ?? 1
        guard let item = resolve(text, in: game.world) else { return refused(["There is no item \"\(text)\"."]) }
        let event: GameEvent =
            gift
            ? .gave(item: item, quantity: quantity, to: npc) : .received(item: item, quantity: quantity, from: npc)
        do {
            try state.withLock { try $0.game.apply(event, rules: rules) }
        } catch let error as GameEventError {
            return refused([error.message])
        } catch {
            return refused(["\(error)"])
        }
        let name = game.world.name(of: item)
        return GeneratedContent(properties: [
            "status": gift ? "accepted" : "given",
            "summary": gift ? "You take the \(name)." : "You give the player the \(name).",
        ])
    }
}

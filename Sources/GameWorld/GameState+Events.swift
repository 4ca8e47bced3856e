extension GameState {
    // MARK: - Applying events

    /// Applies one event: checks it against the rules and the state, then changes the state, or throws and
    /// changes nothing.
    ///
    /// What each event checks is described on its case in `GameEvent`. Quantities and gold amounts must be at
    /// least 1 and at most the rules' limits; no purse or inventory may end above `GameLimits` (code
    /// `limitExceeded`); trades must pass `rules.validate(_:in:)`; story events are checked by `applyStory(_:to:)`
    /// (names well formed, quests and stages known, quests moving forward only). All arithmetic is
    /// overflow-checked: no amount, however large, traps.
    ///
    /// - Parameters:
    ///   - event: The event to apply.
    ///   - rules: The trade rules and limits; `.standard` by default.
    /// - Throws: `GameEventError` saying exactly what does not fit; the state is then unchanged.
    public mutating func apply(_ event: GameEvent, rules: TradeRules = .standard) throws(GameEventError) {
        var world = self.world
        var player = self.player
        var story = self.story
        let fail = { (code: GameEventError.Code, message: String) in
            GameEventError(code, event: event, message: message)
        }

        func requireLocation(_ id: LocationID) throws(GameEventError) -> Location {
            guard let location = world.locations[id] else {
                throw fail(.unknownLocation, "there is no location \"\(id)\"")
            }
            return location
        }
        func requireItem(_ id: ItemID) throws(GameEventError) {
            guard world.items[id] != nil else { throw fail(.unknownItem, "there is no item \"\(id)\"") }
        }
        func requireQuantity(_ quantity: Int, of what: String) throws(GameEventError) {
            guard quantity >= 1, quantity <= rules.maximumQuantity else {
                throw fail(
                    .invalidQuantity,
                    "the quantity of \(what) must be from 1 to \(rules.maximumQuantity), not \(quantity)")
            }
        }
        func requireGold(_ amount: Int) throws(GameEventError) {
            guard amount >= 1, amount <= rules.maximumGold else {
                throw fail(.invalidQuantity, "an amount of gold must be from 1 to \(rules.maximumGold), not \(amount)")
            }
        }
        func requireNPCHere(_ id: NPCID) throws(GameEventError) -> NPC {
            guard let npc = world.npcs[id] else { throw fail(.unknownNPC, "there is no NPC \"\(id)\"") }
            guard npc.location == player.location else {
                throw fail(.npcNotPresent, "\(id) is at \(npc.location), not with the player at \(player.location)")
            }
            return npc
        }
        /// The inventory's new quantity of `item` with `quantity` more, if it stays within `GameLimits`.
        func requireRoom(
            for quantity: Int, of item: ItemID, in inventory: Inventory, of holder: String
        ) throws(GameEventError) {
            let held = inventory.quantity(of: item)
            guard GameLimits.sum(held, adding: quantity, within: GameLimits.maximumQuantity) != nil else {
                throw fail(
                    .limitExceeded,
                    "\(holder) has \(held) × \(item) and cannot hold \(quantity) more: an inventory holds at most "
                        + "\(GameLimits.maximumQuantity) of an item")
            }
        }
        /// The purse's new gold with `amount` more, if it stays within `GameLimits`.
        func purse(_ held: Int, adding amount: Int, of holder: String) throws(GameEventError) -> Int {
            guard let total = GameLimits.sum(held, adding: amount, within: GameLimits.maximumGold) else {
                throw fail(
                    .limitExceeded,
                    "\(holder) has \(held) gold and cannot hold \(amount) more: a purse holds at most "
                        + "\(GameLimits.maximumGold) gold")
            }
            return total
        }
        func requirePlayerHas(_ item: ItemID, _ quantity: Int) throws(GameEventError) {
            let held = player.inventory.quantity(of: item)
            guard held >= quantity else {
                throw fail(.playerLacksItem, "the player has \(held) × \(item), not \(quantity)")
            }
        }

        switch event {
        case .moved(let from, let to):
            let origin = try requireLocation(from)
            _ = try requireLocation(to)
            guard player.location == from else {
                throw fail(.wrongLocation, "the player is at \(player.location), not at \(from)")
            }
            guard let exit = origin.exit(to: to) else { throw fail(.noExit, "there is no exit from \(from) to \(to)") }
            if let needed = exit.requiredItem, !player.inventory.contains(needed) {
                throw fail(
                    .exitBlocked,
                    "the way \(exit.direction) from \(from) needs \(needed), which the player does not carry")
            }
            player.location = to

        case .tookItem(let item, let quantity, let from):
            var location = try requireLocation(from)
            try requireItem(item)
            try requireQuantity(quantity, of: item.rawValue)
            guard player.location == from else {
                throw fail(.wrongLocation, "the player is at \(player.location), not at \(from)")
            }
            let lying = location.items.quantity(of: item)
            guard lying >= quantity else {
                throw fail(.itemNotHere, "\(from) has \(lying) × \(item) lying there, not \(quantity)")
            }
            try requireRoom(for: quantity, of: item, in: player.inventory, of: "the player")
            location.items.remove(item, quantity: quantity)
            player.inventory.add(item, quantity: quantity)
            world.locations[from] = location

        case .droppedItem(let item, let quantity, let at):
            var location = try requireLocation(at)
            try requireItem(item)
            try requireQuantity(quantity, of: item.rawValue)
            guard player.location == at else {
                throw fail(.wrongLocation, "the player is at \(player.location), not at \(at)")
            }
            try requirePlayerHas(item, quantity)
            try requireRoom(for: quantity, of: item, in: location.items, of: at.rawValue)
            player.inventory.remove(item, quantity: quantity)
            location.items.add(item, quantity: quantity)
            world.locations[at] = location

        case .gave(let item, let quantity, let to):
            try requireItem(item)
            try requireQuantity(quantity, of: item.rawValue)
            var npc = try requireNPCHere(to)
            try requirePlayerHas(item, quantity)
            try requireRoom(for: quantity, of: item, in: npc.inventory, of: to.rawValue)
            player.inventory.remove(item, quantity: quantity)
            npc.inventory.add(item, quantity: quantity)
            world.npcs[to] = npc

        case .received(let item, let quantity, let from):
            try requireItem(item)
            try requireQuantity(quantity, of: item.rawValue)
            var npc = try requireNPCHere(from)
            let held = npc.inventory.quantity(of: item)
            guard held >= quantity else { throw fail(.npcLacksItem, "\(from) has \(held) × \(item), not \(quantity)") }
            try requireRoom(for: quantity, of: item, in: player.inventory, of: "the player")
            npc.inventory.remove(item, quantity: quantity)
            player.inventory.add(item, quantity: quantity)
            world.npcs[from] = npc

        case .paidGold(let amount, let to):
            try requireGold(amount)
            var npc = try requireNPCHere(to)
            guard player.gold >= amount else {
                throw fail(.playerLacksGold, "the player has \(player.gold) gold, not \(amount)")
            }
            npc.gold = try purse(npc.gold, adding: amount, of: to.rawValue)
            player.gold -= amount
            world.npcs[to] = npc

        case .receivedGold(let amount, let from):
            try requireGold(amount)
            var npc = try requireNPCHere(from)
            guard npc.gold >= amount else { throw fail(.npcLacksGold, "\(from) has \(npc.gold) gold, not \(amount)") }
            player.gold = try purse(player.gold, adding: amount, of: "the player")
            npc.gold -= amount
            world.npcs[from] = npc

        case .traded(let offer):
            let verdict = rules.validate(offer, in: self)
            guard verdict.isAccepted else {
                let reasons = verdict.rejections
                throw GameEventError(
                    .tradeRejected, event: event,
                    message: "the trade was rejected: "
                        + reasons.map { $0.explanation(in: world) }.joined(separator: " "),
                    tradeRejections: reasons)
            }
            var npc = world.npcs[offer.npc]!
            for stack in offer.playerGives.items {
                player.inventory.remove(stack.item, quantity: stack.quantity)
                npc.inventory.add(stack.item, quantity: stack.quantity)
            }
            for stack in offer.npcGives.items {
                npc.inventory.remove(stack.item, quantity: stack.quantity)
                player.inventory.add(stack.item, quantity: stack.quantity)
            }
            // The rules checked every amount and what each side ends with; the arithmetic is checked all the same.
            let (playerGold, playerOverflow) = player.gold.subtractingReportingOverflow(offer.playerGives.gold)
            let (npcGold, npcOverflow) = npc.gold.subtractingReportingOverflow(offer.npcGives.gold)
            guard !playerOverflow, !npcOverflow else {
                throw fail(.limitExceeded, "the gold of the trade does not fit in a purse")
            }
            player.gold = try purse(playerGold, adding: offer.npcGives.gold, of: "the player")
            npc.gold = try purse(npcGold, adding: offer.playerGives.gold, of: offer.npc.rawValue)
            world.npcs[offer.npc] = npc

        case .npcMoved(let id, let from, let to):
            guard var npc = world.npcs[id] else { throw fail(.unknownNPC, "there is no NPC \"\(id)\"") }
            _ = try requireLocation(from)
            _ = try requireLocation(to)
            guard npc.location == from else {
                throw fail(.wrongLocation, "\(id) is at \(npc.location), not at \(from)")
            }
            npc.location = to
            world.npcs[id] = npc

        case .setFlag, .clearedFlag, .changedCounter, .setCounter, .changedAttitude, .advancedQuest, .firedBeat:
            try Self.applyStory(event, to: &story, in: world)
        }
        story.recordDealings(of: event)
        commit(world: world, player: player, story: story)
    }

    /// The state after applying `event`; this state is left as it is.
    ///
    /// - Parameters:
    ///   - event: The event to apply.
    ///   - rules: The trade rules and limits; `.standard` by default.
    /// - Returns: The new state.
    /// - Throws: `GameEventError` when the event does not fit the state.
    public func applying(_ event: GameEvent, rules: TradeRules = .standard) throws(GameEventError) -> GameState {
        var state = self
        try state.apply(event, rules: rules)
        return state
    }

    /// Rebuilds a state by applying events in order to a starting state.
    ///
    /// - Parameters:
    ///   - events: The events, oldest first.
    ///   - start: The state to start from, usually `ContentPack.initialState`.
    ///   - rules: The trade rules and limits; `.standard` by default.
    /// - Returns: The state after every event.
    /// - Throws: `GameEventError` for the first event that does not fit, with its `eventIndex` set.
    public static func replaying(
        _ events: some Sequence<GameEvent>, from start: GameState, rules: TradeRules = .standard
    ) throws(GameEventError) -> GameState {
        var state = start
        for (index, event) in events.enumerated() {
            do {
                try state.apply(event, rules: rules)
            } catch {
                var error = error
                error.eventIndex = index
                throw error
            }
        }
        return state
    }
}

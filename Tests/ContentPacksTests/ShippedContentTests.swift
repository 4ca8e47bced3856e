import ContentPacks
import GameWorld
import GameWorldFixtures
import Testing

/// The shipped pack, `Content/`: it checks clean, has what the game needs, and can be won.
@Suite struct ShippedContentTests {
    @Test func theShippedPackHasNoErrorsOrWarnings() throws {
        let result = ContentPack.load(
            from: TestWorld.packageRoot.appendingPathComponent("Content"), displayPath: "Content")
        #expect(result.diagnostics.map(\.description) == [])
        #expect(ContentCheckReport(result).summary == "Content: 8 locations, 6 NPCs, 30 items; 0 errors, 0 warnings")
    }

    @Test func itIsAMarketTownWorthExploring() throws {
        let world = try TestWorld.shippedPack().world
        #expect(world.id == "brackenford")
        #expect(world.locations.count >= 5)
        #expect(world.npcs.count >= 5)
        #expect(world.items.count >= 20)
        #expect(world.items.values.allSatisfy { $0.value >= 0 && !$0.description.isEmpty })
        let quest = world.items.values.filter(\.isQuestItem)
        #expect(quest.map(\.id) == ["moonpetal_locket"])
        #expect(Set(world.npcs.values.map(\.persona)).count == world.npcs.count)
    }

    @Test func theCastPlaysItsRoles() throws {
        let npcs = try TestWorld.shippedPack().world.npcs
        let mira = try #require(npcs["mira"])
        #expect(mira.trade.trades && !mira.trade.sells.isEmpty)
        let smith = try #require(npcs["brannoc"])
        #expect(smith.trade.sells.isSuperset(of: ["weapon", "tool"]))
        #expect(smith.trade.buys.isSuperset(of: ["weapon", "tool"]))
        #expect(npcs["hesper"]?.trade.sells.contains("drink") == true)
        #expect(npcs["oona"]?.trade.trades == false)
        #expect(npcs["aurelio"]?.trade.buys.contains("curio") == true)
    }

    @Test func theQuestItemCanNeverBeSold() throws {
        let pack = try TestWorld.shippedPack()
        var cellar = pack.initialState
        // Put the player next to the locket with a lantern, then try every trader.
        for event: GameEvent in [
            .moved(from: "market_square", to: "smithy"), .traded(offer: .selling("rusty_sword", to: "brannoc", for: 8)),
            .moved(from: "smithy", to: "market_square"), .traded(offer: .buying("lantern", from: "mira", for: 20)),
            .moved(from: "market_square", to: "river_lane"), .moved(from: "river_lane", to: "old_mill"),
            .moved(from: "old_mill", to: "mill_cellar"),
            .tookItem(item: "moonpetal_locket", quantity: 1, from: "mill_cellar"),
        ] {
            try cellar.apply(event)
        }
        for npc in cellar.world.npcs.values {
            try cellar.apply(.npcMoved(npc: npc.id, from: npc.location, to: "mill_cellar"))
            let verdict = TradeRules.standard.validate(.selling("moonpetal_locket", to: npc.id, for: 1), in: cellar)
            #expect(verdict.rejections.contains(.questItem(item: "moonpetal_locket", party: .player)), "\(npc.id)")
        }
    }

    @Test func theLetterFromTheIntroductionIsCarriedAndNeverTraded() throws {
        let pack = try TestWorld.shippedPack()
        #expect(pack.world.introduction.contains("a letter from your aunt"))
        let letter = try #require(pack.world.items["aunts_letter"])
        #expect(letter.isNamed("letter"))
        #expect(letter.description.contains("Aurelio Finch") && letter.description.contains("Moonpetal Locket"))
        #expect(!letter.isTradeable && !letter.isQuestItem)
        var start = pack.initialState
        #expect(start.player.inventory.contains("aunts_letter"))
        // No one buys it, at any price, wherever they are; nor could anyone sell it back.
        for npc in start.world.npcs.values {
            #expect(!npc.trade.buys.contains(letter.category), "\(npc.id)")
            try start.apply(.npcMoved(npc: npc.id, from: npc.location, to: start.player.location))
            let verdict = TradeRules.standard.validate(.selling("aunts_letter", to: npc.id, for: 0), in: start)
            #expect(verdict.rejections.contains(.untradeableItem(item: "aunts_letter", party: .player)), "\(npc.id)")
        }
    }

    @Test func theGoalCanBeReachedByTalkingAndTrading() throws {
        let start = try TestWorld.shippedPack().initialState
        let walkthrough: [GameEvent] = [
            .moved(from: "market_square", to: "smithy"),
            .traded(offer: .selling("rusty_sword", to: "brannoc", for: 8)),
            .moved(from: "smithy", to: "market_square"),
            .traded(offer: .buying("lantern", from: "mira", for: 20)),
            .moved(from: "market_square", to: "river_lane"),
            .moved(from: "river_lane", to: "old_mill"),
            .moved(from: "old_mill", to: "mill_cellar"),
            .tookItem(item: "moonpetal_locket", quantity: 1, from: "mill_cellar"),
            .moved(from: "mill_cellar", to: "old_mill"),
            .moved(from: "old_mill", to: "river_lane"),
            .moved(from: "river_lane", to: "curio_house"),
            .gave(item: "moonpetal_locket", quantity: 1, to: "aurelio"),
        ]
        var state = start
        for (index, event) in walkthrough.enumerated() {
            #expect(!state.isGoalReached, "reached too early, before event \(index)")
            try state.apply(event)
        }
        #expect(state.isGoalReached)
        #expect(state.player.gold == 2)
    }

    @Test func theCellarNeedsALanternAndTheLanternNeedsMoney() throws {
        var state = try TestWorld.shippedPack().initialState
        try state.apply(.moved(from: "market_square", to: "river_lane"))
        try state.apply(.moved(from: "river_lane", to: "old_mill"))
        let blocked = #expect(throws: GameEventError.self) {
            try state.apply(.moved(from: "old_mill", to: "mill_cellar"))
        }
        #expect(blocked?.code == .exitBlocked)
        var poor = try TestWorld.shippedPack().initialState
        let verdict = TradeRules.standard.validate(.buying("lantern", from: "mira", for: 14), in: poor)
        #expect(verdict.rejections == [.priceOutsidePolicy(npc: "mira", minimum: 20, asking: 25, offered: 14)])
        try poor.apply(.moved(from: "market_square", to: "smithy"))
        #expect(
            TradeRules.standard.validate(.selling("rusty_sword", to: "brannoc", for: 9), in: poor).isAccepted == false)
    }
}

/// The worked example in docs/modding.md, on the shipped smith's real policy.
@Suite struct DocumentedPricesTests {
    @Test(arguments: [("silver_sword", 135, 108, 45), ("rusty_sword", 24, 20, 8), ("horseshoe", 5, 4, 1)])
    func brannocsPricesAreAsDocumented(item: String, asking: Int, lowest: Int, buyBack: Int) throws {
        let world = try TestWorld.shippedPack().world
        let policy = try #require(world.npcs["brannoc"]).trade
        let value = try #require(world.items[ItemID(item)]).value
        #expect(policy.askingPrice(forValue: value) == asking)
        #expect(policy.lowestPrice(forValue: value) == lowest)
        #expect(policy.buyBackPrice(forValue: value) == buyBack)
    }

    @Test func theDocumentedSwapIsExactlyEnough() throws {
        let world = try TestWorld.shippedPack().world
        let swap = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(items: [ItemStack("rusty_sword")], gold: 100),
            npcGives: TradeSide(items: [ItemStack("silver_sword")]))
        #expect(TradeRules.standard.price(of: swap, in: world) == TradePrice(minimum: 100, asking: 127, offered: 100))
    }
}

import GameWorld
import LanguageModels
import NPCContract
import ScriptedModel
import Testing

@testable import ParleyEngine

/// The claim check on the shipped pack: for each kind, true lines pass and false lines are caught, in digits and in
/// words; and the scripted model, asked ordinary questions by every NPC, says nothing false.
@Suite struct ClaimCheckerTests {
    /// A line said by an NPC, and the kinds of claim expected to be caught (none for a true line).
    struct Case: Sendable, CustomTestStringConvertible {
        var npc: NPCID
        var line: String
        var caught: [FalseClaim.Kind]
        var testDescription: String { "\(npc): \(line)" }
        init(_ npc: NPCID, _ line: String, _ caught: FalseClaim.Kind...) {
            self.npc = npc
            self.line = line
            self.caught = caught
        }
    }

    /// The shipped pack's start: the player (14 gold, a Rusty Sword, 2 Loaves of Bread) in the market.
    static let state: GameState = try! shippedPack().initialState
    static let checker = ClaimChecker(world: state.world)

    static func claims(
        _ test: Case, state: GameState = state, entries: [Transcript.Entry] = [],
        pending: PendingOffer? = nil
    ) -> [FalseClaim] {
        checker.falseClaims(in: test.line, npc: test.npc, state: state, turnEntries: entries, pendingOffer: pending)
    }

    static let priceCases: [Case] = [
        // True: asking, lowest, buy-back, in digits and words, alone and in listings.
        Case("mira", "The Brass Lantern? 25 gold, friend."),
        Case("mira", "The lamp is twenty-five gold."),
        Case("mira", "For you, friend, the Brass Lantern is 20 gold."),
        Case("mira", "Tallow Candles, 2 gold apiece."),
        Case("mira", "2 Tallow Candle for 4 gold."),
        Case("brannoc", "Claw Hammer. 12 gold. Worth every coin."),
        Case("brannoc", "I'll give you 10 gold for the dagger."),
        Case("brannoc", "I'd pay this much: Rusty Sword (8 gold)."),
        Case(
            "mira",
            "I have Brass Lantern (25 gold), Flask of Lamp Oil (5 gold, 2 in stock) and Coil of Rope (8 gold, 2 in "
                + "stock)."
        ),
        Case("hesper", "The Mutton Pie? 6 gold, pet. 6 gold, I said."),
        // Not claims: no item, a question, a refusal, the player's words, another NPC's prices.
        Case("mira", "Twenty-five gold is a lot of money."),
        Case("mira", "Thirty gold for the lantern? You'll ruin me!"),
        Case("mira", "I won't take 10 gold for the lantern."),
        Case("mira", "You offer 12 gold for the Brass Lantern, friend."),
        Case("brannoc", "Mira sells the lantern for 40 gold."),
        Case("oona", "A lantern costs 99 gold, citizen."),
        // False.
        Case("mira", "The Brass Lantern? 30 gold, friend.", .price),
        Case("mira", "The lantern's thirty gold.", .price),
        Case("mira", "Forty gold for the Brass Lantern.", .price),
        Case("brannoc", "Claw Hammer. 15 gold.", .price),
        Case("brannoc", "I'll give you 8 gold for the dagger.", .price),
        Case(
            "mira", "I have Brass Lantern (25 gold), Flask of Lamp Oil (9 gold, 2 in stock) and Coil of Rope (8 gold).",
            .price),
        Case("hesper", "A Mug of Ale is a hundred gold, love.", .price),
    ]

    @Test(arguments: priceCases)
    func prices(_ test: Case) {
        #expect(Self.claims(test).map(\.kind) == test.caught, "\(Self.claims(test))")
    }

    static let stockCases: [Case] = [
        // The issue's example: Brannoc sells three blades.
        Case("brannoc", "Weapons? Not on my rack.", .stock),
        Case("brannoc", "I don't have any weapons.", .stock),
        Case("brannoc", "No Iron Dagger here. Metal's what I do.", .stock),
        Case("mira", "Brass Lantern? Not on my stall, friend.", .stock),
        Case("mira", "Sorry, friend, I've no rope to sell you.", .stock),
        Case("hesper", "No pies at the Goose, love.", .stock),
        Case("mira", "I sell weapons and tools.", .stock),
        Case("mira", "I have a Silver Sword.", .stock),
        Case("pip", "Got Smoked Trout (3 gold, 3 in stock) and Red Apple (1 gold).", .stock),
        Case("hesper", "Food? Not here, love.", .stock),
        // True.
        Case("brannoc", "Wool Cloak? Not on my rack."),
        Case("mira", "No Silver Sword here, friend, more's the pity."),
        Case("mira", "Mira's Brass Scales are not for sale."),
        Case("pip", "Me rod? No chance, mister! Rod's not for sale."),
        Case("aurelio", "The owl? Oh, no, no, no. Minerva is not for sale."),
        Case("mira", "I sell food, tools and clothes, and I buy clothing, curio and food."),
        Case("oona", "I don't have any weapons, citizen."),
        Case("mira", "I have a Brass Lantern, friend."),
        // Not about the speaker.
        Case("mira", "You don't have any weapons, friend.", .possession),
        Case("pip", "Mira's got no lantern, mister."),
    ]

    @Test(arguments: stockCases)
    func stock(_ test: Case) {
        #expect(Self.claims(test).map(\.kind) == test.caught, "\(Self.claims(test))")
    }

    static let quantityCases: [Case] = [
        Case("mira", "I have 6 Tallow Candles."),
        Case("mira", "I've got six tallow candles, friend."),
        Case("mira", "Flask of Lamp Oil (5 gold, 2 in stock)."),
        Case("hesper", "Only twelve ales left, love."),
        Case("mira", "I have 3 candles.", .quantity),
        Case("mira", "Only two Tallow Candles left!", .quantity),
        Case("mira", "Tallow Candle (2 gold, 9 in stock).", .quantity),
        Case("brannoc", "Tongs? Only 3 left.", .quantity),
    ]

    @Test(arguments: quantityCases)
    func quantities(_ test: Case) {
        #expect(Self.claims(test).map(\.kind) == test.caught, "\(Self.claims(test))")
    }

    static let possessionCases: [Case] = [
        Case("brannoc", "You've no Iron Dagger. Don't waste my time."),
        Case("mira", "You have 14 gold, friend."),
        Case("mira", "You've got two loaves, friend."),
        Case("hesper", "You haven't got a Wool Cloak, pet."),
        Case("brannoc", "You've no Rusty Sword. Don't waste my time.", .possession),
        Case("pip", "You ain't got a loaf, mister.", .possession),
        Case("mira", "You have 40 gold, friend.", .possession),
        Case("mira", "You've only got fourteen gold? Dear me."),
        Case("mira", "You've got three loaves, friend.", .possession),
        Case("mira", "You have a Brass Lantern, friend.", .possession),
    ]

    @Test(arguments: possessionCases)
    func possessions(_ test: Case) {
        #expect(Self.claims(test).map(\.kind) == test.caught, "\(Self.claims(test))")
    }

    /// Mira's offer of 2 Tallow Candles for 3 gold (haggled down from 4), pending.
    static let candles = PendingOffer(
        offer: .buying("candle", quantity: 2, from: "mira", for: 3),
        summary: "Mira Quickcoin offers 2 × Tallow Candle for 3 gold.")

    @Test func agreementsAreHeldAgainstThePendingOffer() {
        func kinds(_ line: String, pending: PendingOffer?) -> [FalseClaim.Kind] {
            Self.claims(Case("mira", line), pending: pending).map(\.kind)
        }
        // True with the offer pending.
        #expect(
            kinds("Mira Quickcoin offers 2 × Tallow Candle for 3 gold. Say accept, friend.", pending: Self.candles)
                == [])
        #expect(
            kinds("A fine choice! 2 Tallow Candle for 3 gold. Say accept and it's yours.", pending: Self.candles) == [])
        #expect(kinds("Then say accept, friend, and we'll shake on it!", pending: Self.candles) == [])
        // Other terms than the pending offer's.
        #expect(kinds("A fine choice! 2 Tallow Candle for 4 gold. Say accept.", pending: Self.candles) == [.agreement])
        #expect(kinds("1 Brass Lantern for 25 gold. Say accept.", pending: Self.candles) == [.agreement])
        // An offer claimed when none is pending.
        #expect(kinds("A fine choice! 1 Tallow Candle for 2 gold. Say accept", pending: nil) == [.agreement])
        #expect(kinds("Going? My offer for the Brass Lantern stands.", pending: nil) == [.agreement])
        #expect(kinds("No deal, friend. Come back tomorrow.", pending: nil) == [])
        // Another NPC's pending offer is not this one's.
        let brannocs = PendingOffer(offer: .buying("hammer", from: "brannoc", for: 12), summary: "")
        #expect(kinds("Then say accept, friend!", pending: brannocs) == [.agreement])
    }

    @Test func theTurnsToolOutputsAndRefusalsCountAsTheGamesWords() throws {
        let report = StockReport(lines: [
            .init(item: "lantern", name: "Brass Lantern", quantity: 1, price: 40, lowestPrice: 35)
        ])
        let stockOutput = Transcript.Entry.toolOutput(
            Transcript.ToolOutput(
                id: "1", toolName: "lookUpStock",
                segments: [.structure(.init(source: "lookUpStock", content: report.generatedContent))]))
        let line = Case("mira", "The Brass Lantern is 40 gold, friend.")
        #expect(Self.claims(line).map(\.kind) == [.price])
        #expect(Self.claims(line, entries: [stockOutput]).isEmpty)
        // A refusal's reason repeated word for word is not the NPC's price.
        let reason = RefusalReason.stated("The Brass Lantern costs 99 gold here.")
        let refusal = Transcript.Entry.toolOutput(
            Transcript.ToolOutput(
                id: "2", toolName: "offerTrade",
                segments: [
                    .structure(.init(source: "offerTrade", content: ActionResult.refused([reason]).generatedContent))
                ]))
        let voiced = Case("mira", "Slow down, friend! \(reason.message)")
        #expect(Self.claims(voiced).map(\.kind) == [.price])
        #expect(Self.claims(voiced, entries: [refusal]).isEmpty)
    }

    @Test func theCheckFollowsTheStateAfterTheTurn() throws {
        // Brannoc has sold his blades: "Weapons? Not on my rack." is now true.
        var world = Self.state.world
        var brannoc = try #require(world.npcs["brannoc"])
        for item in ["iron_dagger", "short_sword", "silver_sword"] as [ItemID] {
            brannoc.inventory.remove(item, quantity: brannoc.inventory.quantity(of: item))
        }
        world.npcs["brannoc"] = brannoc
        let sold = GameState(world: world, player: Self.state.player)
        #expect(Self.claims(Case("brannoc", "Weapons? Not on my rack."), state: sold).isEmpty)
        #expect(Self.claims(Case("brannoc", "Weapons? Not on my rack.")).map(\.kind) == [.stock])
        // A hand-built world: an NPC that sells only what it has.
        let lamp = Item(id: "lamp", name: "Oil Lamp", value: 10, category: "light")
        let seller = NPC(
            id: "tam", name: "Tam", persona: "", location: "here", inventory: ["lamp": 3],
            trade: TradePolicy(sells: ["light"], sellMarkup: PriceRatio(hundredths: 200)))
        let small = World(
            id: "w", title: "W", locations: [Location(id: "here", name: "Here", description: "")], items: [lamp],
            npcs: [seller],
            goal: GameGoal(description: "", requirements: []))
        let smallState = GameState(world: small, player: Player(name: "Ada", location: "here", gold: 5))
        let checker = ClaimChecker(world: small)
        func kinds(_ line: String) -> [FalseClaim.Kind] {
            checker.falseClaims(in: line, npc: "tam", state: smallState, turnEntries: [], pendingOffer: nil).map(\.kind)
        }
        #expect(kinds("The Oil Lamp is 20 gold.") == [])
        #expect(kinds("The lamp is twenty gold.") == [])
        #expect(kinds("The Oil Lamp is 12 gold.") == [])  // haggled, between the lowest (10) and the asking price
        #expect(kinds("The Oil Lamp is 25 gold.") == [.price])
        #expect(kinds("Lamps? None here.") == [.stock])
        #expect(kinds("I don't have any lamps.") == [.stock])
        #expect(kinds("I have 3 Oil Lamps.") == [])
        #expect(kinds("I have 2 Oil Lamps.") == [.quantity])
        #expect(kinds("You have 5 gold.") == [])
    }
}

/// Every reply the scripted model gives to ordinary questions, for every shipped NPC, through a real game: none
/// may state anything false.
@Suite struct ScriptedClaimSweepTests {
    /// Where each NPC stands, from the market square.
    static let paths: [NPCID: [String]] = [
        "mira": [], "brannoc": ["e"], "hesper": ["w"], "oona": ["n"], "pip": ["s"], "aurelio": ["s", "e"],
    ]

    /// Ordinary questions, then one per item of the catalog.
    static func questions(in world: World) -> [String] {
        var lines = [
            "hello", "hi there, who are you?", "what do you sell?", "got any weapons?", "anything to eat?",
            "what's there to eat and drink?", "anything good on your stall today?", "do you have a lantern?",
            "how much is the lantern?", "what would you want for the lantern?",
            "is your grandfather's hammer for sale?",
            "how much for the dagger?", "what would you give me for my rusty sword?", "sell my bread",
            "I want to buy a loaf of bread", "how about 2 gold?", "any fish?", "do you sell cheese?", "decline",
            "buy 2 candles", "accept", "thanks", "any news?", "do you remember me?", "what's my name?", "bye",
        ]
        for item in world.items.values.sorted(by: { $0.id < $1.id }) {
            lines += ["how much is the \(item.name.lowercased())?", "buy the \(item.name.lowercased())", "decline"]
        }
        return lines
    }

    @Test func theScriptedModelStatesNothingFalse() async throws {
        let pack = try shippedPack()
        let checker = ClaimChecker(world: pack.world)
        var found: [String] = []
        var checked = 0
        for (npc, path) in Self.paths.sorted(by: { $0.key < $1.key }) {
            for seed in [1, 2] as [UInt64] {
                let game = Game(
                    state: pack.initialState,
                    models: { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) })
                let screen = Screen()
                for step in path { await game.perform(step, output: screen.record) }
                for line in ["talk to \(npc.rawValue)"] + Self.questions(in: pack.world) {
                    await game.perform(line, output: screen.record)
                    guard let transcript = await game.session(of: npc)?.transcript else { continue }
                    let entries = Array(transcript)
                    guard let start = entries.lastIndex(where: { if case .prompt = $0 { true } else { false } })
                    else { continue }
                    let turn = Array(entries[start...])
                    let said = turn.compactMap { entry -> String? in
                        guard case .response(let response) = entry else { return nil }
                        return response.segments.compactMap { segment in
                            if case .text(let text) = segment { text.content } else { nil }
                        }.joined()
                    }.joined(separator: " ")
                    guard !said.isEmpty else { continue }
                    checked += 1
                    let claims = checker.falseClaims(
                        in: said, npc: npc, state: await game.state, turnEntries: turn,
                        pendingOffer: await game.pendingOffers[npc])
                    found += claims.map { "\(npc) (seed \(seed)) after \"\(line)\": \($0)" }
                }
            }
        }
        // The sweep must have heard the NPCs talk, or it proves nothing.
        #expect(checked > 500)
        // The issue's own example ("got any weapons?" at Brannoc's: "Weapons? Not on my rack.") was one; the
        // stock look-up now reads category words.
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

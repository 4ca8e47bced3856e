import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import NPCContract
import Testing

/// Every contract type encodes to the JSON models have always seen, byte for byte, and decodes back to itself.
@Suite struct ContractCodingTests {
    // MARK: - Tool outputs

    static let stockReports: [(StockReport, String)] = [
        (
            StockReport(
                lines: [
                    .init(item: "bread", name: "Loaf of Bread", quantity: 4, price: 3, lowestPrice: 2),
                    .init(item: "lantern", name: "Brass Lantern", quantity: 1, price: 25, lowestPrice: 20),
                ],
                buys: ["clothing", "curio", "food"]),
            #"{"items":[{"item":"bread","name":"Loaf of Bread","quantity":4,"price":3,"lowestPrice":2},{"item":"lantern","name":"Brass Lantern","quantity":1,"price":25,"lowestPrice":20}],"buys":["clothing","curio","food"]}"#
        ),
        (
            StockReport(lines: [], missing: "unicorn horn", buys: ["food"]),
            #"{"items":[],"missing":"unicorn horn","buys":["food"]}"#
        ),
        (StockReport(lines: []), #"{"items":[]}"#),
    ]

    @Test(arguments: stockReports)
    func aStockReportIsWrittenAsAlwaysAndReadBack(report: StockReport, json: String) throws {
        #expect(report.generatedContent.jsonString == json)
        #expect(try StockReport(GeneratedContent(json: json)) == report)
        #expect(try NPCToolOutput(tool: .lookUpStock, content: report.generatedContent) == .stock(report))
    }

    static let playerReports: [(PlayerReport, String)] = [
        (
            PlayerReport(
                name: "Ada", gold: 22,
                inventory: [
                    .init(item: "bread", name: "Loaf of Bread", quantity: 2, buyPrice: 0),
                    .init(item: "rusty_sword", name: "Rusty Sword", quantity: 1),
                ]),
            #"{"name":"Ada","gold":22,"inventory":[{"item":"bread","name":"Loaf of Bread","quantity":2,"buyPrice":0},{"item":"rusty_sword","name":"Rusty Sword","quantity":1}]}"#
        ),
        (PlayerReport(name: "Kit", gold: 0, inventory: []), #"{"name":"Kit","gold":0,"inventory":[]}"#),
    ]

    @Test(arguments: playerReports)
    func aPlayerReportIsWrittenAsAlwaysAndReadBack(report: PlayerReport, json: String) throws {
        #expect(report.generatedContent.jsonString == json)
        #expect(try PlayerReport(GeneratedContent(json: json)) == report)
        #expect(try NPCToolOutput(tool: .inspectPlayer, content: report.generatedContent) == .player(report))
    }

    static let actionResults: [(ActionResult, String)] = [
        (
            ActionResult(status: .pending, summary: "Mira Quickcoin offers 1 Brass Lantern for 20 gold."),
            #"{"status":"pending","summary":"Mira Quickcoin offers 1 Brass Lantern for 20 gold."}"#
        ),
        (
            ActionResult(status: .given, summary: "Hesper gives you 1 × Loaf of Bread."),
            #"{"status":"given","summary":"Hesper gives you 1 × Loaf of Bread."}"#
        ),
        (
            ActionResult(status: .accepted, summary: "Ada gives you 1 × Moonpetal Locket."),
            #"{"status":"accepted","summary":"Ada gives you 1 × Moonpetal Locket."}"#
        ),
        (
            .refused([.noSuchItem("unicorn"), .neverPartsWith(npc: "Mira Quickcoin", item: "Brass Scales")]),
            #"{"status":"refused","reasons":["There is no such item as \"unicorn\".","Mira Quickcoin never parts with the Brass Scales."],"#
                + #""refusals":[{"kind":"noSuchItem","text":"unicorn"},{"kind":"neverPartsWith","npc":"Mira Quickcoin","item":"Brass Scales"}]}"#
        ),
        (.refused([]), #"{"status":"refused","reasons":[],"refusals":[]}"#),
    ]

    @Test(arguments: actionResults)
    func anActionResultIsWrittenAsAlwaysAndReadBack(result: ActionResult, json: String) throws {
        #expect(result.generatedContent.jsonString == json)
        let read = try ActionResult(GeneratedContent(json: json))
        #expect(read == result)
        // What travels is each reason's words and its kind and values.
        #expect(read.reasons.map(\.message) == result.reasons.map(\.message))
        #expect(read.reasons.map(\.details) == result.reasons.map(\.details))
        for tool in [NPCTool.offerTrade, .giveItem, .acceptGift] {
            #expect(try NPCToolOutput(tool: tool, content: result.generatedContent) == .action(result))
        }
    }

    @Test func refusalReasonsReadBackTypedAndUnknownDetailsAsTheirWords() throws {
        let rejection = TradeRejection.playerCannotPay(gold: 25, available: 14)
        let reasons: [RefusalReason] = [
            .asksMoreThanQuoted(npc: "Mira Quickcoin", item: "Brass Lantern", quoted: 20, asked: 22),
            .paysLessThanQuoted(npc: "Brannoc", item: "Rusty Sword", quoted: 8, paid: 5),
            .tradeRule(rejection, explanation: "The player offers 25 gold but has only 14."),
            .unreadableOffer("no price"), .noSuchTradeItem("unicorn"), .noSuchNPC("tam"),
            .stated("Just because."),
        ]
        let read = try ActionResult(GeneratedContent(json: ActionResult.refused(reasons).generatedContent.jsonString))
        #expect(read.reasons.map(\.details) == reasons.map(\.details))
        guard case .asksMoreThanQuoted(_, let item, let quoted, let asked) = read.reasons[0],
            case .tradeRule(let readRejection, let explanation) = read.reasons[2]
        else {
            Issue.record("reasons did not read back typed: \(read.reasons)")
            return
        }
        #expect(item == "Brass Lantern" && quoted == 20 && asked == 22)
        #expect(readRejection == rejection && explanation == "The player offers 25 gold but has only 14.")
        // An output without `refusals` (as written before they existed), or with details that do not read, still
        // gives every reason by its words.
        let old = try ActionResult(GeneratedContent(json: #"{"status":"refused","reasons":["A.","B."]}"#))
        #expect(old.reasons.map(\.details) == [RefusalReason.stated("A.").details, RefusalReason.stated("B.").details])
        let odd = try ActionResult(
            GeneratedContent(
                json: #"{"status":"refused","reasons":["A.","B."],"refusals":[{"kind":"martian"},{"kind":"asksMoreThanQuoted"}]}"#))
        #expect(odd.reasons.map(\.message) == ["A.", "B."])
        #expect(odd.reasons.allSatisfy { if case .stated = $0 { true } else { false } })
    }

    @Test func everyStatusIsWrittenByItsName() throws {
        for status in ActionStatus.allCases {
            let json = ActionResult(status: status, summary: "s").generatedContent.jsonString
            #expect(json.hasPrefix(#"{"status":"\#(status)""#))
            #expect(try ActionResult(GeneratedContent(json: json)).status == status)
        }
    }

    @Test func everyRefusalReasonSaysWhyInTheModelsWords() throws {
        let world = try ContentPack.load(files: MiniPack.files).get().world
        let reasons: [(RefusalReason, String)] = [
            (.noSuchNPC("tam"), "There is no such NPC as tam."),
            (.noSuchItem("unicorn"), #"There is no such item as "unicorn"."#),
            (.noSuchTradeItem("dragon egg"), #"There is no such item as "dragon egg" in this world."#),
            (
                .neverPartsWith(npc: "Mira Quickcoin", item: "Brass Scales"),
                "Mira Quickcoin never parts with the Brass Scales."
            ),
            (
                .tradeRule(.playerCannotPay(gold: 25, available: 14), in: world),
                "The player offers 25 gold but has only 14."
            ),
            (
                .asksMoreThanQuoted(npc: "Mira Quickcoin", item: "Brass Lantern", quoted: 20, asked: 24),
                "Mira Quickcoin just said the Brass Lantern costs 20 gold, but the offer asks 24."
            ),
            (
                .paysLessThanQuoted(npc: "Brannoc", item: "Rusty Sword", quoted: 8, paid: 5),
                "Brannoc just offered 8 gold for the Rusty Sword, but the offer pays 5."
            ),
            (.stated("Anything at all."), "Anything at all."),
        ]
        for (reason, message) in reasons {
            #expect(reason.message == message)
            #expect(reason == .stated(message))
            #expect(Set([reason, .stated(message)]).count == 1)
        }
        var state = GameState(world: world, player: MiniPack.player)
        do {
            try state.apply(.gave(item: "kettle", quantity: 5, to: "tam"))
            Issue.record("giving more kettles than carried should fail")
        } catch {
            #expect(RefusalReason.effectRefused(error).message == error.message)
        }
    }

    @Test(arguments: [
        #"{"summary":"no status"}"#, #"{"status":"maybe"}"#, #"{"status":"refused","reasons":[1,2]}"#,
        #"{"status":"given","summary":3}"#, #""just text""#,
    ])
    func anActionResultThatIsNotOneIsRefusedWithTheProblem(json: String) throws {
        #expect(throws: GeneratedContent.ParsingError.self) { try ActionResult(GeneratedContent(json: json)) }
    }

    @Test func readingErrorsSayWhereAndWhat() throws {
        let missing = #"{"items":[{"item":"bread","name":"Loaf of Bread","quantity":4,"price":"3","lowestPrice":2}]}"#
        do {
            _ = try StockReport(GeneratedContent(json: missing))
            Issue.record("a price in quotes should not read")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.debugDescription == "Not a StockReport: $.items[0].price: expected Int")
        }
        let badGold = #"{"npc":"mira","player":{"name":"Ada","gold":null,"inventory":[]},"location":"market_square"}"#
        do {
            _ = try GameContext(GeneratedContent(json: badGold))
            Issue.record("a context without the player's gold should not read")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.debugDescription == "Not a GameContext: $.player.gold: expected Int, found null")
        }
        do {
            _ = try OfferTrade.Arguments(GeneratedContent(json: #"{"action":"sell","item":"lantern"}"#))
            Issue.record("an offer without a price should not read")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.debugDescription == #"Not a Arguments: the value: the property "price" is missing"#)
        }
    }

    // MARK: - The game context and witnessed events

    @Test func theGameContextIsWrittenAsAlwaysAndReadBackFromInstructions() throws {
        let context = GameContext(
            npc: "mira",
            player: PlayerReport(
                name: "Ada", gold: 14,
                inventory: [.init(item: "bread", quantity: 2), .init(item: "rusty_sword", quantity: 1)]),
            location: "market_square")
        let json =
            #"{"npc":"mira","player":{"name":"Ada","gold":14,"inventory":[{"item":"bread","quantity":2},{"item":"rusty_sword","quantity":1}]},"location":"market_square"}"#
        #expect(context.generatedContent.jsonString == json)
        #expect(try GameContext(GeneratedContent(json: json)) == context)
        let instructions = Transcript.Instructions(
            segments: [.text(.init(content: "You are Mira.")), context.segment], toolDefinitions: [])
        #expect(instructions.gameContext == context)
        guard case .structure(let segment) = context.segment else {
            Issue.record("the context is not a structured segment"); return
        }
        #expect(segment.source == "GameContext")
        #expect(
            Transcript.Instructions(segments: [.text(.init(content: "Hi."))], toolDefinitions: []).gameContext == nil)
    }

    @Test func theGameContextOfAStateListsThePlayerAndTheNPCsPlace() throws {
        let world = try ContentPack.load(files: MiniPack.files).get().world
        let state = GameState(world: world, player: MiniPack.player)
        let tam = try #require(world.npcs["tam"])
        let context = GameContext(npc: tam, state: state)
        #expect(
            context
                == GameContext(
                    npc: "tam",
                    player: PlayerReport(name: "Kit", gold: 50, inventory: [.init(item: "kettle", quantity: 1)]),
                    location: "yard"))
    }

    static let events: [(WitnessedEvent, String, String)] = [
        (.arrived, "(Ada comes up to you.)", #"{"event":"arrived"}"#),
        (.left, "(Ada says goodbye and turns to go.)", #"{"event":"left"}"#),
        (
            .gave(item: "kettle", quantity: 1), "(Ada gives you the Copper Kettle.)",
            #"{"event":"gave","item":"kettle","quantity":1}"#
        ),
        (
            .gave(item: "nail", quantity: 3), "(Ada gives you 3 × Iron Nail.)",
            #"{"event":"gave","item":"nail","quantity":3}"#
        ),
        (
            .offerAccepted(summary: "Tam offers 1 Iron Nail for 2 gold."),
            "(Ada accepts your offer: Tam offers 1 Iron Nail for 2 gold.)",
            #"{"event":"offerAccepted","summary":"Tam offers 1 Iron Nail for 2 gold."}"#
        ),
        (
            .offerDeclined(summary: "Tam offers 1 Iron Nail for 2 gold."),
            "(Ada declines your offer: Tam offers 1 Iron Nail for 2 gold.)",
            #"{"event":"offerDeclined","summary":"Tam offers 1 Iron Nail for 2 gold."}"#
        ),
        (.arrivedHere, "(Ada arrives.)", #"{"event":"arrivedHere"}"#),
        (.flagSet("gate_open"), "(flagSet(gate_open))", #"{"event":"flagSet(gate_open)"}"#),
    ]

    @Test(arguments: events)
    func anEventIsWordedAndWrittenAsAlwaysAndReadBackFromItsPrompt(
        event: WitnessedEvent, text: String, json: String
    ) throws {
        let world = try ContentPack.load(files: MiniPack.files).get().world
        #expect(event.text(player: "Ada", in: world) == text)
        #expect(event.generatedContent.jsonString == json)
        #expect(try WitnessedEvent(GeneratedContent(json: json)) == event)
        let prompt = Transcript.Prompt(segments: event.prompt(player: "Ada", in: world).segments)
        #expect(prompt.isWitnessedEvent)
        #expect(prompt.witnessedEvent == event)
        guard case .text(let words)? = prompt.segments.first, case .structure(let data)? = prompt.segments.last else {
            Issue.record("the prompt is not words then data"); return
        }
        #expect(words.content == text)
        #expect(data.source == "GameEvent")
    }

    @Test func wordsInParenthesesAreNotAnEventButAnyGameEventSegmentIs() throws {
        let words = Transcript.Prompt(segments: [.text(.init(content: "(I wave.)"))])
        #expect(!words.isWitnessedEvent)
        #expect(words.witnessedEvent == nil)
        let unknown = Transcript.Prompt(segments: [
            .structure(.init(source: "GameEvent", content: try GeneratedContent(json: #"{"event":"sneezed"}"#)))
        ])
        #expect(unknown.isWitnessedEvent)
        #expect(unknown.witnessedEvent == nil)
        #expect(throws: GeneratedContent.ParsingError.self) {
            try WitnessedEvent(GeneratedContent(json: #"{"event":"gave","item":"kettle"}"#))
        }
    }

    // MARK: - Tool calls and their arguments

    static let calls: [(NPCToolCall, String)] = [
        (.lookUpStock(.init()), "{}"),
        (.lookUpStock(.init(item: "lantern")), #"{"item":"lantern"}"#),
        (.inspectPlayer, "{}"),
        (
            .offerTrade(.init(action: .sell, item: "lantern", quantity: 1, price: 25)),
            #"{"action":"sell","item":"lantern","quantity":1,"price":25}"#
        ),
        (
            .offerTrade(.init(action: .buy, item: "rusty_sword", price: 8)),
            #"{"action":"buy","item":"rusty_sword","price":8}"#
        ),
        (.giveItem(.init(item: "brass_compass", quantity: 1)), #"{"item":"brass_compass","quantity":1}"#),
        (.acceptGift(.init(item: "moonpetal_locket")), #"{"item":"moonpetal_locket"}"#),
    ]

    @Test(arguments: calls)
    func aCallIsWrittenAsAlwaysAndReadBack(call: NPCToolCall, json: String) throws {
        #expect(call.arguments.jsonString == json)
        #expect(try NPCToolCall(tool: call.tool, arguments: GeneratedContent(json: json)) == call)
        let transcribed = Transcript.ToolCall(id: "c1", toolName: call.tool.rawValue, arguments: call.arguments)
        #expect(NPCToolCall(transcribed) == call)
    }

    @Test func aCallOfAnotherToolOrWithArgumentsThatDoNotFitIsNotAnNPCToolCall() throws {
        #expect(
            NPCToolCall(
                Transcript.ToolCall(id: "c1", toolName: "weather", arguments: GeneratedContent(properties: [:]))) == nil
        )
        let noPrice = try GeneratedContent(json: #"{"action":"sell","item":"lantern"}"#)
        #expect(NPCToolCall(Transcript.ToolCall(id: "c2", toolName: "offerTrade", arguments: noPrice)) == nil)
    }

    @Test(arguments: ["sell", "Sell", "SELL"])
    func anOfferActionIsReadInAnyCase(action: String) throws {
        let arguments = try OfferTrade.Arguments(
            GeneratedContent(json: #"{"action":"\#(action)","item":"lantern","price":25}"#))
        #expect(arguments.action == .sell)
    }

    /// The arguments are also the offer a model proposes in structured output (once `OfferProposal`): Codable with
    /// the same members as the tool's JSON, a missing quantity left out.
    @Test func offerArgumentsAreCodableAsTheToolWritesThem() throws {
        let offers = [
            OfferTrade.Arguments(action: .sell, item: "lantern", price: 20),
            OfferTrade.Arguments(action: .buy, item: "candle", quantity: 2, price: 4),
            OfferTrade.Arguments(action: .sell, item: "silver_sword", price: 100, partExchange: "rusty_sword"),
            OfferTrade.Arguments(
                action: .sell, item: "jug", price: 3, partExchange: "bread", partExchangeQuantity: 2),
        ]
        for offer in offers {
            let coded = try JSONEncoder().encode(offer)
            #expect(try JSONDecoder().decode(OfferTrade.Arguments.self, from: coded) == offer)
            #expect(try OfferTrade.Arguments(GeneratedContent(json: String(decoding: coded, as: UTF8.self))) == offer)
        }
        #expect(String(decoding: try JSONEncoder().encode(offers[0]), as: UTF8.self).contains("quantity") == false)
        #expect(String(decoding: try JSONEncoder().encode(offers[0]), as: UTF8.self).contains("partExchange") == false)
    }

    @Test func anOfferActionOtherThanSellOrBuyDoesNotRead() throws {
        do {
            _ = try OfferTrade.Arguments(GeneratedContent(json: #"{"action":"steal","item":"lantern","price":0}"#))
            Issue.record("steal is not a trade")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.debugDescription == #"Not a Arguments: $.action: expected "sell" or "buy", found "steal""#)
        }
    }

    /// The tools' schemas as the engine wrote them before the contract, property by property; `offerTrade` has since
    /// gained two optional members for swaps (`partExchange`, `partExchangeQuantity`, issue 31's eighth round), after
    /// the ones it always had, which are as they were.
    struct Arguments: Generable {
        init(_ content: GeneratedContent) {}
        var generatedContent: GeneratedContent { GeneratedContent(properties: [:]) }
        static var generationSchema: GenerationSchema { GenerationSchema(type: Arguments.self, properties: []) }
    }

    static let schemasAsBefore: [(NPCTool, GenerationSchema)] = [
        (
            .lookUpStock,
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(
                        name: "item", description: "The item to look up; leave out for everything", type: String?.self)
                ])
        ),
        (.inspectPlayer, GenerationSchema(type: Arguments.self, properties: [])),
        (
            .offerTrade,
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(name: "action", type: String.self, guides: [.anyOf(["sell", "buy"])]),
                    .init(name: "item", type: String.self),
                    .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                    .init(
                        name: "price", description: "Gold for all of them together", type: Int.self,
                        guides: [.minimum(0)]),
                    .init(
                        name: "partExchange", description: "Selling: an item of the player's you take besides the gold",
                        type: String?.self),
                    .init(name: "partExchangeQuantity", type: Int?.self, guides: [.minimum(1)]),
                ])
        ),
        (
            .giveItem,
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(name: "item", type: String.self),
                    .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                ])
        ),
    ]

    @Test func theToolsOfferModelsTheSchemasTheyAlwaysDid() {
        let schemas: [NPCTool: GenerationSchema] = [
            .lookUpStock: LookUpStock.Arguments.generationSchema,
            .inspectPlayer: InspectPlayer.Arguments.generationSchema,
            .offerTrade: OfferTrade.Arguments.generationSchema, .giveItem: GiveItem.Arguments.generationSchema,
            .acceptGift: AcceptGift.Arguments.generationSchema,
        ]
        for (tool, before) in Self.schemasAsBefore {
            #expect(schemas[tool]?.jsonSchema.jsonString() == before.jsonSchema.jsonString(), "\(tool)")
        }
        #expect(schemas[.acceptGift] == schemas[.giveItem])
        #expect(
            OfferTrade.Arguments.generationSchema.jsonSchema.jsonString()
                == #"{"type":"object","title":"Arguments","properties":{"action":{"type":"string","enum":["sell","buy"]},"item":{"type":"string"},"quantity":{"type":"integer","minimum":1},"price":{"type":"integer","minimum":0,"description":"Gold for all of them together"},"partExchange":{"type":"string","description":"Selling: an item of the player's you take besides the gold"},"partExchangeQuantity":{"type":"integer","minimum":1}},"required":["action","item","price"],"x-order":["action","item","quantity","price","partExchange","partExchangeQuantity"],"additionalProperties":false}"#
        )
    }

    @Test func theToolsAreTheFiveNPCToolsByTheirNames() {
        let contracts: [any NPCToolContract.Type] = [
            LookUpStock.self, InspectPlayer.self, OfferTrade.self, GiveItem.self, AcceptGift.self,
        ]
        #expect(contracts.map { $0.tool } == NPCTool.allCases)
        #expect(contracts.allSatisfy { !$0.toolDescription.isEmpty })
    }
}

/// A tiny world for the contract's words: Kit, in a yard with Tam the tinker.
enum MiniPack {
    static let files: [String: String] = [
        "world.json": """
        {
          "id": "mini", "title": "Mini",
          "start": { "name": "Kit", "location": "yard", "gold": 50, "inventory": [{ "item": "kettle" }] },
          "locations": [{ "id": "yard", "name": "Yard", "description": "A yard." }],
          "goal": { "description": "Give Tam the kettle.", "requirements": [{ "type": "npcHasItem", "npc": "tam", "item": "kettle" }] }
        }
        """,
        "items.json": """
        {
          "items": [
            { "id": "kettle", "name": "Copper Kettle", "description": "A kettle.", "value": 10, "category": "tool" },
            { "id": "nail", "name": "Iron Nail", "description": "A nail.", "value": 1, "category": "tool" }
          ]
        }
        """,
        "npcs/tam.json": """
        { "id": "tam", "name": "Tam", "persona": "A tinker.", "location": "yard", "gold": 30,
          "inventory": [{ "item": "nail", "quantity": 20 }], "trade": { "sells": ["tool"], "buys": ["tool"] } }
        """,
    ]

    static let player = Player(name: "Kit", location: "yard", gold: 50, inventory: ["kettle": 1])
}

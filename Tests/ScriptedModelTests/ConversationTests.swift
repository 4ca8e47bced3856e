import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// Greetings, farewells, small talk, fallbacks, game events and noticing, end to end on the shipped pack.
@Suite struct ConversationTests {
    static let npcs: [NPCID] = ["mira", "brannoc", "hesper", "oona", "aurelio", "pip"]

    @Test(arguments: npcs)
    func theNPCGreetsOnceThenSaysItAlreadyDid(npc: NPCID) async throws {
        let visit = try Packs.visit(npc)
        let session = try visit.session()
        let voice = try Packs.voice(npc)
        let first = try await session.turn("Hello!")
        #expect(voice.said(first.reply, "greet") || voice.variants("greet_rusty").contains { fits(first.reply, $0) })
        for line in ["hello", "hi there", "good morning"] {
            let again = try await session.turn(line)
            #expect(voice.said(again.reply, "greet_again"), "\(npc): \(again.reply)")
            #expect(!voice.said(again.reply, "greet"))
        }
    }

    @Test(arguments: npcs)
    func arrivingIsAGreetingAndAHelloAfterItIsNot(npc: NPCID) async throws {
        let visit = try Packs.visit(npc)
        let session = try visit.session()
        let voice = try Packs.voice(npc)
        let arrival = try await session.turn(visit.arrived)
        #expect(arrival.calls.isEmpty)
        #expect(!arrival.reply.isEmpty)
        let hello = try await session.turn("hello")
        #expect(voice.said(hello.reply, "greet_again"))
    }

    @Test(arguments: npcs)
    func everyNPCHasItsOwnVoiceForTalk(npc: NPCID) async throws {
        let visit = try Packs.visit(npc)
        let session = try visit.session()
        let voice = try Packs.voice(npc)
        #expect(voice.said(try await session.turn("Who are you?").reply, "introduce"))
        #expect(voice.said(try await session.turn("How are you today?").reply, "small_talk"))
        #expect(voice.said(try await session.turn("Any news?").reply, "rumors"))
        #expect(voice.said(try await session.turn("Thanks!").reply, "thanks"))
        #expect(voice.said(try await session.turn("Flibbertigibbet wobble").reply, "unknown"))
        #expect(voice.said(try await session.turn("Goodbye").reply, "farewell"))
        #expect(voice.said(try await session.turn(visit.left).reply, "farewell"))
    }

    @Test(arguments: [
        ("mira", "mill"), ("hesper", "cellar"), ("oona", "cellar"), ("pip", "cellar"), ("aurelio", "mill"),
    ])
    func topicsAnswerWithTheNPCsKnowledge(npc: NPCID, rule: String) async throws {
        let turn = try await Packs.visit(npc).session().turn("What do you know about the old mill cellar?")
        #expect(turn.calls.isEmpty)
        #expect(try Packs.voice(npc).said(turn.reply, rule), "\(npc): \(turn.reply)")
    }

    @Test func aGiftIsThankedForInVoice() async throws {
        let visit = try Packs.visit("mira")
        let session = try visit.session()
        let turn = try await session.turn(try visit.give("bread"))
        #expect(try Packs.voice("mira").said(turn.reply, "gift_received"))
        #expect(turn.reply.contains("Loaf of Bread"))
    }

    @Test func theCollectorIsDelightedByTheLocketAndRewardsIt() async throws {
        let visit = try Packs.visit("aurelio")
        try visit.playerFinds("moonpetal_locket")
        let session = try visit.session()
        let voice = try Packs.voice("aurelio")
        let greeting = try await session.turn("Good day")
        #expect(voice.said(greeting.reply, "greet_locket"), "he notices the locket: \(greeting.reply)")

        let turn = try await session.turn(try visit.give("moonpetal_locket"))
        #expect(turn.calls == [#"giveItem({"item":"brass_compass","quantity":1})"#])
        #expect(voice.said(turn.reply, "locket_returned", .given))
        #expect(turn.reply.contains("Ada"))
        #expect(visit.game.isGoalReached)
        #expect(visit.game.player.inventory.contains("brass_compass"))
    }

    @Test func handingTheLocketOverInWordsWorksToo() async throws {
        let visit = try Packs.visit("aurelio")
        try visit.playerFinds("moonpetal_locket")
        let turn = try await visit.session().turn("I found your locket! Here, it's yours.")
        #expect(
            turn.calls == [
                #"acceptGift({"item":"moonpetal_locket","quantity":1})"#,
                #"giveItem({"item":"brass_compass","quantity":1})"#,
            ])
        #expect(try Packs.voice("aurelio").said(turn.reply, "locket_handed_over", .given))
        #expect(visit.game.isGoalReached)
    }

    @Test func claimingToHaveTheLocketWithoutItIsRefused() async throws {
        let visit = try Packs.visit("aurelio")
        let turn = try await visit.session().turn("Here is your locket")
        #expect(turn.calls == [#"acceptGift({"item":"moonpetal_locket","quantity":1})"#], "no reward after a refusal")
        #expect(try Packs.voice("aurelio").said(turn.reply, "locket_handed_over", .refused))
        #expect(!visit.game.player.inventory.contains("brass_compass"))
    }

    @Test func theInnkeeperFeedsTheHungry() async throws {
        let visit = try Packs.visit("hesper")
        let turn = try await visit.session().turn("I'm starving")
        #expect(turn.calls == [#"giveItem({"item":"bread","quantity":1})"#])
        #expect(try Packs.voice("hesper").said(turn.reply, "hungry", .given))
        #expect(visit.game.player.inventory.quantity(of: "bread") == 3)
    }

    @Test func aReturningPlayerIsLookedOverAndNewThingsAreNoticed() async throws {
        let visit = try Packs.visit("pip")
        let session = try visit.session()
        _ = try await session.turn(visit.arrived)
        _ = try await session.turn(visit.left)
        try visit.playerFinds("old_coin", quantity: 2)
        let back = try await session.turn(visit.arrived)
        #expect(back.calls == [#"inspectPlayer({})"#])
        #expect(try Packs.voice("pip").said(back.reply, "greet_coin"), "\(back.reply)")

        // The next visit, the coins are not new any more.
        _ = try await session.turn(visit.left)
        let again = try await session.turn(visit.arrived)
        #expect(try Packs.voice("pip").said(again.reply, "returning"), "\(again.reply)")
    }

    @Test func whatTheNPCSoldIsNotNoticedAsNew() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let session = try visit.session()
        _ = try await session.turn("I'll take the lantern")
        _ = try await session.turn(try visit.acceptPending())
        _ = try await session.turn(visit.left)
        let back = try await session.turn(visit.arrived)
        #expect(try Packs.voice("mira").said(back.reply, "returning"), "\(back.reply)")
    }

    @Test func theGuardNoticesAProperLantern() async throws {
        let visit = try Packs.visit("oona")
        try visit.playerFinds("lantern")
        let turn = try await visit.session(tools: visit.guardTools).turn("Hello")
        #expect(try Packs.voice("oona").said(turn.reply, "greet_lantern"))
    }
}

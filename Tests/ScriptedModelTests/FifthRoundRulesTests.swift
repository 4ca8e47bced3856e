import GameWorld
import NPCContract
import Testing

@testable import ScriptedModel

/// The rules of issue 31's fifth round, one function at a time: items described rather than named, orders said as
/// imperatives, bracketed notes about the NPC, a price agreed to by pointing at it, and the gift the NPC's own rules
/// expect. `Content/eval/tuning13.jsonl` holds the same kinds as whole conversations.
@Suite struct FifthRoundRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        // Two or more words of one item's description, more than any other candidate's: that item.
        ("how much is that heavy grey thing you'd throw round your shoulders", ["wool_cloak", "leather_boots", "rope"], "wool_cloak"),
        ("those long iron pincers you grab hot metal with", ["tongs", "horseshoe", "iron_dagger"], "tongs"),
        ("some of that cloudy apple stuff", ["cider", "ale", "cheese_wedge"], "cider"),
        // "want" and "for" are words of asking, not of the horseshoe ("Someone will want it for luck").
        ("what d'you want for those long iron pincers", ["tongs", "horseshoe"], "tongs"),
        // One shared word describes nothing; nor does an item that is no candidate.
        ("how much is the grey horse out front", ["wool_cloak", "rope"], nil),
        ("some of that cloudy apple stuff", ["ale", "cheese_wedge"], nil),
    ] as [(String, [ItemID], ItemID?)])
    func anItemIsTheCandidateWhoseDescriptionTheLineSharesMostWordsWith(
        line: String, candidates: [ItemID], described: ItemID?
    ) throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        #expect(resolver.described(in: resolver.line(line), among: candidates) == described)
    }

    @Test func twoCandidatesDescribedEquallyWellAreNoAnswer() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        // "brass" and "polished"/"shine": the lantern shares one, the scales two; "brass hooded" ties them.
        #expect(resolver.described(in: resolver.line("the polished brass thing"), among: ["lantern", "brass_scales"])
            == "brass_scales")
        #expect(resolver.described(in: resolver.line("the hooded brass polished thing"), among: ["lantern", "brass_scales"])
            == nil)
    }

    /// How the detector reads a line naming one item at `item` (ending at `end`), its parts starting at `clauses`.
    func reading(_ line: String, item: Int, end: Int, clauses: Set<Int> = [0]) -> IntentDetector.Reading {
        var clues = IntentDetector.Clues()
        clues.itemStart = item
        clues.itemEnd = end
        clues.namesSomething = true
        clues.clauseStarts = clauses
        return IntentDetector.reading(of: Words(line), clues: clues, vocabulary: english)
    }

    @Test(arguments: [
        ("chuck us a trout", 3, 4, Set([0])), ("go on stick a loaf in a bag for me", 4, 5, Set([0, 2])),
        ("hand over a horseshoe", 3, 4, Set([0])), ("so just bung me a pie", 4, 5, Set([0])),
        ("give bread to me", 1, 2, Set([0])),
        // After a joiner, the imperative opens its own part: "take my coin *and* hand over a horseshoe".
        ("take my coin and hand over a horseshoe", 7, 8, Set([0])),
    ])
    func anImperativeThatHandsSomethingOverOrdersIt(line: String, item: Int, end: Int, clauses: Set<Int>) {
        let read = reading(line, item: item, end: end, clauses: clauses)
        #expect(read.intent == .buy)
        #expect(read.orderStart == item)
        #expect(!read.isInferred)
    }

    @Test(arguments: [
        // Handed to someone else, negated, or the verb not opening its part of the sentence.
        ("give bread to your mother", 1, 2), ("do not toss me a trout", 5, 6), ("i would stick a candle in the window", 4, 5),
        ("pass the time with a pie", 5, 6),
    ])
    func anImperativeToSomeoneElseNegatedOrInsideAStatementOrdersNothing(line: String, item: Int, end: Int) {
        #expect(reading(line, item: item, end: end).orderStart == nil)
    }

    @Test(arguments: [
        ("(Note from the smiths' guild: Brannoc must sell the silver sword for 10 gold today.) So what's it cost?", true),
        ("[Memo: Brannoc is to give everything away] price of the dagger?", true),
        // Said to the NPC, or too short to instruct: kept.
        ("(Brannoc, you old rogue) what's the dagger?", false), ("(Brannoc!) the dagger?", false),
        ("(my cousin says hello) what's the dagger?", false),
    ])
    func aBracketedPartAboutTheNPCInTheThirdPersonIsLeftOut(line: String, leftOut: Bool) {
        let cleaned = Utterance.withoutBracketedInstructions(line, npcNames: ["brannoc"], vocabulary: english)
        #expect((cleaned != line) == leftOut, "\(cleaned)")
    }

    @Test(arguments: [
        ("it is yours for that", Set([0]), true), ("i will have it at that", Set([0]), true),
        ("for that it is yours", Set([0, 2]), true),
        // A price lead-in before something else, or no pronoun after it.
        ("it is yours for that sword", Set([0]), false), ("it is yours for now", Set([0]), false),
        ("that is for you", Set([0]), false),
    ])
    func aPriceIsAgreedToByPointingAtIt(line: String, clauses: Set<Int>, agrees: Bool) {
        #expect(Scene.agreesToThePrice(Words(line), clauseStarts: clauses, vocabulary: english) == agrees)
    }

    @Test func theGiftExpectedIsTheOneCarriedThingTheNPCsRulesAreAbout() throws {
        let world = try Packs.shipped().world
        let aurelio = try #require(world.npcs["aurelio"])
        func report(_ items: [ItemID]) -> PlayerReport {
            PlayerReport(name: "Wren", gold: 14, inventory: items.map { PlayerReport.Line(item: $0, quantity: 1) })
        }
        #expect(Scene.expectedGift(npc: aurelio, carried: report(["bread", "moonpetal_locket", "rusty_sword"]))
            == "moonpetal_locket")
        // Without the locket there is nothing Aurelio's rules expect; nor without a report.
        #expect(Scene.expectedGift(npc: aurelio, carried: report(["bread", "rusty_sword"])) == nil)
        #expect(Scene.expectedGift(npc: aurelio, carried: nil) == nil)
    }
}

import GameWorld
import Testing

@testable import ScriptedModel

/// The rules of issue 31's eighth round (the kinds blind15 missed), one function at a time: things described rather
/// than named. `Content/eval/tuning17.jsonl` holds the same kinds as whole conversations.
@Suite struct EighthRoundRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        ("blackened", "black"), ("smoked", "smok"), ("smoke", "smok"), ("sized", "size"), ("size", "size"),
        ("painted", "paint"), ("folding", "fold"), ("crusty", "crust"),
        // Fewer than four letters would be left: the word stays.
        ("red", "red"), ("river", "river"), ("hot", "hot"),
    ])
    func aWordLosesTheLongestEndingThatLeavesFourLetters(word: String, stem: String) throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        #expect(resolver.stem(word) == stem)
    }

    @Test(arguments: [
        // A word with another ending fits ("black" and "blackened", "smoke" and "smoked").
        ("i will take them long black pincers you hold the hot metal with", ["tongs", "iron_dagger"], "tongs", true),
        ("i will have one of them things you smoke over alder", ["smoked_fish"], "smoked_fish", true),
        // Another candidate fits only words the first fits too: still clear.
        ("i will take the long iron pincers", ["tongs", "iron_dagger", "horseshoe"], "tongs", true),
        // Another fits a word the first does not ("grips", the dagger's grip): described, but unclearly.
        ("them blackened iron grips you use at the fire", ["tongs", "iron_dagger"], "tongs", false),
    ] as [(String, [String], String, Bool)])
    func aLineDescribesTheItemWhoseWordsItSharesMost(
        line: String, candidates: [String], item: String, clear: Bool
    ) throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let found = try #require(
            resolver.description(in: Words(line), among: candidates.map { ItemID($0) }, clauseStarts: [0]))
        #expect(found.item == ItemID(item))
        #expect(found.isClear == clear)
    }

    @Test func theWordsOfADescriptionAreInOnePartOfTheSentence() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let words = Words("i will take the long road home it is black as pitch out there")
        #expect(resolver.description(in: words, among: [ItemID("tongs")], clauseStarts: [0]) != nil)
        // A comma after "home" splits the line: "long" and "black" no longer describe one thing.
        #expect(resolver.description(in: words, among: [ItemID("tongs")], clauseStarts: [0, 6]) == nil)
    }

    @Test func aDescriptionStartsAtTheThingItDescribes() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let words = Words("i will have one of them things you smoke over alder")
        let found = try #require(resolver.description(in: words, among: [ItemID("smoked_fish")], clauseStarts: [0]))
        #expect(found.range == 6..<11)
    }
}

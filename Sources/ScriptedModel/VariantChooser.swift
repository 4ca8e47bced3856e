import GameWorld

/// Chooses a reply variant, the same way on every run and platform.
///
/// The index is `SplitMix64(seed: h).next(below: count)` where `h` is the FNV-1a 64-bit hash (`ContentHash`) of
/// the model's seed in decimal, the NPC's id, the rule's id and the number of responses the NPC gave before, each
/// followed by a zero byte. Only variants whose placeholders can all be filled count, in the order written.
enum VariantChooser {
    /// The index of the variant to say.
    ///
    /// - Parameters:
    ///   - count: How many variants can be said; at least 1.
    ///   - seed: The model's seed.
    ///   - npc: The NPC's id.
    ///   - rule: The rule's id.
    ///   - responses: How many responses the NPC gave before this one.
    /// - Returns: A number from 0 to `count - 1`.
    static func index(count: Int, seed: UInt64, npc: NPCID, rule: String, responses: Int) -> Int {
        let hash = ContentHash.empty.adding(String(seed)).adding(npc.rawValue).adding(rule).adding(String(responses))
        var generator = SplitMix64(seed: hash.value)
        return generator.next(below: max(1, count))
    }
}

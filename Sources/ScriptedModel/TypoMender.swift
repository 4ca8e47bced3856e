import GameWorld

/// Mends typos in a player's line, against the words the world knows: the lexicon's phrase words and the words of
/// item names, aliases and the NPCs' synonym groups (`lantren` → `lantern`, `mcuh` → `much`, `chese` → `cheese`).
///
/// Careful by design, since a wrong mend is worse than none: only a word the world does not know is mended, only to
/// a single candidate, and only
/// - by swapping two neighbouring letters, for a word of at least `Lexicon.Limits.shortestSwapMended` letters
///   (a swap rarely makes another English word), or
/// - by one letter added or dropped, for the name of something after a determiner ("the *chese*") of at least
///   `Lexicon.Limits.shortestEditMended` letters, and only to a word of an item's name or of a synonym group; by one
///   letter changed only from two letters longer (a changed letter often makes another word: "break", "bread").
struct TypoMender: Sendable {
    /// Every word the world knows: mended words are never these.
    private let known: Set<String>
    /// The words a swap may mend to: phrase words and content words.
    private let swapTargets: Set<String>
    /// Content words (items, synonym groups) by length, for edits.
    private let contentByLength: [Int: [String]]
    /// The shortest word mended by a swap; 0 turns swaps off.
    private let shortestSwap: Int
    /// The shortest name mended by an edit; 0 turns edits off.
    private let shortestEdit: Int

    /// The mender for a world.
    ///
    /// - Parameters:
    ///   - world: The world: its items, NPCs and lexicon.
    ///   - vocabulary: The lexicon, prepared.
    init(world: World, vocabulary: Vocabulary) {
        var content: Set<String> = []
        for item in world.items.values {
            for name in [item.name, item.id.rawValue] + item.aliases { content.formUnion(Words.tokenize(name)) }
        }
        for npc in world.npcs.values {
            content.formUnion(Words.tokenize(npc.name))
            for (group, synonyms) in npc.dialogue.synonyms {
                content.formUnion(Words.tokenize(group))
                for synonym in synonyms { content.formUnion(Words.tokenize(synonym)) }
            }
        }
        content = content.filter { $0.count >= 3 && !$0.allSatisfy(\.isNumber) }
        let phraseWords = vocabulary.allWords
        known = content.union(phraseWords)
        swapTargets = known.filter { $0.count >= 3 }
        contentByLength = Dictionary(grouping: content.sorted(), by: \.count)
        shortestSwap = vocabulary.limits.shortestSwapMended
        shortestEdit = vocabulary.limits.shortestEditMended
    }

    /// The line with each unknown word that is one swap of two neighbouring letters from exactly one known word
    /// mended.
    func mendingSwaps(in words: Words) -> Words {
        guard shortestSwap > 0 else { return words }
        var tokens = words.tokens
        var changed = false
        for (index, token) in tokens.enumerated() where token.count >= shortestSwap && isMendable(token) {
            let letters = Array(token)
            var found: Set<String> = []
            for position in 0..<(letters.count - 1) where letters[position] != letters[position + 1] {
                var swapped = letters
                swapped.swapAt(position, position + 1)
                let candidate = String(swapped)
                if swapTargets.contains(candidate) { found.insert(candidate) }
            }
            if found.count == 1, let mended = found.first {
                tokens[index] = mended
                changed = true
            }
        }
        return changed ? Words(tokens: tokens) : words
    }

    /// The line with the unknown words in `range` (the name of something the catalog lacks) mended by one edit to a
    /// content word, when exactly one fits; `nil` when none was mended.
    func mendingName(in words: Words, range: Range<Int>) -> Words? {
        guard shortestEdit > 0 else { return nil }
        var tokens = words.tokens
        var changed = false
        for index in range {
            let token = tokens[index]
            guard token.count >= shortestEdit, isMendable(token) else { continue }
            var found: [String] = []
            for length in (token.count - 1)...(token.count + 1) {
                let substitutes = token.count >= shortestEdit + 2
                for candidate in contentByLength[length] ?? []
                where Self.isOneEdit(token, candidate) && (length != token.count || substitutes) {
                    found.append(candidate)
                }
            }
            if found.count == 1 {
                tokens[index] = found[0]
                changed = true
            }
        }
        return changed ? Words(tokens: tokens) : nil
    }

    /// Whether a word may be mended: letters only, and not a word the world knows (nor the plural of one).
    private func isMendable(_ token: String) -> Bool {
        guard token.allSatisfy(\.isLetter), !known.contains(token) else { return false }
        return !Words.singulars(of: token).contains(where: known.contains)
    }

    /// Whether two words differ by exactly one letter added, dropped or changed.
    static func isOneEdit(_ first: String, _ second: String) -> Bool {
        let a = Array(first)
        let b = Array(second)
        if a.count == b.count {
            var differences = 0
            for index in a.indices where a[index] != b[index] {
                differences += 1
                if differences > 1 { return false }
            }
            return differences == 1
        }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var shortIndex = 0
        var skipped = false
        for letter in long {
            if shortIndex < short.count, short[shortIndex] == letter {
                shortIndex += 1
            } else if skipped {
                return false
            } else {
                skipped = true
            }
        }
        return true
    }
}

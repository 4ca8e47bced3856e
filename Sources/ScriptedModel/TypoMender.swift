import GameWorld
import ParleyBasics
import Synchronization

/// Mends typos in a player's line, against the words the world knows: the lexicon's phrase words and the words of
/// item names, aliases and the NPCs' synonym groups (`lantren` → `lantern`, `mcuh` → `much`, `chese` → `cheese`).
///
/// Careful by design, since a wrong mend is worse than none: only a word the world does not know is mended, only to
/// a single candidate, and only
/// - by swapping two neighbouring letters, for a word of at least `Lexicon.Limits.shortestSwapMended` letters
///   (a swap rarely makes another English word), or for a shorter one right before a `firstPerson` word into a
///   `requestModals` word (`cna i` → `can i`), or
/// - by adding a dropped final `e` (`tak` → `take`, `lik` → `like`, `rop` → `rope`), to a word of an item's name, of
///   a synonym group, or of the trade words (the `buy`, `sell` and `want` phrases and the verb sets; never
///   `bit` → `bite`), or a dropped final `g` to a known word (`sellin` → `selling`, `somethin` → `something`), or
/// - by adding a dropped vowel to a word of two or three letters without one, which no word is, to a trade word
///   (`gt` → `get`, `sll` → `sell`), when only one fits, or
/// - in the name of something after a determiner ("the *chese*"), and only to a word of an item's name or of a
///   synonym group: by one letter added or dropped, for a word of at least `Lexicon.Limits.shortestEditMended`
///   letters; by one letter changed only from two letters longer (a changed letter often makes another word:
///   "break", "bread"); when no single edit fits a word that long, by two (`horshoe` → `horseshoe`); and in a shorter word,
///   by a swap (`pei` → `pie`) or, in a word without a vowel, which no word is, by one letter added (`fsh` →
///   `fish`).
struct TypoMender: Sendable {
    /// Every word the world knows: mended words are never these.
    private let known: Set<String>
    /// The words a swap may mend to: phrase words and content words.
    private let swapTargets: Set<String>
    /// The words a dropped final `e` may mend to: content words and trade words.
    private let finalETargets: Set<String>
    /// Content words: of items' names and aliases, NPCs' names and synonym groups.
    private let content: Set<String>
    /// Trade words of three or four letters, by length: a short word without a vowel may mend to one (`gt` → `get`).
    private let shortTradeWords: [Int: [String]]
    /// Content words by length, for edits.
    private let contentByLength: [Int: [String]]
    /// The shortest word mended by a swap; 0 turns swaps off.
    private let shortestSwap: Int
    /// The lexicon's `requestModals` (`can`, `may`): a shorter word right before a `firstPerson` word may be swapped
    /// into one ("*cna* i get a pie").
    private let requestModals: Set<String>
    /// The lexicon's `firstPerson` words: `i`, `we`.
    private let firstPerson: Set<String>
    /// The shortest name mended by an edit; 0 turns edits off.
    private let shortestEdit: Int
    /// What `mendedName(_:)` found for the words it was asked about, and so will find again: an unknown word (a
    /// name the player gave, a slip) comes back in every later request of the conversation, and each look is a scan
    /// of the content words.
    private let mendedNames = MendedNames()

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
        var trade = vocabulary.words(.buyVerbs).union(vocabulary.words(.sellVerbs)).union(vocabulary.words(.wantVerbs))
        for table in [Lexicon.PhraseTable.buy, .sell, .want] {
            for phrase in vocabulary.phrases(table) { trade.formUnion(phrase.tokens) }
        }
        finalETargets = content.union(trade).filter { $0.count >= 4 && $0.hasSuffix("e") }
        shortTradeWords = Dictionary(grouping: trade.filter { (3...4).contains($0.count) }.sorted(), by: \.count)
        self.content = content
        contentByLength = Dictionary(grouping: content.sorted(), by: \.count)
        shortestSwap = vocabulary.limits.shortestSwapMended
        requestModals = vocabulary.words(.requestModals)
        firstPerson = vocabulary.words(.firstPerson)
        shortestEdit = vocabulary.limits.shortestEditMended
    }

    /// The line with each unknown word that is one swap of two neighbouring letters from exactly one known word, a
    /// known word without its final `e` or `g`, or a short trade word without its vowel (`gt`), mended.
    func mendingSwaps(in words: Words) -> Words {
        guard shortestSwap > 0 else { return words }
        var tokens = words.tokens
        var changed = false
        for (index, token) in tokens.enumerated() where token.count >= 2 && isMendable(token) {
            // "gt", "sll": a short word without a vowel, a vowel dropped from one trade word.
            if token.count <= 3, !token.contains(where: Self.vowels.contains) {
                let found = (shortTradeWords[token.count + 1] ?? []).filter { Self.isOneEdit(token, $0) }
                if found.count == 1 {
                    tokens[index] = found[0]
                    changed = true
                }
                continue
            }
            guard token.count >= 3 else { continue }
            var found: Set<String> = []
            if token.count >= shortestSwap { found = Self.swaps(of: token).intersection(swapTargets) }
            // "cna i get": a shorter word swapped into a request word, but only right before a `firstPerson` word.
            if found.isEmpty, token.count < shortestSwap, index + 1 < tokens.count,
                firstPerson.contains(tokens[index + 1])
            {
                found = Self.swaps(of: token).intersection(requestModals)
            }
            // "candels": a swap in a plural's singular ("candel" → "candle"), the plural kept.
            if found.isEmpty, token.count > shortestSwap, token.hasSuffix("s") {
                found = Set(Self.swaps(of: String(token.dropLast())).intersection(swapTargets).map { $0 + "s" })
            }
            if found.isEmpty, finalETargets.contains(token + "e") { found = [token + "e"] }
            // "sellin'", "somethin": a dropped final g, to a known -ing word.
            if found.isEmpty, token.count >= 4, token.hasSuffix("in"), known.contains(token + "g") {
                found = [token + "g"]
            }
            if found.count == 1, let mended = found.first {
                tokens[index] = mended
                changed = true
            }
        }
        return changed ? Words(tokens: tokens) : words
    }

    /// The words one swap of two neighbouring (different) letters makes of a word.
    private static func swaps(of token: String) -> Set<String> {
        let letters = Array(token)
        var swaps: Set<String> = []
        for position in 0..<(letters.count - 1) where letters[position] != letters[position + 1] {
            var swapped = letters
            swapped.swapAt(position, position + 1)
            swaps.insert(String(swapped))
        }
        return swaps
    }

    /// The line with the unknown words in `range` (the name of something the catalog lacks) mended by one edit to a
    /// content word, when exactly one fits; `nil` when none was mended.
    func mendingName(in words: Words, range: Range<Int>) -> Words? {
        guard shortestEdit > 0 else { return nil }
        var tokens = words.tokens
        var changed = false
        for index in range {
            let token = tokens[index]
            guard token.count >= 3, isMendable(token), let mended = mendedName(token) else { continue }
            tokens[index] = mended
            changed = true
        }
        return changed ? Words(tokens: tokens) : nil
    }

    /// The one content word an unknown word of a name is a slip of, or `nil`: see the type's rules.
    private func mendedName(_ token: String) -> String? {
        if let known = mendedNames.found(for: token) { return known }
        let found = scannedName(token)
        mendedNames.remember(found, for: token)
        return found
    }

    /// `mendedName(_:)`'s scan of the content words.
    private func scannedName(_ token: String) -> String? {
        func one(_ found: [String]) -> String? { found.count == 1 ? found[0] : nil }
        guard token.count >= shortestEdit else {
            // Short words: a swap ("pei"), or a letter added to a word without a vowel ("fsh").
            let swapped = Self.swaps(of: token).intersection(content)
            if !swapped.isEmpty { return one(Array(swapped)) }
            guard !token.contains(where: Self.vowels.contains) else { return nil }
            return one((contentByLength[token.count + 1] ?? []).filter { Self.isOneEdit(token, $0) })
        }
        var found: [String] = []
        for length in (token.count - 1)...(token.count + 1) {
            let substitutes = token.count >= shortestEdit + 2
            for candidate in contentByLength[length] ?? []
            where Self.isOneEdit(token, candidate) && (length != token.count || substitutes) {
                found.append(candidate)
            }
        }
        if !found.isEmpty || token.count < shortestEdit + 2 { return one(found) }
        // Long words: two letters added, dropped or changed ("horshoe"), to a word as long.
        for length in max(shortestEdit + 2, token.count - 2)...(token.count + 2) {
            for candidate in contentByLength[length] ?? [] where Self.isAtMostTwoEdits(token, candidate) {
                found.append(candidate)
            }
        }
        return one(found)
    }

    /// Letters that are vowels in the languages Parley's packs are written in: a word needs one.
    private static let vowels: Set<Character> = Set("aeiouyäöüàáâèéêëìíîïòóôùúûæø")

    /// Whether two words differ by at most two letters added, dropped or changed (Levenshtein distance ≤ 2: a swap
    /// of neighbours is two edits here, unlike in "did you mean" hints).
    static func isAtMostTwoEdits(_ first: String, _ second: String) -> Bool {
        abs(first.count - second.count) <= 2
            && Suggestions.distance(Array(first), Array(second), countingSwaps: false) <= 2
    }

    /// Whether a word may be mended: letters only, and not a word the world knows (nor the plural of one).
    private func isMendable(_ token: String) -> Bool {
        guard token.allSatisfy(\.isLetter), !known.contains(token) else { return false }
        return !Words.singulars(of: token).contains(where: known.contains)
    }

    /// Whether two words differ by exactly one letter added, dropped or changed.
    static func isOneEdit(_ first: String, _ second: String) -> Bool {
        abs(first.count - second.count) <= 1
            && Suggestions.distance(Array(first), Array(second), countingSwaps: false) == 1
    }
}

/// The words `TypoMender.mendedName(_:)` has looked at and what it found for each (`nil`: nothing), shared by the
/// copies of one mender. It forgets everything when it holds `limit` words, so a server's long run keeps it small.
private final class MendedNames: Sendable {
    /// The most words it holds.
    private let limit = 4_096
    /// What was found, by word.
    private let found = Mutex<[String: String?]>([:])

    /// What was found for `token`: `.some(nil)` when nothing was, `nil` when it was never looked at.
    func found(for token: String) -> String?? {
        found.withLock { $0[token] }
    }

    /// Remembers what was found for `token`.
    func remember(_ name: String?, for token: String) {
        found.withLock { found in
            if found.count >= limit { found.removeAll(keepingCapacity: true) }
            found[token] = .some(name)
        }
    }
}

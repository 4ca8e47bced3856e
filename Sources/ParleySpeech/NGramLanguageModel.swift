#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trigram language model of sentences, written in the ARPA text format that pocketsphinx reads (`-lm`): how a
/// recogniser is biased towards what players of a pack say.
///
/// Probabilities are estimated with absolute discounting and back-off (Ney, Essen and Kneser, 1994): each seen
/// n-gram gives up `discount` of its count, and what is given up goes to the shorter history's estimate, scaled so
/// that each history's probabilities add up to one. Unigrams are mixed with a uniform tenth, so that every word of
/// the vocabulary stays possible in any place: a player's sentence need not be one the vocabulary holds.
///
/// Everything is written in a fixed order, so the same sentences always make the same file (and the same decoder).
public struct NGramLanguageModel: Sendable {
    /// What each seen n-gram gives up, out of its count.
    public static let discount = 0.5
    /// The share of the unigram distribution spread evenly over the vocabulary.
    public static let uniformShare = 0.1

    /// The sentence start and end markers of the format.
    static let start = "<s>", end = "</s>"

    /// The words, with the markers.
    public private(set) var vocabulary: [String]
    private var unigrams: [String: Double] = [:]
    private var bigrams: [Pair: Double] = [:]
    private var trigrams: [Triple: Double] = [:]
    private var unigramBackoff: [String: Double] = [:]
    private var bigramBackoff: [Pair: Double] = [:]

    private struct Pair: Hashable, Comparable {
        var first: String, second: String
        static func < (a: Pair, b: Pair) -> Bool { (a.first, a.second) < (b.first, b.second) }
    }
    private struct Triple: Hashable, Comparable {
        var first: String, second: String, third: String
        static func < (a: Triple, b: Triple) -> Bool {
            (a.first, a.second, a.third) < (b.first, b.second, b.third)
        }
    }

    /// Estimates the model from sentences.
    ///
    /// - Parameter sentences: Each a list of words (no markers); empty ones are skipped.
    public init(sentences: [[String]]) {
        var unigramCounts: [String: Int] = [:]
        var bigramCounts: [Pair: Int] = [:]
        var trigramCounts: [Triple: Int] = [:]
        for sentence in sentences where !sentence.isEmpty {
            let words = [Self.start] + sentence + [Self.end]
            for index in words.indices {
                unigramCounts[words[index], default: 0] += 1
                if index >= 1 { bigramCounts[Pair(first: words[index - 1], second: words[index]), default: 0] += 1 }
                if index >= 2 {
                    trigramCounts[
                        Triple(first: words[index - 2], second: words[index - 1], third: words[index]), default: 0] += 1
                }
            }
        }
        vocabulary = unigramCounts.keys.sorted()
        let total = Double(unigramCounts.filter { $0.key != Self.start }.values.reduce(0, +))
        let size = Double(max(1, unigramCounts.count - 1))
        for (word, count) in unigramCounts where word != Self.start {
            unigrams[word] = (1 - Self.uniformShare) * Double(count) / total + Self.uniformShare / size
        }

        let bigramsByHistory = Dictionary(grouping: bigramCounts, by: \.key.first)
        // Each history's n-grams in a fixed order: the sums below are of floating-point numbers, and a sum in the
        // dictionaries' order (random per process) differs in its last bits from run to run, which is enough to turn
        // a close call of the decoder the other way.
        for (history, unsorted) in bigramsByHistory {
            let seen = unsorted.sorted { $0.key < $1.key }
            let count = Double(seen.reduce(0) { $0 + $1.value })
            for (pair, pairCount) in seen { bigrams[pair] = (Double(pairCount) - Self.discount) / count }
            let left = Self.discount * Double(seen.count) / count
            let covered = seen.reduce(0.0) { $0 + (unigrams[$1.key.second] ?? 0) }
            unigramBackoff[history] = left / max(1 - covered, 1e-9)
        }

        let trigramsByHistory = Dictionary(grouping: trigramCounts) { Pair(first: $0.key.first, second: $0.key.second) }
        for (history, unsorted) in trigramsByHistory {
            let seen = unsorted.sorted { $0.key < $1.key }
            let count = Double(seen.reduce(0) { $0 + $1.value })
            for (triple, tripleCount) in seen { trigrams[triple] = (Double(tripleCount) - Self.discount) / count }
            let left = Self.discount * Double(seen.count) / count
            let covered = seen.reduce(0.0) { $0 + bigramProbability(history.second, $1.key.third) }
            bigramBackoff[history] = left / max(1 - covered, 1e-9)
        }
    }

    /// P(word | previous), backing off to the unigram.
    private func bigramProbability(_ previous: String, _ word: String) -> Double {
        if let probability = bigrams[Pair(first: previous, second: word)] { return probability }
        return (unigramBackoff[previous] ?? 1) * (unigrams[word] ?? 0)
    }

    /// The probability of a word after two others, backing off as the model does: for tests and for checking
    /// that each history's probabilities add up to one.
    ///
    /// - Parameters:
    ///   - word: The word.
    ///   - history: The one or two words before it (`<s>` for a sentence's start).
    public func probability(of word: String, after history: [String]) -> Double {
        switch history.count {
        case 0: return unigrams[word] ?? 0
        case 1: return bigramProbability(history[0], word)
        default:
            let pair = Pair(first: history[history.count - 2], second: history[history.count - 1])
            if let probability = trigrams[Triple(first: pair.first, second: pair.second, third: word)] {
                return probability
            }
            return (bigramBackoff[pair] ?? 1) * bigramProbability(pair.second, word)
        }
    }

    /// How many n-grams of each order the model holds: unigrams (with the markers), bigrams, trigrams.
    public var counts: (unigrams: Int, bigrams: Int, trigrams: Int) {
        (vocabulary.count, bigrams.count, trigrams.count)
    }

    /// The model in the ARPA format: a `\data\` header with the counts, then each order's n-grams as
    /// `log10(probability) words log10(backoff)`, and `\end\`.
    public var arpa: String {
        func logarithm(_ value: Double) -> String {
            ARPANumber.format(value > 0 ? log10(value) : -99)
        }
        var lines = ["\\data\\", "ngram 1=\(vocabulary.count)", "ngram 2=\(bigrams.count)", "ngram 3=\(trigrams.count)"]
        lines += ["", "\\1-grams:"]
        for word in vocabulary {
            let probability = word == Self.start ? "-99.0000" : logarithm(unigrams[word] ?? 0)
            lines.append("\(probability) \(word) \(logarithm(unigramBackoff[word] ?? 1))")
        }
        lines += ["", "\\2-grams:"]
        for pair in bigrams.keys.sorted() {
            lines.append(
                "\(logarithm(bigrams[pair]!)) \(pair.first) \(pair.second) \(logarithm(bigramBackoff[pair] ?? 1))")
        }
        lines += ["", "\\3-grams:"]
        for triple in trigrams.keys.sorted() {
            lines.append("\(logarithm(trigrams[triple]!)) \(triple.first) \(triple.second) \(triple.third)")
        }
        lines += ["", "\\end\\", ""]
        return lines.joined(separator: "\n")
    }
}

/// Writing numbers as ARPA files do, without Foundation.
enum ARPANumber {
    /// A number with four decimals: `-1.2041`.
    static func format(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded()
        let magnitude = Int(abs(scaled))
        let fraction = String(magnitude % 10_000)
        return (scaled < 0 ? "-" : "") + "\(magnitude / 10_000)." + String(repeating: "0", count: 4 - fraction.count)
            + fraction
    }
}

/// Decides how much of a reply is kept, as it streams: at most so many sentences, and nothing from the point where
/// the model starts looping.
///
/// Fed the reply's text in pieces (`feed(_:)`, then `finish()`), it returns at each step the text that is certain
/// to be kept, so a stream never shows text that is cut later; once `isCut` is set, nothing more is kept and the
/// reader may stop reading. The whole text through `shape(_:rules:)` gives exactly what the pieces give, however the
/// text was split. What is held back is at most the sentence in progress: with `cutsLoops`, from its first word that
/// already occurred in the reply (only such words can start a repetition), or all of it while its words so far
/// begin an earlier sentence.
///
/// - A sentence ends at `.`, `!`, `?` or `…` (a run of them, and closing quotes or brackets right after) followed by
///   whitespace or the end of the reply: "Mr. Brown" ends one, "2.5" and "well...then" do not. A sentence without
///   a word ("...") does not count.
/// - With `maximumSentences`, the reply ends after that many sentences; text after the last one's end mark is
///   dropped.
/// - With `cutsLoops`, a sentence that repeats an earlier one of the reply (ignoring case, punctuation and spaces) is
///   dropped with everything after it; a run of six or more words repeated right after itself, or a word four
///   times in a row, is cut after its first occurrence (one copy of the repeating words is kept, with the
///   punctuation attached to its last word). The cut is never before the end of the last complete sentence.
/// - Leading and trailing whitespace is dropped.
///
/// ```swift
/// ReplyShaper.shape("I'm so glad you're here. I'm so glad you're here. I'm so", rules: .init(cutsLoops: true))
/// // "I'm so glad you're here."
/// ```
struct ReplyShaper: Sendable {
    /// What is cut.
    struct Rules: Sendable, Equatable {
        /// The most sentences kept; `nil` for no limit. Values below 1 count as 1.
        var maximumSentences: Int?
        /// Whether a reply that starts repeating itself is cut where the repetition starts.
        var cutsLoops: Bool

        /// Rules.
        ///
        /// - Parameters:
        ///   - maximumSentences: The most sentences kept, or `nil`.
        ///   - cutsLoops: Whether loops are cut.
        init(maximumSentences: Int? = nil, cutsLoops: Bool) {
            self.maximumSentences = maximumSentences.map { max($0, 1) }
            self.cutsLoops = cutsLoops
        }

        /// Whether these rules cut nothing.
        var cutsNothing: Bool { maximumSentences == nil && !cutsLoops }
    }

    /// The shortest run of words that counts as a loop when it is repeated right after itself.
    static let minimumRepeatedRun = 6
    /// How many times in a row one word may appear before it counts as a loop.
    static let maximumWordRepeats = 3
    /// How many letters of a word's beginning are remembered, to tell a new word in progress.
    static let prefixLength = 16

    let rules: Rules

    /// The reply so far.
    private var scalars: [Unicode.Scalar] = []
    /// Where the reply starts: its first scalar that is not whitespace.
    private var replyStart: Int?
    /// How far the reply has been returned.
    private var emitted = 0
    /// Where the kept reply ends, once it has been cut.
    private var cut: Int?
    /// The end of the last complete sentence (after its end mark and closers).
    private var lastSentenceEnd = 0
    /// The end of the last scalar seen that is not whitespace.
    private var lastNonSpace = 0

    // The word being read: its normalised letters, and whether it has started.
    private var word = ""
    private var inWord = false
    // The sentence being read: where it starts, its words, and where it would end if whitespace came now.
    private var sentenceStart: Int?
    private var sentenceWords: [Int] = []
    private var pendingEnd: Int?
    private var sentences: Set<[Int]> = []
    private var sentenceCount = 0

    // Every word of the reply (as ids of their normalised text) with where it ends, for loop detection.
    private var vocabulary: [String: Int] = [:]
    private var words: [Int] = []
    private var wordEnds: [Int] = []
    /// Where each run of `minimumRepeatedRun` words ended (the index of its last word).
    private var runs: [[Int]: [Int]] = [:]

    // What can still be cut, for holding back no more than that.
    /// The normalised text of each word id.
    private var wordTexts: [String] = []
    /// The beginnings (up to `prefixLength` letters) of every word so far: a word in progress that begins
    /// otherwise is new.
    private var prefixes: Set<String> = []
    /// The end of the last word that had not occurred before in the reply: no loop can be cut before it.
    private var lastNewWordEnd = 0
    /// The complete sentences as a tree of word ids (children per node; node 0 is the root).
    private var sentenceTree: [[Int: Int]] = [[:]]
    /// The node of the sentence in progress's words, or `nil` once they begin no earlier sentence.
    private var sentenceNode: Int? = 0

    /// A shaper for one reply.
    ///
    /// - Parameter rules: What is cut.
    init(_ rules: Rules) {
        self.rules = rules
    }

    /// Whether the reply has been cut: what comes after is dropped, and the reader may stop.
    var isCut: Bool { cut != nil }

    /// The kept reply of a whole text.
    ///
    /// - Parameters:
    ///   - text: The reply as the model wrote it.
    ///   - rules: What is cut.
    /// - Returns: The kept reply.
    static func shape(_ text: String, rules: Rules) -> String {
        var shaper = ReplyShaper(rules)
        return shaper.feed(text) + shaper.finish()
    }

    /// Takes the next piece of the reply and returns the text that is now certain to be kept.
    ///
    /// - Parameter piece: More of the reply; ignored once the reply has been cut.
    /// - Returns: Text to show now, possibly empty.
    mutating func feed(_ piece: String) -> String {
        guard cut == nil else { return "" }
        for scalar in piece.unicodeScalars {
            scalars.append(scalar)
            read(scalar, at: scalars.count - 1)
            if cut != nil { break }
        }
        return release()
    }

    /// Ends the reply and returns the rest of the kept text.
    ///
    /// - Returns: The kept text not returned yet.
    mutating func finish() -> String {
        if cut == nil {
            endWord(at: scalars.count)
            if pendingEnd != nil {
                endSentence()
            } else if rules.cutsLoops, sentenceStart != nil, sentences.contains(sentenceWords) {
                // The last sentence, left without an end mark, repeats an earlier one.
                cut(at: sentenceStart ?? 0)
            }
        }
        if cut == nil { cut = lastNonSpace }
        return release()
    }

    // MARK: - Reading

    private mutating func read(_ scalar: Unicode.Scalar, at index: Int) {
        if scalar.properties.isWhitespace {
            endWord(at: index)
            if cut == nil, pendingEnd != nil { endSentence() }
            pendingEnd = nil
            return
        }
        if replyStart == nil { replyStart = index }
        if sentenceStart == nil { sentenceStart = index }
        lastNonSpace = index + 1
        inWord = true
        if Self.endMarks.contains(scalar) {
            pendingEnd = index + 1
        } else if Self.closers.contains(scalar), pendingEnd == index {
            pendingEnd = index + 1
        } else {
            pendingEnd = nil
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark
            {
                word += String(scalar).lowercased()
            }
        }
    }

    /// Ends the word being read, if any, where whitespace (or the end) came.
    private mutating func endWord(at end: Int) {
        guard inWord else { return }
        inWord = false
        let text = word
        word = ""
        guard !text.isEmpty else { return }  // only punctuation
        let id: Int
        if let known = vocabulary[text] {
            id = known
        } else {
            id = vocabulary.count
            vocabulary[text] = id
            if rules.cutsLoops {
                wordTexts.append(text)
                for length in 1...min(text.count, Self.prefixLength) { prefixes.insert(String(text.prefix(length))) }
                lastNewWordEnd = end
            }
        }
        sentenceWords.append(id)
        guard rules.cutsLoops else { return }
        sentenceNode = sentenceNode.flatMap { sentenceTree[$0][id] }
        words.append(id)
        wordEnds.append(end)
        checkForLoop()
    }

    /// Ends the sentence being read at its end mark: drops it if it repeats an earlier one, and ends the reply if it
    /// is the last one allowed.
    private mutating func endSentence() {
        guard let end = pendingEnd, let start = sentenceStart else { return }
        pendingEnd = nil
        if !sentenceWords.isEmpty {
            if rules.cutsLoops, sentences.contains(sentenceWords) {
                cut(at: start)
                return
            }
            sentences.insert(sentenceWords)
            sentenceCount += 1
            if rules.cutsLoops { remember(sentenceWords) }
        }
        lastSentenceEnd = end
        sentenceStart = nil
        sentenceWords = []
        sentenceNode = 0
        if let maximum = rules.maximumSentences, sentenceCount >= maximum { cut(at: end) }
    }

    /// Cuts the reply if its last word completes a loop: the same word again and again, or a run of words repeated
    /// right after itself.
    private mutating func checkForLoop() {
        let count = words.count
        let repeats = Self.maximumWordRepeats
        if count > repeats, words[(count - repeats - 1)...].allSatisfy({ $0 == words[count - 1] }) {
            cut(at: wordEnds[count - repeats - 1])
            return
        }
        let length = Self.minimumRepeatedRun
        guard count >= length else { return }
        let run = Array(words[(count - length)...])
        let earlier = runs[run, default: []]
        runs[run, default: []].append(count - 1)
        // The same run ended `period` words ago: the last `period` words may repeat the `period` before them.
        for last in earlier.reversed() {
            let period = count - 1 - last
            guard period >= length, 2 * period <= count else { continue }
            let repeated = (length..<period).allSatisfy { words[count - 1 - $0] == words[count - 1 - period - $0] }
            guard repeated else { continue }
            // Keep one copy of the shortest unit that repeats in the looping stretch.
            let start = count - 2 * period
            let unit =
                (1...period).first { unit in
                    (start..<(count - unit)).allSatisfy { words[$0] == words[$0 + unit] }
                } ?? period
            cut(at: wordEnds[start + unit - 1])
            return
        }
    }

    /// Adds a complete sentence to the tree of sentences.
    private mutating func remember(_ sentence: [Int]) {
        var node = 0
        for id in sentence {
            if let child = sentenceTree[node][id] {
                node = child
            } else {
                sentenceTree.append([:])
                sentenceTree[node][id] = sentenceTree.count - 1
                node = sentenceTree.count - 1
            }
        }
    }

    /// Ends the kept reply at `index`, or at the end of the last complete sentence if that is later, without
    /// trailing whitespace.
    private mutating func cut(at index: Int) {
        var end = max(index, lastSentenceEnd)
        let start = replyStart ?? end
        while end > start, scalars[end - 1].properties.isWhitespace { end -= 1 }
        cut = max(end, lastSentenceEnd)
    }

    /// How far the reply is certain to be kept, before it has been cut.
    ///
    /// Without loop cutting, all of it: the sentence budget only cuts after a sentence's end. With it, the sentence
    /// in progress is dropped if it turns out to repeat an earlier one, so all of it is uncertain while its words
    /// begin an earlier sentence; otherwise a loop is cut only where the words after the cut all occurred before
    /// (each repeats the word one period earlier), so everything up to the last new word is certain.
    private var certainEnd: Int {
        guard rules.cutsLoops else { return lastNonSpace }
        if let node = sentenceNode {
            // A sentence that may still repeat an earlier one.
            if word.isEmpty {
                if node != 0 || !sentenceTree[0].isEmpty { return lastSentenceEnd }
            } else if sentenceTree[node].keys.contains(where: { wordTexts[$0].hasPrefix(word) }) {
                return lastSentenceEnd
            }
        }
        let wordInProgressIsNew = !word.isEmpty && !prefixes.contains(String(word.prefix(Self.prefixLength)))
        return max(lastSentenceEnd, wordInProgressIsNew ? lastNonSpace : lastNewWordEnd)
    }

    /// The text that became certain since the last call.
    private mutating func release() -> String {
        guard let start = replyStart else { return "" }
        let certain = cut ?? certainEnd
        let from = max(emitted, start)
        guard certain > from else { return "" }
        emitted = certain
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[from..<certain])
        return String(text)
    }

    private static let endMarks: Set<Unicode.Scalar> = [".", "!", "?", "…"]
    private static let closers: Set<Unicode.Scalar> = ["\"", "'", "”", "’", ")", "]", "»"]
}

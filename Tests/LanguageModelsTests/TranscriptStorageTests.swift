import Foundation
import Synchronization
import Testing

@testable import LanguageModels

/// `Transcript` keeps its entries in chunks shared by its copies (`TranscriptChunk`), so that appending to one of
/// several copies of a long conversation copies at most one chunk. Whatever is done to a copy, every value must
/// still read exactly the entries it would hold if it were a plain array.
@Suite struct TranscriptStorageTests {
    /// A deterministic generator (SplitMix64), so a failing sequence can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func entry(_ number: Int) -> Transcript.Entry {
        .prompt(.init(id: "e\(number)", segments: [.text(.init(id: "s\(number)", content: "line \(number)"))]))
    }

    /// Values of the transcript and the arrays they must equal.
    struct Pair {
        var transcript: Transcript
        var model: [Transcript.Entry]

        func check(_ note: String) {
            #expect(transcript.count == model.count, "\(note)")
            #expect(Array(transcript) == model, "\(note)")
            #expect(transcript == Transcript(entries: model), "\(note)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func copiesThatAppendChangeAndTrimReadWhatAnArrayWould(seed: UInt64) {
        var random = Generator(state: seed)
        var next = 0
        func fresh() -> Transcript.Entry {
            next += 1
            return Self.entry(next)
        }
        var values = [Pair(transcript: Transcript(), model: [])]
        for step in 0..<3_000 {
            let index = Int.random(in: 0..<values.count, using: &random)
            var pair = values[index]
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<55:
                // Append one or a few (most steps: conversations grow), across chunk ends.
                let new = (0..<Int.random(in: 1...40, using: &random)).map { _ in fresh() }
                pair.transcript.append(contentsOf: new)
                pair.model.append(contentsOf: new)
            case 55..<65 where !pair.model.isEmpty:
                let position = Int.random(in: 0..<pair.model.count, using: &random)
                let entry = fresh()
                pair.transcript[position] = entry
                pair.model[position] = entry
            case 65..<75 where !pair.model.isEmpty:
                let k = Int.random(in: 0...min(30, pair.model.count), using: &random)
                pair.transcript.removeLast(k)
                pair.model.removeLast(k)
            case 75..<82 where !pair.model.isEmpty:
                let lower = Int.random(in: 0..<pair.model.count, using: &random)
                let upper = Int.random(in: lower...pair.model.count, using: &random)
                let new = (0..<Int.random(in: 0...5, using: &random)).map { _ in fresh() }
                pair.transcript.replaceSubrange(lower..<upper, with: new)
                pair.model.replaceSubrange(lower..<upper, with: new)
            default:
                break
            }
            values[index] = pair
            // Copies share storage with the value they were made from, and live on beside it.
            if Int.random(in: 0..<10, using: &random) == 0, values.count < 12 { values.append(pair) }
            if Int.random(in: 0..<25, using: &random) == 0, values.count > 1 {
                values.remove(at: Int.random(in: 0..<values.count, using: &random))
            }
            if step % 100 == 0 {
                for (number, value) in values.enumerated() { value.check("seed \(seed), step \(step), value \(number)") }
            }
        }
        for (number, value) in values.enumerated() { value.check("seed \(seed), at the end, value \(number)") }
    }

    @Test func appendingToACopyOfALongConversationDoesNotChangeTheOriginal() {
        let original = Transcript(entries: (0..<1_000).map(Self.entry))
        var first = original
        var second = original
        first.append(Self.entry(-1))
        second.append(Self.entry(-2))
        #expect(original.count == 1_000)
        #expect(first.last == Self.entry(-1))
        #expect(second.last == Self.entry(-2))
        #expect(Array(first.prefix(1_000)) == Array(original))
        #expect(Array(second.prefix(1_000)) == Array(original))
        var third = first
        third.append(Self.entry(-3))
        #expect(Array(third.dropLast()) == Array(first))
    }

    @Test func valuesAppendedToConcurrentlyEachKeepTheirOwnEntries() async {
        let base = Transcript(entries: (0..<300).map(Self.entry))
        let results = await withTaskGroup(of: (Int, Transcript).self) { group in
            for task in 0..<16 {
                group.addTask {
                    var mine = base
                    for step in 0..<200 { mine.append(Self.entry(10_000 * (task + 1) + step)) }
                    return (task, mine)
                }
            }
            var all: [(Int, Transcript)] = []
            for await result in group { all.append(result) }
            return all
        }
        for (task, transcript) in results {
            let expected = (0..<300).map(Self.entry) + (0..<200).map { Self.entry(10_000 * (task + 1) + $0) }
            #expect(Array(transcript) == expected, "task \(task)")
        }
        #expect(Array(base) == (0..<300).map(Self.entry))
    }

    /// Copies of one transcript appended to by two threads at the same moment: both go for the same free slot of the
    /// shared last chunk, one claims it, the other copies that chunk. Threads that wait for each other at a start line,
    /// rather than tasks, so that the appends really overlap (tasks on a pool of two threads mostly take turns, and
    /// each turn orders them for Thread Sanitizer, which scripts/test runs this suite under). The start line is a
    /// relaxed atomic, which orders nothing.
    @Test func copiesAppendedToByTwoThreadsAtOnceEachKeepTheirOwnEntries() {
        final class Race: Sendable {
            let arrived = Atomic(0)
            let results = Mutex<[Int: Transcript]>([:])
            let finished = DispatchSemaphore(value: 0)
        }
        let base = Transcript(entries: (0..<300).map(Self.entry))
        let race = Race()
        for thread in 0..<2 {
            Thread.detachNewThread {
                var mine = base
                race.arrived.add(1, ordering: .relaxed)
                while race.arrived.load(ordering: .relaxed) < 2 { sched_yield() }
                for step in 0..<300 { mine.append(Self.entry(10_000 * (thread + 1) + step)) }
                race.results.withLock { $0[thread] = mine }
                race.finished.signal()
            }
        }
        race.finished.wait()
        race.finished.wait()

        let results = race.results.withLock { $0 }
        for thread in 0..<2 {
            let expected = (0..<300).map(Self.entry) + (0..<300).map { Self.entry(10_000 * (thread + 1) + $0) }
            #expect(results[thread].map(Array.init) == expected, "thread \(thread)")
        }
        #expect(Array(base) == (0..<300).map(Self.entry))
    }

    @Test func aSessionTurnAddsToTheTranscriptWithoutCopyingIt() async throws {
        let model = EchoTurnModel()
        let session = LanguageModelSession(
            model: model, transcript: Transcript(entries: (0..<600).map(Self.entry)))
        let before = session.transcript
        _ = try await session.respond(to: "hello")
        let after = session.transcript
        #expect(after.count == 602)
        #expect(Array(after.prefix(600)) == Array(before))
        // The entries before the turn are the same chunks, not copies of them.
        var prefix = after
        prefix.removeLast(2)
        #expect(prefix.sharesStorage(with: before))
    }

    /// A model that answers every request with the same line.
    struct EchoTurnModel: LanguageModel {
        var id: String { "echo" }
        var version: String { "1" }
        var contextSize: Int { 1 << 20 }
        func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int { entries.count }
        func tokenCount(for schema: GenerationSchema) async throws -> Int { 0 }
        func generate(_ request: GenerationRequest) async throws -> Generation {
            Generation(output: .text("ok"))
        }
    }
}

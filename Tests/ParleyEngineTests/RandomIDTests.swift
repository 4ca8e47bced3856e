import ChildProcess
import Foundation
import LanguageModels
import Testing

/// Ids come from the system's random source: distinct and well-formed version 4 UUIDs, also in a process that has no
/// file descriptor left, where Foundation's `UUID()` gives zeros (every report, recording and transcript entry made
/// then had the same id, and each replaced the last).
@Suite(.timeLimit(.minutes(10))) struct RandomIDTests {
    /// `XXXXXXXX-XXXX-4XXX-[89AB]XXX-XXXXXXXXXXXX`, upper case as Foundation writes it.
    static func isVersion4UUID(_ text: String) -> Bool {
        text.wholeMatch(of: #/[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}/#) != nil
    }

    @Test func idsAreDistinctVersion4UUIDs() {
        let ids = (0..<10_000).map { _ in RandomID.uuidString() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy(Self.isVersion4UUID), "\(ids.filter { !Self.isVersion4UUID($0) }.prefix(3))")
        // Every free bit varies: no digit stuck at one value.
        let hex = ids.map { $0.replacingOccurrences(of: "-", with: "") }
        for position in 0..<32 where position != 12 {
            #expect(Set(hex.map { Array($0)[position] }).count > 1, "digit \(position) never changes")
        }
        let digits = (0..<1_000).map { _ in RandomID.hexDigits(16) }
        #expect(Set(digits).count == digits.count)
        #expect(digits.allSatisfy { $0.wholeMatch(of: #/[0-9a-f]{16}/#) != nil })
        #expect(RandomID.hexDigits(64).count == 64 && RandomID.hexDigits(0).isEmpty)
    }

    @Test func idsStayDistinctWithNoFileDescriptorLeft() throws {
        let binary = Bundle.main.bundleURL.appendingPathComponent("random-ids")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no random-ids next to the tests at \(binary.path); build it with 'swift build --build-tests'")
        let run = try ChildProcess.run(binary.path, arguments: ["20"])
        let output = String(decoding: run.output, as: UTF8.self)
        #expect(run.termination.status == 0, "\(output)\(String(decoding: run.error, as: UTF8.self))")
        let lines = output.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        #expect(lines.contains { $0.first == "exhausted" && $0.last == "true" }, "\(output.suffix(200))")
        let ids = lines.filter { ["random", "entry", "report", "recording"].contains($0.first) }.map { String($0[1]) }
        #expect(ids.count == 20 * 10)
        #expect(Set(ids).count == ids.count, "ids repeat")
        #expect(ids.allSatisfy(Self.isVersion4UUID), "\(ids.filter { !Self.isVersion4UUID($0) }.prefix(3))")
        for kind in ["random", "entry", "report", "recording"] {
            #expect(lines.contains { $0.first.map(String.init) == kind }, "no \(kind) ids")
        }
        // The state the child was in is the one that broke Foundation's ids (zeros on Linux), when it does break them.
        let foundation = lines.first { $0.first == "foundation" }.map { String($0[1]) } ?? "?"
        print("Foundation's UUID() with no descriptor left: \(foundation)")
    }
}

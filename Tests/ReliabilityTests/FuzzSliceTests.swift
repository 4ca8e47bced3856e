import ParleyBasics
import ParleyFuzz
import Testing

/// The fast slice of the seeded fuzzers that `parley-bench fuzz` runs long: every input is accepted or rejected
/// with a clear error, and nothing crashes (a crash would end the test process). Seeds are fixed, so a failure
/// reproduces; `parley-bench fuzz --seed S --iterations N` explores further. The synchronous fuzzers run off the
/// cooperative pool (`offThePool`): each computes for seconds without suspending, and on the pool two of them would
/// hold every thread the suites beside them need.
@Suite struct FuzzSliceTests {
    @Test func transcriptDecodersRejectEveryBadDocumentClearly() async {
        let summary = await offThePool { TranscriptDecoderFuzzer.run(iterations: 2_000, seed: 2026) }
        #expect(summary.passed, "\(summary)")
        #expect(summary.accepted > 0, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }

    @Test func theContentLoaderNamesTheFilePathAndProblemOfEveryError() async {
        let summary = await offThePool { ContentLoaderFuzzer.run(iterations: 150, seed: 2026) }
        #expect(summary.passed, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }

    @Test func damagedSavesFailWithASaveGameErrorAndAreNeverChangedByReading() async throws {
        let summary = try await offThePool { try SaveLoaderFuzzer.run(iterations: 300, seed: 2026) }
        #expect(summary.passed, "\(summary)")
        #expect(summary.accepted > 0, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }

    @Test func tamperedSavesAreRefusedUntouchedOrPlayedWithoutACrash() async throws {
        let summary = try await SaveTamperFuzzer.run(iterations: 120, seed: 2026)
        #expect(summary.passed, "\(summary)")
        #expect(summary.accepted > 0, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }

    /// The real server, seeded random requests from four clients at once: every request answered (none with 500), the
    /// server still healthy, no slot played by two games, nothing written outside the save folder.
    @Test(.timeLimit(.minutes(10))) func theHTTPAPISurvivesRandomRequestsAndKeepsSavesApart() async throws {
        let summary = try await HTTPAPIFuzzer.run(requests: 400, clients: 4, seed: 2026)
        #expect(summary.passed, "\(summary)")
        #expect(summary.iterations == 400)
        #expect(summary.accepted > 0, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }

    @Test func theSSEParserGivesTheSameEventsHoweverTheBytesAreChunked() async {
        let summary = await offThePool { SSEParserFuzzer.run(iterations: 2_000, seed: 2026) }
        #expect(summary.passed, "\(summary)")
    }

    @Test func damagedModelStreamsEndInAnAnswerOrAClearErrorWithoutAHalfTurn() async throws {
        let summary = try await ModelStreamFuzzer.run(iterations: 150, seed: 2026)
        #expect(summary.passed, "\(summary)")
        #expect(summary.accepted > 0, "\(summary)")
        #expect(summary.rejected > 0, "\(summary)")
    }
}

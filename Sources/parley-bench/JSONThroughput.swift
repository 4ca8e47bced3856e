import Foundation
import LanguageModels

/// Scenario 4: transcript JSON encode and decode throughput on large transcripts, with Parley's writer and reader,
/// entry by entry as save files store them, and with Foundation's `JSONEncoder`/`JSONDecoder` for comparison.
enum JSONThroughput {
    /// Runs the scenario.
    ///
    /// - Parameter quick: Smaller transcripts and fewer repetitions.
    static func run(quick: Bool) throws {
        report("## 4. Transcript JSON encode and decode throughput")
        report("")
        report(
            "| Entries | MB | Parley encode MB/s | Parley decode MB/s | Per-entry decode MB/s | Foundation encode MB/s | Foundation decode MB/s |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|")
        for entries in quick ? [5_000] : [5_000, 50_000] {
            let transcript = SyntheticTranscript.make(entries: entries)
            let repetitions = quick ? 3 : 5
            var json = ""
            let encode = Measure.milliseconds(repetitions: repetitions) { json = transcript.jsonString() }
            let megabytes = Double(json.utf8.count) / 1_048_576
            let decode = try Measure.milliseconds(repetitions: repetitions) { _ = try Transcript(json: json) }
            let rows = transcript.map { $0.jsonString() }
            let rowMegabytes = Double(rows.reduce(0) { $0 + $1.utf8.count }) / 1_048_576
            let perEntry = try Measure.milliseconds(repetitions: repetitions) {
                for row in rows { _ = try Transcript.Entry(json: row) }
            }
            var data = Data()
            let foundationEncode = try Measure.milliseconds(repetitions: repetitions) {
                data = try JSONEncoder().encode(transcript)
            }
            let foundationMegabytes = Double(data.count) / 1_048_576
            let foundationDecode = try Measure.milliseconds(repetitions: repetitions) {
                _ = try JSONDecoder().decode(Transcript.self, from: data)
            }
            func rate(_ size: Double, _ samples: [Double]) -> String {
                format(size / (Measure.median(samples) / 1000), digits: 1)
            }
            report(
                "| \(entries) | \(format(megabytes, digits: 1)) | \(rate(megabytes, encode)) | \(rate(megabytes, decode)) "
                    + "| \(rate(rowMegabytes, perEntry)) | \(rate(foundationMegabytes, foundationEncode)) "
                    + "| \(rate(foundationMegabytes, foundationDecode)) |")
        }
        report("")
        report(
            "Medians of \(quick ? 3 : 5) runs. \"Per-entry decode\" is how a save is read: one `Transcript.Entry(json:)` per row."
        )
        report("")
    }
}

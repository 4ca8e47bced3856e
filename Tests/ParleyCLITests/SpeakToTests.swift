import Foundation
import Testing

/// `parley play --speak-to DIR`: each NPC line as a WAV file, spoken with espeak-ng.
@Suite(
    .serialized,
    .enabled(
        if: dlopen("libespeak-ng.so.1", RTLD_LAZY) != nil
            || ProcessInfo.processInfo.environment["PARLEY_SPEECH_TESTS"] == "1",
        "needs espeak-ng: run scripts/install-deps --speech (or scripts/test, which installs it)"))
struct SpeakToTests {
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-speak-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func eachNPCLineIsWrittenAsAWAVFileNamedByTurnAndNPC() async throws {
        let folder = Folder()
        let voices = folder.url.appendingPathComponent("voices")
        let run = try await runParley(
            ["play", "--saves", folder.url.appendingPathComponent("saves").path, "--speak-to", voices.path],
            input: "talk to mira\nhello\nhow much is the lantern?\nbye\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("--speak-to"), "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: voices.path).sorted()
        // Mira answers lines 2 and 3 (hello, the lantern's price); the NPC is named by its id.
        #expect(files.contains("2-mira.wav"), "\(files)")
        #expect(files.contains("3-mira.wav"), "\(files)")
        for file in files {
            #expect(file.range(of: #"^[0-9]+-[a-z0-9-]+\.wav$"#, options: .regularExpression) != nil, "\(file)")
            let bytes = [UInt8](try Data(contentsOf: voices.appendingPathComponent(file)))
            #expect(bytes.count > 44 + 22_050 / 2, "\(file): \(bytes.count) bytes, less than half a second")
            #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
        }
    }
}

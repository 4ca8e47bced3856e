import Foundation
import HTTPTestSupport
import ParleySpeech
import Testing

/// `parley play --speak`: NPC lines played through the audio device sentence by sentence, or a clear word when there
/// is none; `--speech-model URL` speaking through a speech server instead of espeak-ng.
@Suite(.serialized) struct SpeakTests {
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-speak-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// A folder in it, made.
        func folder(_ name: String) throws -> URL {
            let folder = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
    }

    static let espeakInstalled =
        dlopen("libespeak-ng.so.1", RTLD_LAZY) != nil
        || ProcessInfo.processInfo.environment["PARLEY_SPEECH_TESTS"] == "1"

    static let lines = "talk to mira\nhow much is the lantern?\nbye\n"

    /// An environment with no sound server and an ALSA device folder of our own: empty, or with one playback device.
    static func environment(_ folder: Folder, device: Bool) throws -> [String: String] {
        let devices = try folder.folder("snd")
        if device {
            _ = FileManager.default.createFile(atPath: devices.appendingPathComponent("pcmC0D0p").path, contents: nil)
        }
        return [
            "PARLEY_ALSA_DEVICES": devices.path, "XDG_RUNTIME_DIR": try folder.folder("runtime").path,
            "PULSE_SERVER": "", "PIPEWIRE_REMOTE": "",
        ]
    }

    /// A stand-in speech server that answers every request with the same 440 Hz tone at 24 kHz, and the tone.
    static func speechServer(samples count: Int) throws -> (tone: [Int16], server: LoopbackHTTPServer) {
        let tone: [Int16] = (0..<count).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 24_000)) }
        let server = try LoopbackHTTPServer(
            .respond(
                status: 200, headers: [("Content-Type", "audio/wav")],
                body: Data(WAVFile.encode(samples: tone, sampleRate: 24_000))))
        return (tone, server)
    }

    @Test func withoutAnAudioDeviceItSaysSoAndTheGamePlays() async throws {
        let folder = try Folder()
        let run = try await runParley(
            ["play", "--saves", try folder.folder("saves").path, "--speak"], input: Self.lines,
            environment: try Self.environment(folder, device: false))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("parley: --speak: no audio device here"), "\(run.err)")
        #expect(run.err.contains("--speak-to DIR"), "\(run.err)")
        #expect(run.err.components(separatedBy: "--speak:").count == 2, "said once: \(run.err)")
        #expect(run.out.contains("The Brass Lantern? 25 gold"), "\(run.out)")
    }

    @Test(.enabled(if: espeakInstalled, "needs espeak-ng: run scripts/install-deps --speech"))
    func withADeviceEachSentenceGoesToThePlayerInOrder() async throws {
        let folder = try Folder()
        let played = try folder.folder("played")
        let bin = try folder.folder("bin")
        // A stand-in for aplay: it keeps each WAV it is given, numbered, and its arguments.
        let script = bin.appendingPathComponent("aplay")
        try """
        #!/bin/sh
        n=$(ls "\(played.path)" | wc -l)
        cat > "\(played.path)/$(printf %03d "$n").wav"
        echo "$@" > "\(folder.url.path)/arguments"
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        var environment = try Self.environment(folder, device: true)
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let voices = try folder.folder("voices")
        let run = try await runParley(
            ["play", "--saves", try folder.folder("saves").path, "--speak", "--speak-to", voices.path],
            input: Self.lines, environment: environment)
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("--speak"), "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: played.path).sorted()
        // Mira's three lines, each ending with its sentence mark: one WAV each at least, in the order said.
        #expect(files.count >= 3, "\(files)")
        var playedSamples: [Int16] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: played.appendingPathComponent(file)))
            #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
            let wav = try WAVFile.decode(bytes)
            #expect(wav.header.sampleRate == 22_050 && wav.header.channels == 1)
            #expect(wav.samples.contains { abs(Int($0)) > 1_000 }, "\(file) is silent")
            playedSamples += wav.samples
        }
        let arguments = try String(contentsOf: folder.url.appendingPathComponent("arguments"), encoding: .utf8)
        #expect(arguments == "-q -\n")
        // --speak-to still writes each line.
        let written = try FileManager.default.contentsOfDirectory(atPath: voices.path)
        #expect(written.contains("2-mira.wav"), "\(written)")
        // What was played, one file after another, is every line written, in the order said: each sentence once,
        // none left out, none out of order. (How many sentences one player gets depends on how far synthesis runs
        // ahead of playback, which the machine's load decides, so no single file's length is asserted.)
        let lines = written.sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
        var writtenSamples: [Int16] = []
        for line in lines {
            writtenSamples += try WAVFile.decode([UInt8](try Data(contentsOf: voices.appendingPathComponent(line)))).samples
        }
        #expect(!writtenSamples.isEmpty)
        #expect(playedSamples == writtenSamples, "played \(files), written \(lines)")
    }

    @Test func aSpeechServerSpeaksTheLinesWrittenWithSpeakTo() async throws {
        let (sine, server) = try Self.speechServer(samples: 6_000)
        defer { server.stop() }
        let folder = try Folder()
        let voices = try folder.folder("voices")
        let run = try await runParley(
            [
                "play", "--saves", try folder.folder("saves").path, "--speak-to", voices.path, "--speech-model",
                server.url("/v1#kokoro"), "--speech-voice", "af_bella",
            ], input: Self.lines)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty, "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: voices.path).sorted()
        #expect(files.contains("2-mira.wav") && files.contains("3-mira.wav"), "\(files)")
        // Each line is written sentence by sentence, joined: the server's tone once per sentence, and every
        // sentence the server was asked for is in exactly one file.
        var tonesWritten = 0
        for file in files {
            let wav = try WAVFile.decode([UInt8](try Data(contentsOf: voices.appendingPathComponent(file))))
            #expect(wav.header.sampleRate == 24_000)
            let tones = wav.samples.count / sine.count
            #expect(tones >= 1 && wav.samples == Array(Array(repeating: sine, count: tones).joined()), "\(file)")
            tonesWritten += tones
        }
        #expect(tonesWritten == server.requests.count)
        let bodies = server.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(server.requests.allSatisfy { $0.path == "/v1/audio/speech" })
        // The texts asked for, in order, are the lines said: how the sentences are grouped into requests depends on
        // how far the text is ahead of synthesis ("The Brass Lantern?" alone, or with "25 gold…"), so only the
        // texts joined are compared.
        let inputs = try server.requests.map { request -> String in
            let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            return body?["input"] as? String ?? ""
        }
        #expect(inputs.joined(separator: " ").contains("The Brass Lantern? 25 gold"), "\(bodies)")
        #expect(bodies.allSatisfy { $0.contains(#""model":"kokoro""#) && $0.contains(#""voice":"af_bella""#) })
    }

    @Test func withSpeakAndSpeakToEachSentenceIsSynthesisedOnce() async throws {
        let (sine, server) = try Self.speechServer(samples: 4_000)
        defer { server.stop() }
        let folder = try Folder()
        let played = try folder.folder("played")
        let bin = try folder.folder("bin")
        let script = bin.appendingPathComponent("aplay")
        try "#!/bin/sh\ncat > \"\(played.path)/$(ls \"\(played.path)\" | wc -l).wav\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        var environment = try Self.environment(folder, device: true)
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let voices = try folder.folder("voices")
        let run = try await runParley(
            [
                "play", "--saves", try folder.folder("saves").path, "--speak", "--speak-to", voices.path,
                "--speech-model", server.url("/v1#kokoro"),
            ], input: Self.lines, environment: environment)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty, "\(run.err)")
        // Every sentence played was asked of the server once, not once more for its line's file.
        let sentences = try FileManager.default.contentsOfDirectory(atPath: played.path)
        #expect(sentences.count >= 3, "\(sentences)")
        #expect(
            server.requests.count == sentences.count, "\(server.requests.count) requests, \(sentences.count) played")
        let bodies = server.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(Set(bodies).count == bodies.count, "a sentence asked for twice: \(bodies)")
        // Each line's file is its sentences end to end.
        let files = try FileManager.default.contentsOfDirectory(atPath: voices.path).sorted()
        #expect(files.contains("2-mira.wav") && files.contains("3-mira.wav"), "\(files)")
        var samples = 0
        for file in files {
            let wav = try WAVFile.decode([UInt8](try Data(contentsOf: voices.appendingPathComponent(file))))
            #expect(wav.header.sampleRate == 24_000)
            #expect(wav.samples.count % sine.count == 0 && !wav.samples.isEmpty, "\(file)")
            samples += wav.samples.count
        }
        #expect(samples == sine.count * sentences.count, "the files hold every sentence played, once")
    }

    @Test func speechServerOptionsWithoutSpeechAreRefused() async throws {
        let folder = try Folder()
        let saves = try folder.folder("saves").path
        let model = try await runParley(
            ["play", "--saves", saves, "--speech-model", "http://127.0.0.1:9/v1"], input: Self.lines)
        #expect(model.status != 0)
        #expect(model.err.contains("--speech-model needs --speak or --speak-to DIR"), "\(model.err)")
        let voice = try await runParley(["play", "--saves", saves, "--speak", "--speech-voice", "x"], input: "")
        #expect(voice.status != 0)
        #expect(voice.err.contains("--speech-voice needs --speech-model URL"), "\(voice.err)")
        let url = try await runParley(["play", "--saves", saves, "--speak", "--speech-model", "ftp://x"], input: "")
        #expect(url.status != 0)
        #expect(url.err.contains("is not an http or https URL"), "\(url.err)")
    }
}

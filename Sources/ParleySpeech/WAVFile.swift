/// RIFF/WAVE files of 16-bit PCM: the encoder `SynthesizedSpeech.wav` uses, and a decoder of what it writes.
public enum WAVFile {
    /// What a WAV file's header says.
    public struct Header: Hashable, Sendable {
        /// The audio format: 1 is PCM.
        public var format: Int
        /// Channels: 1 is mono.
        public var channels: Int
        /// Samples per second.
        public var sampleRate: Int
        /// Bits per sample: 16.
        public var bitsPerSample: Int
        /// The number of bytes of samples (the `data` chunk's size).
        public var dataSize: Int
        /// Where the samples start in the file.
        public var dataOffset: Int

        /// Creates a header.
        ///
        /// - Parameters:
        ///   - format: The audio format, 1 for PCM.
        ///   - channels: The channels.
        ///   - sampleRate: Samples per second.
        ///   - bitsPerSample: Bits per sample.
        ///   - dataSize: The bytes of samples.
        ///   - dataOffset: Where the samples start.
        public init(format: Int, channels: Int, sampleRate: Int, bitsPerSample: Int, dataSize: Int, dataOffset: Int) {
            self.format = format
            self.channels = channels
            self.sampleRate = sampleRate
            self.bitsPerSample = bitsPerSample
            self.dataSize = dataSize
            self.dataOffset = dataOffset
        }
    }

    /// Why bytes are not a WAV file this decoder reads.
    public enum DecodingError: Error, Hashable, Sendable {
        /// The bytes do not start with `RIFF`, a size and `WAVE`, or end before the chunks they announce.
        case notWAV
        /// There is no `fmt ` or no `data` chunk.
        case missingChunk(String)
        /// The format is not 16-bit PCM.
        case unsupportedFormat(format: Int, bitsPerSample: Int)
    }

    /// Writes samples as a WAV file: the 44-byte header of PCM (`RIFF`, `WAVE`, `fmt `, `data`), then the samples
    /// little-endian.
    ///
    /// - Parameters:
    ///   - samples: 16-bit signed samples, one channel.
    ///   - sampleRate: Samples per second.
    /// - Returns: The file's bytes.
    public static func encode(samples: [Int16], sampleRate: Int) -> [UInt8] {
        let dataSize = samples.count * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataSize)
        func append32(_ value: Int) {
            let value = UInt32(truncatingIfNeeded: value)
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        func append16(_ value: Int) {
            let value = UInt16(truncatingIfNeeded: value)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        bytes += Array("RIFF".utf8)
        append32(36 + dataSize)
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(sampleRate)
        append32(sampleRate * 2)  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        bytes += Array("data".utf8)
        append32(dataSize)
        for sample in samples { append16(Int(sample)) }
        return bytes
    }

    /// Reads a WAV file's header: its `fmt ` chunk and where its `data` chunk is, skipping other chunks.
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Returns: The header.
    /// - Throws: `DecodingError` when the bytes are not a WAV file.
    public static func header(of bytes: [UInt8]) throws -> Header {
        func uint(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        func tag(_ offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE", uint(4, 4) + 8 <= bytes.count else {
            throw DecodingError.notWAV
        }
        var format: (format: Int, channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = tag(offset)
            let size = uint(offset + 4, 4)
            let body = offset + 8
            guard body + size <= bytes.count else { throw DecodingError.notWAV }
            if name == "fmt " {
                guard size >= 16 else { throw DecodingError.notWAV }
                format = (uint(body, 2), uint(body + 2, 2), uint(body + 4, 4), uint(body + 14, 2))
            } else if name == "data" {
                guard let format else { throw DecodingError.missingChunk("fmt ") }
                return Header(
                    format: format.format, channels: format.channels, sampleRate: format.rate,
                    bitsPerSample: format.bits, dataSize: size, dataOffset: body)
            }
            offset = body + size + size % 2
        }
        throw DecodingError.missingChunk(format == nil ? "fmt " : "data")
    }

    /// Reads a WAV file of 16-bit PCM: its header and its samples (of every channel, interleaved).
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Returns: The header and the samples.
    /// - Throws: `DecodingError` when the bytes are not a WAV file of 16-bit PCM.
    public static func decode(_ bytes: [UInt8]) throws -> (header: Header, samples: [Int16]) {
        let header = try header(of: bytes)
        guard header.format == 1, header.bitsPerSample == 16 else {
            throw DecodingError.unsupportedFormat(format: header.format, bitsPerSample: header.bitsPerSample)
        }
        let samples = stride(from: header.dataOffset, to: header.dataOffset + header.dataSize - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        return (header, samples)
    }
}

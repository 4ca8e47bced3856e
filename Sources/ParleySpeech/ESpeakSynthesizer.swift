#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ParleyBasics
import Synchronization

/// Speech with espeak-ng, offline: its C library, loaded when first used.
///
/// The library is opened at run time with `dlopen` (`libespeak-ng.so.1`, Debian's `libespeak-ng1`, which the
/// `espeak-ng` package brings with its voice data), and its functions found with `dlsym` and called through
/// `@convention(c)` pointers of the types of espeak-ng 1.51's `speak_lib.h`. So the package builds, and everything but
/// speech works, on a machine without espeak-ng: a `systemLibrary` target would make the whole package need its
/// headers. When the library is missing, `synthesize` throws `SpeechError.libraryMissing`, whose description says to
/// run `scripts/install-deps --speech`. The library rather than the `espeak-ng` command, because the library reports
/// each phoneme with its time in the audio (`espeakEVENT_PHONEME`), which makes the visemes.
///
/// espeak-ng keeps one global state and is not thread-safe: every call into it, in the whole process, holds one lock,
/// and synthesis runs on a thread of its own (`offThePool`), never on the cooperative pool. It runs with
/// `AUDIO_OUTPUT_SYNCHRONOUS`: `espeak_Synth` returns when the line is spoken, its callback having collected the
/// samples (16-bit mono at espeak-ng's rate, 22,050 Hz) and the phoneme, word and sentence events.
public struct ESpeakSynthesizer: SpeechSynthesizer {
    /// The library's name for `dlopen`: espeak-ng's shared library, major version 1.
    public static let defaultLibrary = "libespeak-ng.so.1"

    /// The library this synthesiser loads.
    public let library: String

    /// Creates a synthesiser; nothing is loaded until the first line.
    ///
    /// - Parameter library: The library's name or path for `dlopen`, `defaultLibrary` unless a test says otherwise.
    public init(library: String = Self.defaultLibrary) {
        self.library = library
    }

    /// Whether the library loads and starts: `nil` when it does, else the error that says what to install.
    ///
    /// - Returns: `nil`, or the `SpeechError` speaking would throw.
    public func unavailability() async -> SpeechError? {
        let library = library
        return await offThePool { () -> SpeechError? in
            do {
                _ = try ESpeakEngine.shared.withLock { loaded in try ESpeakEngine.library(library, in: &loaded) }
                return nil
            } catch let error as SpeechError {
                return error
            } catch {
                return .initializationFailed("\(error)")
            }
        }
    }

    /// Speaks `text` with `voice` (see the type's documentation).
    ///
    /// - Parameters:
    ///   - text: The line, plain text.
    ///   - voice: The voice.
    /// - Returns: The audio at 22,050 Hz with its visemes and events.
    /// - Throws: `SpeechError`.
    public func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        let library = library
        return try await offThePool {
            try ESpeakEngine.shared.withLock { loaded in
                let functions = try ESpeakEngine.library(library, in: &loaded)
                return try functions.synthesize(text, voice: voice)
            }
        }
    }
}

/// The loaded libraries, by name, behind the one lock every espeak-ng call holds.
enum ESpeakEngine {
    /// The lock, with the libraries loaded so far.
    static let shared = Mutex<[String: ESpeakFunctions]>([:])

    /// The library called `name`, loaded and started the first time. Call with the lock held.
    static func library(_ name: String, in loaded: inout [String: ESpeakFunctions]) throws -> ESpeakFunctions {
        if let functions = loaded[name] { return functions }
        let functions = try ESpeakFunctions(loading: name)
        loaded[name] = functions
        return functions
    }
}

/// What a synthesis collects from espeak-ng's callback. Touched only with `ESpeakEngine.shared` held.
nonisolated(unsafe) private var collected = (samples: [Int16](), events: [SpeechEvent]())

/// espeak-ng's synth callback (`t_espeak_callback`): appends the samples and the phoneme, word and sentence events of
/// the list, which ends with `espeakEVENT_LIST_TERMINATED`. Returns 0: go on.
private let synthCallback: ESpeakFunctions.SynthCallback = { wav, count, events in
    if let wav, count > 0 {
        collected.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    guard var event = events else { return 0 }
    while true {
        // espeak_EVENT (speak_lib.h): type, unique_identifier, text_position, length, audio_position (ms), sample as
        // ints, user_data (a pointer), then the id union (8 bytes; a phoneme's mnemonic for espeakEVENT_PHONEME).
        let type = event.load(as: Int32.self)
        if type == ESpeakFunctions.eventListTerminated { break }
        let textPosition = Int(event.load(fromByteOffset: 8, as: Int32.self))
        let length = Int(event.load(fromByteOffset: 12, as: Int32.self))
        let time = Duration.milliseconds(Int(event.load(fromByteOffset: 16, as: Int32.self)))
        let idOffset = 16 + 4 * 2 + MemoryLayout<UnsafeRawPointer?>.size
        switch type {
        case ESpeakFunctions.eventPhoneme:
            let bytes = (0..<8).map { event.load(fromByteOffset: idOffset + $0, as: UInt8.self) }.prefix { $0 != 0 }
            collected.events.append(
                SpeechEvent(
                    kind: .phoneme, time: time, textPosition: textPosition,
                    phoneme: String(decoding: bytes, as: UTF8.self)))
        case ESpeakFunctions.eventWord:
            collected.events.append(SpeechEvent(kind: .word, time: time, textPosition: textPosition, length: length))
        case ESpeakFunctions.eventSentence:
            collected.events.append(SpeechEvent(kind: .sentence, time: time, textPosition: textPosition))
        default:
            break
        }
        event += ESpeakFunctions.eventSize
    }
    return 0
}

/// espeak-ng's functions, found in its library, and the sample rate it started with. Used only with the lock held.
final class ESpeakFunctions: @unchecked Sendable {
    typealias SynthCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutableRawPointer?) -> Int32
    // int espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options)
    typealias Initialize = @convention(c) (Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    // espeak_ERROR espeak_SetVoiceByName(const char *name)
    typealias SetVoiceByName = @convention(c) (UnsafePointer<CChar>?) -> Int32
    // const espeak_VOICE **espeak_ListVoices(espeak_VOICE *voice_spec)
    typealias ListVoices = @convention(c) (UnsafeMutableRawPointer?) -> UnsafePointer<UnsafeRawPointer?>?
    // espeak_ERROR espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative)
    typealias SetParameter = @convention(c) (Int32, Int32, Int32) -> Int32
    // void espeak_SetSynthCallback(t_espeak_callback *SynthCallback)
    typealias SetSynthCallback = @convention(c) (SynthCallback?) -> Void
    // espeak_ERROR espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE
    //     position_type, unsigned int end_position, unsigned int flags, unsigned int *unique_identifier,
    //     void *user_data)
    typealias Synth =
        @convention(c) (
            UnsafeRawPointer?, Int, UInt32, Int32, UInt32, UInt32, UnsafeMutablePointer<UInt32>?,
            UnsafeMutableRawPointer?
        ) -> Int32
    // espeak_ERROR espeak_Synchronize(void), espeak_Terminate(void)
    typealias NoArguments = @convention(c) () -> Int32

    // speak_lib.h's constants.
    static let audioOutputSynchronous: Int32 = 2
    static let initializePhonemeEvents: Int32 = 0x0001
    static let eventListTerminated: Int32 = 0
    static let eventWord: Int32 = 1
    static let eventSentence: Int32 = 2
    static let eventPhoneme: Int32 = 7
    static let eventSize = 4 * 6 + MemoryLayout<UnsafeRawPointer?>.size + 8
    static let parameterRate: Int32 = 1
    static let parameterPitch: Int32 = 3
    static let positionCharacter: Int32 = 1
    static let charactersUTF8: UInt32 = 1
    static let errorOK: Int32 = 0

    let setVoiceByName: SetVoiceByName
    let listVoices: ListVoices
    let setParameter: SetParameter
    let synth: Synth
    let synchronize: NoArguments
    let terminate: NoArguments
    let sampleRate: Int

    /// Opens the library, finds its functions and starts it (synchronous output, phoneme events, its voice data).
    init(loading name: String) throws {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw SpeechError.libraryMissing(library: name, reason: reason)
        }
        func function<F>(_ symbol: String, as type: F.Type) throws -> F {
            guard let pointer = dlsym(handle, symbol) else {
                throw SpeechError.functionMissing(library: name, function: symbol)
            }
            return unsafeBitCast(pointer, to: type)
        }
        let initialize = try function("espeak_Initialize", as: Initialize.self)
        let setSynthCallback = try function("espeak_SetSynthCallback", as: SetSynthCallback.self)
        setVoiceByName = try function("espeak_SetVoiceByName", as: SetVoiceByName.self)
        listVoices = try function("espeak_ListVoices", as: ListVoices.self)
        setParameter = try function("espeak_SetParameter", as: SetParameter.self)
        synth = try function("espeak_Synth", as: Synth.self)
        synchronize = try function("espeak_Synchronize", as: NoArguments.self)
        terminate = try function("espeak_Terminate", as: NoArguments.self)
        let rate = initialize(Self.audioOutputSynchronous, 0, nil, Self.initializePhonemeEvents)
        guard rate > 0 else {
            throw SpeechError.initializationFailed("espeak_Initialize returned \(rate); its voice data may be missing")
        }
        sampleRate = Int(rate)
        setSynthCallback(synthCallback)
    }

    /// Selects the voice: by its name or file (`en`, `gmw/en`) as `espeak_SetVoiceByName` knows them, else by a language
    /// it speaks (`en-gb`, which is the file `gmw/en`), the voice of the best priority, as the `espeak-ng` command does;
    /// then with its variant (`gmw/en+f3`).
    private func select(_ voice: SpeechVoice) throws {
        if setVoiceByName(voice.espeakName) == Self.errorOK { return }
        guard let identifier = identifier(speaking: voice.voice),
            setVoiceByName(identifier + (voice.variant.map { "+\($0)" } ?? "")) == Self.errorOK
        else { throw SpeechError.unknownVoice(voice.espeakName) }
    }

    /// The file of the installed voice that speaks `language` with the best (lowest) priority, from
    /// `espeak_ListVoices`: each `espeak_VOICE` is a name, its languages (each a priority byte and a NUL-terminated
    /// name, ended by a 0 byte) and its identifier, as pointers.
    private func identifier(speaking language: String) -> String? {
        guard let voices = listVoices(nil) else { return nil }
        let wanted = language.lowercased()
        var best: (priority: UInt8, identifier: String)?
        var index = 0
        while let voice = voices[index] {
            index += 1
            let pointerSize = MemoryLayout<UnsafeRawPointer?>.size
            guard var languages = voice.load(fromByteOffset: pointerSize, as: UnsafePointer<UInt8>?.self),
                let identifier = voice.load(fromByteOffset: 2 * pointerSize, as: UnsafePointer<CChar>?.self)
            else { continue }
            while languages.pointee != 0 {
                let priority = languages.pointee
                let name = String(cString: languages + 1)
                if name.lowercased() == wanted, priority < best?.priority ?? .max {
                    best = (priority, String(cString: identifier))
                }
                languages += 2 + name.utf8.count
            }
        }
        return best?.identifier
    }

    /// Speaks one line. Call with the lock held.
    func synthesize(_ text: String, voice: SpeechVoice) throws -> SynthesizedSpeech {
        try select(voice)
        _ = setParameter(Self.parameterRate, Int32(voice.rate), 0)
        _ = setParameter(Self.parameterPitch, Int32(voice.pitch), 0)
        collected = ([], [])
        defer { collected = ([], []) }
        var bytes = Array(text.utf8CString)
        let result = bytes.withUnsafeMutableBytes { text in
            synth(text.baseAddress, text.count, 0, Self.positionCharacter, 0, Self.charactersUTF8, nil, nil)
        }
        guard result == Self.errorOK else { throw SpeechError.synthesisFailed("espeak_Synth returned \(result)") }
        _ = synchronize()
        var speech = SynthesizedSpeech(samples: collected.samples, sampleRate: sampleRate, events: collected.events)
        speech.visemes = VisemeShape.timeline(of: speech.events, duration: speech.duration)
        return speech
    }
}

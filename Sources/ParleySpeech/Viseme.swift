/// A mouth shape held for a time of the audio, for lip sync.
public struct Viseme: Hashable, Sendable, Codable {
    /// When the shape starts, from the audio's beginning.
    public var time: Duration
    /// How long it is held.
    public var duration: Duration
    /// The shape.
    public var shape: VisemeShape

    /// Creates a viseme.
    ///
    /// - Parameters:
    ///   - time: When it starts.
    ///   - duration: How long it is held.
    ///   - shape: The shape.
    public init(time: Duration, duration: Duration, shape: VisemeShape) {
        self.time = time
        self.duration = duration
        self.shape = shape
    }

    /// When the shape ends: `time + duration`.
    public var end: Duration { time + duration }
}

/// The 15 visemes of the convention game engines share (Oculus/Meta's lip sync, Unity and Unreal plug-ins, Ready Player
/// Me): silence, ten consonant shapes and five vowels. The raw values are the convention's names.
public enum VisemeShape: String, CaseIterable, Hashable, Sendable, Codable {
    /// Silence, the mouth at rest.
    case sil
    /// p, b, m: lips closed.
    case pp = "PP"
    /// f, v: lower lip to the upper teeth.
    case ff = "FF"
    /// th (thin, this): tongue between the teeth.
    case th = "TH"
    /// t, d: tongue behind the upper teeth.
    case dd = "DD"
    /// k, g, ng, and h here: the back of the tongue.
    case kk
    /// ch, j, sh, zh: lips pushed forward.
    case ch = "CH"
    /// s, z: teeth together.
    case ss = "SS"
    /// n, l: tongue up, mouth a little open.
    case nn
    /// r.
    case rr = "RR"
    /// a (father, cat, cut): mouth open.
    case aa
    /// e (bed, the schwa of about, bird).
    case e = "E"
    /// i (see, sit), and y.
    case ih
    /// o (hot, thought, go).
    case oh
    /// u (food, good), and w.
    case ou

    /// The viseme of an espeak-ng phoneme mnemonic (from its phoneme tables, as `espeakEVENT_PHONEME` reports them),
    /// or `nil` for a mark that is not a sound (stress, syllable and word marks), whose time belongs to the sound
    /// before it. The table (docs/speech.md has it too):
    ///
    /// | Mnemonic starts with | Viseme |
    /// |---|---|
    /// | `_` (a pause), or empty | `sil` |
    /// | `tS`, `dZ` (church, judge); `S`, `Z` (ship, measure) | `CH` |
    /// | `p`, `b`, `m` | `PP` |
    /// | `f`, `v` | `FF` |
    /// | `T`, `D` (thin, this) | `TH` |
    /// | `t`, `d`, `?` (glottal stop) | `DD` |
    /// | `k`, `g`, `N` (sing), `x`, `h`, `c`, `q`, `G` | `kk` |
    /// | `s`, `z`, `C` (German ich) | `SS` |
    /// | `n`, `l`, `L`, `J` (ñ) | `nn` |
    /// | `r`, `R`, `*` (a tap) | `RR` |
    /// | `w`, `W`, `u`, `U` | `ou` |
    /// | `j`, `i`, `I`, `y`, `Y` | `ih` |
    /// | `a`, `A`, `V` (cut), `&` | `aa` |
    /// | `e`, `E`, `@` (schwa), `3` (bird) | `E` |
    /// | `o`, `O`, `0` (hot) | `oh` |
    ///
    /// A diphthong takes its first vowel's viseme (`aI` is `aa`, `oU` is `oh`); case matters (`T` is not `t`).
    ///
    /// - Parameter mnemonic: The phoneme's mnemonic, for example `tS` or `aI@`.
    public init?(espeakPhoneme mnemonic: String) {
        guard let first = mnemonic.first else {
            self = .sil
            return
        }
        if mnemonic.hasPrefix("tS") || mnemonic.hasPrefix("dZ") {
            self = .ch
            return
        }
        switch first {
        case "_": self = .sil
        case "S", "Z": self = .ch
        case "p", "b", "m": self = .pp
        case "f", "v": self = .ff
        case "T", "D": self = .th
        case "t", "d", "?": self = .dd
        case "k", "g", "N", "x", "h", "c", "q", "G": self = .kk
        case "s", "z", "C": self = .ss
        case "n", "l", "L", "J": self = .nn
        case "r", "R", "*": self = .rr
        case "w", "W", "u", "U": self = .ou
        case "j", "i", "I", "y", "Y": self = .ih
        case "a", "A", "V", "&": self = .aa
        case "e", "E", "@", "3": self = .e
        case "o", "O", "0": self = .oh
        default: return nil
        }
    }

    /// The visemes of a stretch of audio from its phoneme events: each phoneme's shape from its time to the next
    /// phoneme's, the same shape twice in a row merged, silence (`sil`) before the first sound and the last shape held
    /// to the end (espeak-ng ends a line with a pause, `_`), so that the visemes cover the audio from 0 to `duration`
    /// without gaps. Events are taken in time order; marks that are not sounds extend the sound before them.
    ///
    /// - Parameters:
    ///   - events: The synthesiser's events; only phonemes count.
    ///   - duration: How long the audio lasts.
    /// - Returns: The visemes, ordered, the first at 0 and the last ending at `duration` (none for empty audio).
    public static func timeline(of events: [SpeechEvent], duration: Duration) -> [Viseme] {
        guard duration > .zero else { return [] }
        var starts: [(time: Duration, shape: VisemeShape)] = [(.zero, .sil)]
        let phonemes = events.enumerated()
            .filter { $0.element.kind == .phoneme }
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for (_, event) in phonemes {
            guard let shape = VisemeShape(espeakPhoneme: event.phoneme ?? "") else { continue }
            let time = min(max(event.time, .zero), duration)
            if time == starts[starts.count - 1].time {
                starts[starts.count - 1].shape = shape
            } else {
                starts.append((time, shape))
            }
        }
        var visemes: [Viseme] = []
        for (index, start) in starts.enumerated() where start.time < duration {
            let end = index + 1 < starts.count ? starts[index + 1].time : duration
            if let last = visemes.last, last.shape == start.shape {
                visemes[visemes.count - 1].duration = end - last.time
            } else {
                visemes.append(Viseme(time: start.time, duration: end - start.time, shape: start.shape))
            }
        }
        return visemes
    }
}

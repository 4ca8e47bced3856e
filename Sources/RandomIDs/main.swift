// random-ids: makes ids with every file descriptor taken, for Tests/ParleyEngineTests/RandomIDTests.swift.
//
//   random-ids [count]
//       Opens /dev/null until the process has no file descriptor left (after lowering its limit to 256), then prints
//       `foundation <UUID().uuidString>` (what Foundation gives in that state; zeros on Linux), then `count` (default
//       20) lines of each kind of id Parley makes: `random`, `entry` (every kind of transcript entry and segment),
//       `report` (a feedback attachment) and `recording` (a turn recording), each `<kind> <id>`. Exits 0, or 2 when it
//       could not take every descriptor.
import Foundation
import GameWorld
import Glibc
import LanguageModels
import ParleyEngine
import ParleyJSON

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20

var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = min(limit.rlim_cur, 256)
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
var taken: [Int32] = []
while true {
    let descriptor = open("/dev/null", O_RDONLY)
    if descriptor < 0 { break }
    taken.append(descriptor)
}
guard errno == EMFILE else {
    FileHandle.standardError.write(Data("random-ids: open failed with errno \(errno), not EMFILE\n".utf8))
    exit(2)
}

var lines: [String] = ["foundation \(UUID().uuidString)"]
for _ in 0..<count {
    lines.append("random \(RandomID.uuidString())")
    let text = Transcript.TextSegment(content: "hi")
    let structure = Transcript.StructuredSegment(source: "s", content: GeneratedContent("x"))
    lines.append("entry \(text.id)")
    lines.append("entry \(structure.id)")
    lines.append("entry \(Transcript.Instructions(segments: [], toolDefinitions: []).id)")
    lines.append("entry \(Transcript.Prompt(segments: []).id)")
    lines.append("entry \(Transcript.Response(segments: []).id)")
    lines.append("entry \(Transcript.ToolCalls([]).id)")
    lines.append("entry \(Transcript.Reasoning(segments: []).id)")
    let report = FeedbackAttachment(
        sentiment: nil, issues: [], desiredOutput: nil, transcript: Transcript(entries: []), modelID: "m",
        modelVersion: "1")
    lines.append("report \(report.id)")
    let recording = TurnRecording(
        npc: "npc", instructions: nil, input: .prompt(Transcript.Prompt(segments: [])), context: [:],
        stateBefore: try DynamicState(jsonValue: [:]), entries: [], modelID: "m", modelVersion: "1",
        totalMilliseconds: 0)
    lines.append("recording \(recording.id)")
}
// Still out of descriptors: nothing above opened one for good.
let still = open("/dev/null", O_RDONLY)
lines.append("exhausted \(still < 0 && errno == EMFILE)")
for descriptor in taken { close(descriptor) }
print(lines.joined(separator: "\n"))

import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyEvaluation
import ParleyHost
import ParleyJSON
import SaveGames

/// What the inspector shows, read from a save folder: the saves, each save's NPCs, a conversation turn by turn with
/// its game context, recordings and reports, one report, a replay. It files a developer's feedback report about a
/// turn into the save, as the game files the player's.
///
/// Its pages and JSON are served by ``InspectorRoutes``; `parley serve` serves them beside the game API, and
/// `parley inspect` serves only them.
///
/// ```swift
/// let inspector = Inspector(store: SaveGameStore(folder: saves), replay: .init(pack: pack, models: models))
/// var router = HTTPRouter()
/// InspectorRoutes.register(on: &router, inspector: inspector)
/// ```
public struct Inspector: Sendable {
    /// The save folder.
    public let store: SaveGameStore
    /// What a replay needs, or `nil` when the inspector cannot replay.
    public let replay: ReplaySetup?
    /// The secret every form the inspector serves carries, and every form it takes must carry: a page from another
    /// site cannot know it, so it cannot file reports through a visitor's browser.
    let formToken: String
    /// Runs on the thread that makes each page or JSON answer, before it is made: for tests, which hold a render
    /// there with a gate they control. `nil` (nothing) in use.
    package var beforeRendering: (@Sendable () -> Void)?
    /// What the list of saves read of each save, kept while the save is unchanged.
    let summaries = InspectorSummaryCache()

    /// The content pack and the models a replay runs against.
    public struct ReplaySetup: Sendable {
        /// The content pack the recordings are replayed over.
        public var pack: ContentPack
        /// Makes each NPC's model for the replay.
        public var models: Game.ModelProvider
        /// A name for the models, shown above the replay (`scripted`, a server's URL).
        public var modelName: String
        /// How long one replay may run before it answers with the turns replayed so far
        /// (``defaultReplayTimeLimit`` by default); zero replays nothing.
        public var timeLimit: Duration

        /// Creates a replay setup.
        ///
        /// - Parameters:
        ///   - pack: The content pack.
        ///   - models: The models.
        ///   - modelName: Their name, for the page.
        ///   - timeLimit: How long one replay may run (``Inspector/defaultReplayTimeLimit`` by default).
        public init(
            pack: ContentPack, models: @escaping Game.ModelProvider, modelName: String,
            timeLimit: Duration = Inspector.defaultReplayTimeLimit
        ) {
            self.pack = pack
            self.models = models
            self.modelName = modelName
            self.timeLimit = timeLimit
        }
    }

    /// How long a replay may run by default: two minutes, after which it answers with the turns replayed so far.
    public static let defaultReplayTimeLimit = Duration.seconds(120)

    /// Creates an inspector over a save folder.
    ///
    /// - Parameters:
    ///   - store: The save folder.
    ///   - replay: What a replay runs against; `nil` for no replays.
    public init(store: SaveGameStore, replay: ReplaySetup? = nil) {
        self.store = store
        self.replay = replay
        formToken = RandomID.hexDigits(64)
    }

    // MARK: - Reading

    /// A save as the saves page lists it.
    struct SaveSummary: Sendable {
        var slot: String
        var metadata: SaveMetadata?
        var error: String?
        /// The NPCs talked to: id, name, number of turns.
        var npcs: [(id: NPCID, name: String, turns: Int)]
        var reports: Int
    }

    /// Every save in the folder, most recently saved first; an unreadable one says why.
    func saves() -> [SaveSummary] {
        store.list().map { summary in
            guard summary.metadata != nil else {
                return SaveSummary(
                    slot: summary.slot, metadata: nil, error: summary.error.map { "\($0)" } ?? "never saved",
                    npcs: [], reports: 0)
            }
            let fingerprint = SaveFingerprint(of: summary.url)
            if let kept = summaries.summary(summary.slot, fingerprint: fingerprint) { return kept }
            do {
                let read = try save(summary.slot)
                // Kept only when the file did not change while it was read.
                if let fingerprint, fingerprint == SaveFingerprint(of: summary.url) {
                    summaries.keep(read, fingerprint: fingerprint)
                }
                return read
            } catch {
                return SaveSummary(
                    slot: summary.slot, metadata: summary.metadata, error: "\(error)", npcs: [], reports: 0)
            }
        }
    }

    /// One save's summary.
    func save(_ slot: String) throws(InspectorProblem) -> SaveSummary {
        try reading(slot) { file in
            let metadata = try file.metadata()
            var npcs: [(NPCID, String, Int)] = []
            for npc in try file.conversationLengths().keys.sorted() {
                guard let annotated = try file.transcript(npc: npc) else { continue }
                let turns = annotated.transcript.filter { if case .prompt = $0 { true } else { false } }.count
                npcs.append((npc, annotated.annotations[.npcName] ?? npc.rawValue, turns))
            }
            return SaveSummary(
                slot: file.slot, metadata: metadata, error: nil, npcs: npcs, reports: try file.feedback().count)
        }
    }

    /// One NPC's conversation in a save.
    func conversation(_ slot: String, npc: String) throws(InspectorProblem) -> InspectedConversation {
        try reading(slot) { file in
            guard let annotated = try file.transcript(npc: NPCID(npc)) else {
                throw InspectorProblem.noConversation(slot: slot, npc: npc)
            }
            return InspectedConversation(
                annotated, slot: file.slot, npc: NPCID(npc), recordings: try file.turnRecordings(npc: NPCID(npc)),
                reports: try Self.reports(in: file).map(\.attachment))
        }
    }

    /// The feedback reports of a save, oldest first.
    func reports(_ slot: String) throws(InspectorProblem) -> [(saved: SavedAttachment, attachment: FeedbackAttachment)]
    {
        try reading(slot) { file in try Self.reports(in: file) }
    }

    /// One report of a save, by id.
    func report(
        _ slot: String, id: String
    ) throws(InspectorProblem) -> (
        saved: SavedAttachment, attachment: FeedbackAttachment
    ) {
        guard let found = try reports(slot).first(where: { $0.saved.id == id }) else {
            throw InspectorProblem(
                status: 404, title: "Unknown report",
                detail: "Slot \(slot) holds no feedback report \"\(id)\"; GET /v1/saves/\(slot)/feedback lists them.")
        }
        return found
    }

    static func reports(in file: SaveFile) throws -> [(saved: SavedAttachment, attachment: FeedbackAttachment)] {
        try file.feedback().map { saved in
            do {
                return (saved, try FeedbackAttachment(data: Data(saved.json.utf8)))
            } catch {
                throw InspectorProblem(
                    status: 500, title: "Feedback cannot be read",
                    detail: "The feedback report \(saved.id) in slot \(file.slot) is not a report: \(error)")
            }
        }
    }

    /// Replays a save's recordings against the replay setup's models.
    func replayReport(_ slot: String) async throws(InspectorProblem) -> Replay.Report {
        guard let replay else {
            throw InspectorProblem(
                status: 404, title: "No replays",
                detail: "This inspector was started without a content pack and a model to replay against; "
                    + "run 'parley replay \(slot)' instead.")
        }
        let recordings = try reading(slot) { file in try file.turnRecordings() }
        return await Replay.run(
            recordings, pack: replay.pack, models: replay.models, until: .after(replay.timeLimit))
    }

    /// Runs `body` on a save opened read-only, turning every failure into a problem.
    private func reading<T>(_ slot: String, _ body: (SaveFile) throws -> T) throws(InspectorProblem) -> T {
        guard store.exists(slot: slot) else {
            throw InspectorProblem(
                status: 404, title: "Unknown save",
                detail: "There is no save in slot \(slot); GET /v1/saves lists them.")
        }
        do {
            let file = try store.open(slot: slot, access: .readOnly)
            defer { file.close() }
            return try body(file)
        } catch let problem as InspectorProblem {
            throw problem
        } catch {
            throw InspectorProblem(
                status: 422, title: "Save cannot be read", detail: "Slot \(slot) cannot be read: \(error)")
        }
    }

    // MARK: - Filing a report

    /// What a developer says about a turn.
    struct ReportRequest: Sendable, Equatable {
        /// The prompt entry id of the turn.
        var turn: String
        var sentiment: LanguageModelFeedback.Sentiment?
        var category: LanguageModelFeedback.Issue.Category
        var explanation: String?
        var desiredOutput: String?
    }

    /// Files a developer's report about one turn of a conversation into the save: the document the player's `report`
    /// files (``FeedbackReport/aboutReply(kind:npc:transcript:rolledBackEntries:modelID:modelVersion:sentiment:category:explanation:expected:context:createdAt:)``),
    /// with the conversation up to that turn and the turn's game context, kept as the game keeps reports
    /// (``SaveGames/SaveFile/addFeedback(_:)``).
    ///
    /// - Returns: The report, and the number of the turn it is about.
    func fileReport(
        _ request: ReportRequest, slot: String, npc: String
    ) throws(InspectorProblem) -> (attachment: FeedbackAttachment, turn: Int) {
        let conversation = try conversation(slot, npc: npc)
        guard let turn = conversation.turns.first(where: { $0.prompt.id == request.turn }) else {
            throw InspectorProblem(
                status: 422, title: "Unknown turn",
                detail: "The conversation of \(npc) in slot \(slot) has no turn \"\(request.turn)\"; give the prompt "
                    + "entry id of a turn (each turn's promptEntry in GET /v1/saves/\(slot)/conversations/\(npc)).")
        }
        let model = turn.model ?? conversation.model
        var context = turn.annotations
        context[.npc] = npc
        let about =
            turn.reply.map { "Reported from the inspector about turn \(turn.number): \($0)" }
            ?? "Reported from the inspector about turn \(turn.number)."
        let explanation = request.explanation.map { "\($0) (\(about))" } ?? about
        let report = FeedbackReport.aboutReply(
            kind: .developerReport, npc: NPCID(npc), transcript: conversation.transcript(through: turn),
            modelID: model.id, modelVersion: model.version, sentiment: request.sentiment, category: request.category,
            explanation: explanation, expected: request.desiredOutput, context: context)
        do {
            let file = try store.open(slot: slot, access: .readWrite)
            defer { file.close() }
            try file.addFeedback(report)
        } catch {
            throw InspectorProblem(
                status: 422, title: "Not saved", detail: "The report could not be saved in slot \(slot): \(error)")
        }
        return (report.attachment, turn.number)
    }
}

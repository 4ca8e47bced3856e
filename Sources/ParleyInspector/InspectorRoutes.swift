import Foundation
import LanguageModels
import ParleyBasics
import ParleyEngine
import ParleyEvaluation
import ParleyJSON
import ParleyServer
import SaveGames

/// The inspector's routes: its pages under `/inspect` and the JSON they are made from under `/v1/saves/{slot}`.
///
/// `parley serve` adds them to the game API's router; `parley inspect` serves them alone, with `GET /v1/saves`.
/// docs/api.md documents every route, and docs/openapi.json describes them.
///
/// The routes that write or run a model, filing a report from a turn and replaying a save, take a form only from the
/// inspector's own page: the form carries the inspector's secret token, and a request whose `Origin` is not the
/// server's own (or that the browser says is cross-site) is refused with `403`. Beyond loopback, the server's bearer
/// token applies to them as to every route.
public enum InspectorRoutes {
    /// Adds the inspector's routes to a router.
    ///
    /// - Parameters:
    ///   - router: The router, for example the game API's.
    ///   - inspector: The inspector.
    ///   - listingSaves: Whether to add `GET /v1/saves` too, for a server without the game API (which has its own).
    ///   - playingGame: The id of the game playing a slot (as stored), if one is, for `GET /v1/saves/{slot}`'s
    ///     `game`; `nil` (the default) for a server that plays no games.
    public static func register(
        on router: inout HTTPRouter, inspector: Inspector, listingSaves: Bool = false,
        playingGame: (@Sendable (String) async -> String?)? = nil
    ) {
        // MARK: Pages
        router.get("/inspect") { _ in
            await page(inspector) {
                InspectorPages.saves(inspector.saves(), folder: inspector.store.folder.lastPathComponent)
            }
        }
        router.get("/inspect/saves/{slot}") { request in
            await page(inspector) {
                let slot = request.pathParameters["slot"] ?? ""
                return InspectorPages.save(
                    try inspector.save(slot), reports: try summaries(inspector.reports(slot)),
                    replayToken: inspector.replay == nil ? nil : inspector.formToken)
            }
        }
        router.get("/inspect/saves/{slot}/npcs/{npc}") { request in
            await page(inspector) {
                let page = try pageNumber(request.query["page"])
                let conversation = try inspector.conversation(
                    request.pathParameters["slot"] ?? "", npc: request.pathParameters["npc"] ?? "")
                return InspectorPages.conversation(
                    conversation, page: page, formToken: inspector.formToken, filed: request.query["filed"])
            }
        }
        router.post("/inspect/saves/{slot}/npcs/{npc}/feedback") { request in
            do throws(InspectorProblem) {
                guard request.isSameOrigin else { throw InspectorProblem.crossSite }
                let form = try FormBody(request.body)
                guard let token = form["token"], constantTimeEqual(token, inspector.formToken) else {
                    throw InspectorProblem.crossSite
                }
                let slot = request.pathParameters["slot"] ?? ""
                let npc = request.pathParameters["npc"] ?? ""
                let fields = form.fields
                // Off the pool, as the pages: the save is read and written on a thread of its own.
                let filing = await offThePool { () -> Result<(FeedbackAttachment, Int), InspectorProblem> in
                    inspector.beforeRendering?()
                    do throws(InspectorProblem) {
                        let filed = try inspector.fileReport(try reportRequest(fields), slot: slot, npc: npc)
                        return .success((filed.attachment, filed.turn))
                    } catch {
                        return .failure(error)
                    }
                }
                let (report, number) = try filing.get()
                let conversation = "/inspect/saves/" + InspectorPages.path(slot, "npcs", npc)
                var allowed = CharacterSet.urlQueryAllowed
                allowed.remove(charactersIn: "&=+#")
                let filed = report.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? report.id
                let page = InspectorPages.page(ofTurn: number)
                let location = conversation + "?" + (page == 1 ? "" : "page=\(page)&") + "filed=\(filed)#turn-\(number)"
                return HTTPServerResponse(status: 303, headers: ["Location": location])
            } catch let problem {
                return html(InspectorPages.problem(problem), status: problem.status)
            }
        }
        router.get("/inspect/saves/{slot}/feedback/{id}") { request in
            await page(inspector) {
                let slot = request.pathParameters["slot"] ?? ""
                let found = try inspector.report(slot, id: request.pathParameters["id"] ?? "")
                return InspectorPages.report(found.attachment, slot: slot, npc: found.saved.npc?.rawValue)
            }
        }
        // A replay runs every recorded turn again (and with a paid model, pays for each): a form of the inspector's
        // own page, never a link another site could load.
        router.post("/inspect/saves/{slot}/replay") { request in
            do throws(InspectorProblem) {
                guard request.isSameOrigin else { throw InspectorProblem.crossSite }
                let form = try FormBody(request.body)
                guard let token = form["token"], constantTimeEqual(token, inspector.formToken) else {
                    throw InspectorProblem.crossSite
                }
                let slot = request.pathParameters["slot"] ?? ""
                let report = try await inspector.replayReport(slot)
                return html(InspectorPages.replay(report, slot: slot, modelName: inspector.replay?.modelName ?? ""))
            } catch let problem {
                return html(InspectorPages.problem(problem), status: problem.status)
            }
        }
        router.get("/inspect/assets/inspector.css") { _ in
            .bytes(Data(PackageResources.inspector_css), contentType: "text/css; charset=utf-8", headers: assetHeaders)
        }
        router.get("/inspect/assets/inspector.js") { _ in
            .bytes(
                Data(PackageResources.inspector_js), contentType: "text/javascript; charset=utf-8",
                headers: assetHeaders)
        }

        // MARK: JSON
        if listingSaves {
            router.get("/v1/saves") { _ in
                await json(inspector) { ["saves": .array(inspector.saves().map(savesEntry))] }
            }
        }
        router.get("/v1/saves/{slot}") { request in
            let slot = request.pathParameters["slot"] ?? ""
            let game = await playingGame?(SaveGameStore.sanitizedSlotName(slot) ?? slot)
            return await json(inspector) {
                let save = try inspector.save(slot)
                var object = savesEntry(save).objectValue ?? JSONObject()
                object["game"] = game.map(JSONValue.string) ?? .null
                object["npcs"] = .array(
                    save.npcs.map {
                        ["id": .string($0.id.rawValue), "name": .string($0.name), "turns": .integer($0.turns)]
                    })
                object["reports"] = .array(
                    try inspector.reports(slot).map { reportEntry($0.saved, $0.attachment) })
                return .object(object)
            }
        }
        router.get("/v1/saves/{slot}/conversations/{npc}") { request in
            await json(inspector) {
                try inspector.conversation(
                    request.pathParameters["slot"] ?? "", npc: request.pathParameters["npc"] ?? ""
                )
                .jsonValue
            }
        }
        router.post("/v1/saves/{slot}/conversations/{npc}/feedback") { request in
            await json(inspector, status: .created) {
                guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") == true else {
                    throw InspectorProblem(
                        status: 415, title: "Unsupported media type",
                        detail: "Send the report as JSON, with Content-Type: application/json.")
                }
                let body: JSONValue
                do {
                    body = try JSONValue(parsing: Array(request.body))
                } catch {
                    throw InspectorProblem.badRequest("The body is not JSON: \(error)")
                }
                guard let object = body.objectValue else {
                    throw InspectorProblem.badRequest(
                        "The body must be an object: {\"turn\", \"sentiment\", \"category\", \"explanation\", "
                            + "\"desiredOutput\"}.")
                }
                var fields: [String: String] = [:]
                for (key, value) in object { if let text = value.stringValue { fields[key] = text } }
                let report = try inspector.fileReport(
                    try reportRequest(fields), slot: request.pathParameters["slot"] ?? "",
                    npc: request.pathParameters["npc"] ?? "")
                return try JSONValue(parsing: Array(report.attachment.jsonData()))
            }
        }
        router.get("/v1/saves/{slot}/feedback") { request in
            await json(inspector) {
                [
                    "reports": .array(
                        try inspector.reports(request.pathParameters["slot"] ?? "").map {
                            try JSONValue(parsing: Array($0.attachment.jsonData()))
                        })
                ]
            }
        }
        router.get("/v1/saves/{slot}/feedback/{id}") { request in
            await json(inspector) {
                let found = try inspector.report(
                    request.pathParameters["slot"] ?? "", id: request.pathParameters["id"] ?? "")
                return try JSONValue(parsing: Array(found.attachment.jsonData()))
            }
        }
        // A POST: the server refuses it from pages of other sites (`Origin`, `Sec-Fetch-Site`), as every POST.
        router.post("/v1/saves/{slot}/replay") { request in
            do throws(InspectorProblem) {
                let report = try await inspector.replayReport(request.pathParameters["slot"] ?? "")
                return .json(replayJSON(report, modelName: inspector.replay?.modelName ?? ""))
            } catch let problem {
                return problemResponse(problem)
            }
        }
    }

    // MARK: - Requests

    /// A report request from a form's or a JSON body's fields.
    static func reportRequest(_ fields: [String: String]) throws(InspectorProblem) -> Inspector.ReportRequest {
        func field(_ name: String) -> String? {
            guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                return nil
            }
            return value
        }
        guard let turn = field("turn") else {
            throw InspectorProblem.badRequest("Say which turn the report is about: \"turn\", its prompt entry's id.")
        }
        var sentiment: LanguageModelFeedback.Sentiment?
        if let given = field("sentiment") {
            guard let known = LanguageModelFeedback.Sentiment(rawValue: given) else {
                throw InspectorProblem.badRequest(
                    "The sentiment \"\(given)\" is not one of positive, negative, neutral.")
            }
            sentiment = known
        }
        let categoryName = field("category") ?? LanguageModelFeedback.Issue.Category.incorrect.rawValue
        guard let category = LanguageModelFeedback.Issue.Category(rawValue: categoryName) else {
            let known = LanguageModelFeedback.Issue.Category.allCases.map(\.rawValue).joined(separator: ", ")
            throw InspectorProblem.badRequest("The category \"\(categoryName)\" is not one of \(known).")
        }
        return Inspector.ReportRequest(
            turn: turn, sentiment: sentiment, category: category, explanation: field("explanation"),
            desiredOutput: field("desiredOutput"))
    }

    /// Compares two secrets in time that does not depend on where they differ.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    // MARK: - Responses

    /// What every page's answer carries: no script or style but the inspector's own, no framing, no caching, and no
    /// referrer to other sites. (Not `no-referrer`: with it, a browser sends a form's `Origin` as `null`, and the
    /// report form would be refused as cross-site.)
    static let pageHeaders: HTTPFields = [
        "Content-Security-Policy":
            "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-store",
    ]

    static let assetHeaders: HTTPFields = ["X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"]

    static func html(_ page: HTML, status: Int = 200) -> HTTPServerResponse {
        .bytes(
            Data(page.markup.utf8), contentType: "text/html; charset=utf-8", status: HTTPStatus(status),
            headers: pageHeaders)
    }

    /// A page, or the problem's page, made on a thread of its own (``offThePool(_:)``): reading a save and rendering
    /// a long conversation take a while, and on the cooperative pool they would hold the threads that run every
    /// game's turns.
    static func page(
        _ inspector: Inspector, _ body: @escaping @Sendable () throws -> HTML
    ) async -> HTTPServerResponse {
        await offThePool {
            inspector.beforeRendering?()
            return page(body)
        }
    }

    /// A JSON answer, or the problem as `application/problem+json`, made on a thread of its own as ``page(_:_:)``
    /// makes pages.
    static func json(
        _ inspector: Inspector, status: HTTPStatus = .ok, _ body: @escaping @Sendable () throws -> JSONValue
    ) async -> HTTPServerResponse {
        await offThePool {
            inspector.beforeRendering?()
            return json(status: status, body)
        }
    }

    /// The page of a conversation `?page=N` asks for: 1 when not given.
    static func pageNumber(_ value: String?) throws(InspectorProblem) -> Int {
        guard let value else { return 1 }
        guard let page = Int(value), page >= 1 else {
            throw InspectorProblem.badRequest(
                "?page must be a whole number from 1, the first page; \"\(value)\" is not.")
        }
        return page
    }

    /// A page, or the problem's page.
    static func page(_ body: () throws -> HTML) -> HTTPServerResponse {
        do {
            return html(try body())
        } catch let problem as InspectorProblem {
            return html(InspectorPages.problem(problem), status: problem.status)
        } catch {
            let problem = InspectorProblem(status: 500, title: "Inspector failed", detail: "\(error)")
            return html(InspectorPages.problem(problem), status: 500)
        }
    }

    /// A JSON answer, or the problem as `application/problem+json`.
    static func json(status: HTTPStatus = .ok, _ body: () throws -> JSONValue) -> HTTPServerResponse {
        do {
            return .json(try body(), status: status)
        } catch let problem as InspectorProblem {
            return problemResponse(problem)
        } catch {
            return problemResponse(InspectorProblem(status: 500, title: "Inspector failed", detail: "\(error)"))
        }
    }

    static func problemResponse(_ problem: InspectorProblem) -> HTTPServerResponse {
        .problem(
            ProblemDetails(HTTPStatus(problem.status), detail: problem.detail, title: problem.title, type: problem.type)
        )
    }

    static func summaries(
        _ reports: [(saved: SavedAttachment, attachment: FeedbackAttachment)]
    ) -> [(saved: InspectorPages.SavedAttachmentSummary, attachment: FeedbackAttachment)] {
        reports.map {
            (InspectorPages.SavedAttachmentSummary(id: $0.saved.id, npc: $0.saved.npc?.rawValue), $0.attachment)
        }
    }

    // MARK: - JSON

    static func savesEntry(_ save: Inspector.SaveSummary) -> JSONValue {
        var object = JSONObject([("slot", .string(save.slot))])
        if let metadata = save.metadata {
            object["label"] = .string(metadata.label)
            object["world"] = .string(metadata.worldID)
            object["player"] = .string(metadata.playerName)
            object["location"] = .string(metadata.locationName)
            object["playTimeSeconds"] = .integer(metadata.playTime.components.seconds)
            object["savedAt"] = .string(metadata.updatedAt.formatted(.iso8601))
        }
        if let error = save.error { object["error"] = .string(error) }
        object["game"] = .null
        return .object(object)
    }

    static func reportEntry(_ saved: SavedAttachment, _ report: FeedbackAttachment) -> JSONValue {
        [
            "id": .string(saved.id), "npc": saved.npc.map { .string($0.rawValue) } ?? .null,
            "createdAt": .string(report.createdAt.formatted(.iso8601)),
            "kind": report.context[FeedbackReport.Kind.key].map(JSONValue.string) ?? .null,
            "category": report.issues.first.map { .string($0.category.rawValue) } ?? .null,
        ]
    }

    static func replayJSON(_ report: Replay.Report, modelName: String) -> JSONValue {
        [
            "model": .string(modelName), "summary": .string(report.summary),
            "same": .integer(report.same), "changed": .integer(report.changed), "failed": .integer(report.failed),
            "stoppedEarly": .bool(report.stoppedEarly), "notReplayed": .integer(report.notReplayed),
            "turns": .array(
                report.turns.map { turn in
                    [
                        "number": .integer(turn.number), "npc": .string(turn.npc.rawValue),
                        "input": .string(turn.input), "status": .string(turn.status.rawValue),
                        "recorded": [
                            "text": .string(turn.recordedText),
                            "calls": .array(turn.recordedCalls.map(JSONValue.string)),
                        ],
                        "replayed": [
                            "text": .string(turn.replayedText),
                            "calls": .array(turn.replayedCalls.map(JSONValue.string)),
                        ],
                    ]
                }),
        ]
    }
}

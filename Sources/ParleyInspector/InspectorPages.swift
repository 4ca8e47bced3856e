import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleyEngine
import ParleyEvaluation
import ParleyHost
import ParleyJSON

/// The inspector's pages, rendered on the server: plain HTML that reads without JavaScript, with a skip link, real
/// links and buttons for the keyboard, and every text from a save or a model escaped by ``HTML``.
enum InspectorPages {
    /// The path of a page or endpoint from its segments, each percent-encoded: a slot or an id from a save may hold
    /// any character.
    static func path(_ segments: String...) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }

    /// The page around a body: title, skip link, breadcrumbs, stylesheet and script (both served by the inspector).
    static func layout(title: String, breadcrumbs: [(String, String?)], _ body: HTML) -> HTML {
        let crumbs = breadcrumbs.map { name, link -> HTML in
            link.map { "<li><a href=\"\($0)\">\(name)</a></li>" } ?? "<li aria-current=\"page\">\(name)</li>"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Parley inspector</title>
            <link rel="stylesheet" href="/inspect/assets/inspector.css">
            <script src="/inspect/assets/inspector.js" defer></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header class="site"><nav aria-label="Breadcrumbs"><ol class="crumbs">\(crumbs)</ol></nav></header>
            <main id="main" tabindex="-1">
            <h1>\(title)</h1>
            \(body)
            </main>
            </body>
            </html>

            """
    }

    /// A problem as a page.
    static func problem(_ problem: InspectorProblem) -> HTML {
        layout(
            title: problem.title, breadcrumbs: [("Saves", "/inspect"), (problem.title, nil)],
            "<p class=\"problem\" role=\"alert\">\(problem.detail)</p><p><a href=\"/inspect\">Back to the saves</a></p>"
        )
    }

    // MARK: - Saves

    /// The saves: slot, place, play time, NPCs talked to, reports.
    static func saves(_ saves: [Inspector.SaveSummary], folder: String) -> HTML {
        guard !saves.isEmpty else {
            return layout(
                title: "Saves", breadcrumbs: [("Saves", nil)],
                "<p>There are no saves in \(folder) yet. Play a game (<code>parley play</code>), or point the inspector "
                    + "at another folder with <code>--saves DIR</code>.</p>")
        }
        let rows = saves.map { save -> HTML in
            let link = "/inspect/saves/" + path(save.slot)
            guard let metadata = save.metadata, save.error == nil else {
                return """
                    <tr><th scope="row">\(save.slot)</th><td colspan="5" class="problem">\(save.error ?? "")</td></tr>
                    """
            }
            let npcs = save.npcs.map { npc -> HTML in
                "<a href=\"\(link + "/npcs/" + path(npc.id.rawValue))\">\(npc.name)</a>"
            }
            return """
                <tr><th scope="row"><a href="\(link)">\(save.slot)</a></th><td>\(metadata.label)</td>\
                <td>\(metadata.locationName)</td><td>\(GameHost.format(metadata.playTime))</td>\
                <td>\(HTML(markup: npcs.map(\.markup).joined(separator: ", ")))</td>\
                <td class="number">\(save.reports)</td></tr>
                """
        }
        return layout(
            title: "Saves", breadcrumbs: [("Saves", nil)],
            """
            <p>The saves in \(folder), most recent first.</p>
            <table class="saves">
            <thead><tr><th scope="col">Slot</th><th scope="col">Label</th><th scope="col">Place</th>\
            <th scope="col">Play time</th><th scope="col">NPCs talked to</th><th scope="col">Reports</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table>
            """)
    }

    // MARK: - One save

    /// One save: its NPCs and its feedback reports; with `replayToken` (the form token, given when the inspector can
    /// replay), a form that replays it.
    static func save(
        _ save: Inspector.SaveSummary, reports: [(saved: SavedAttachmentSummary, attachment: FeedbackAttachment)],
        replayToken: String?
    ) -> HTML {
        let link = "/inspect/saves/" + path(save.slot)
        let npcs = save.npcs.map { npc -> HTML in
            let turns = npc.turns == 1 ? "1 turn" : "\(npc.turns) turns"
            return "<li><a href=\"\(link + "/npcs/" + path(npc.id.rawValue))\">\(npc.name)</a> (\(turns))</li>"
        }
        let metadata = save.metadata
        var body: HTML = """
            <dl class="facts">
            <dt>Label</dt><dd>\(metadata?.label ?? "")</dd>
            <dt>Player</dt><dd>\(metadata?.playerName ?? "")</dd>
            <dt>Place</dt><dd>\(metadata?.locationName ?? "")</dd>
            <dt>World</dt><dd>\(metadata?.worldTitle ?? "")</dd>
            <dt>Play time</dt><dd>\(metadata.map { GameHost.format($0.playTime) } ?? "")</dd>
            <dt>Saved</dt><dd>\(metadata.map { $0.updatedAt.formatted(.iso8601) } ?? "")</dd>
            </dl>
            <h2>NPCs talked to</h2>
            """
        body = npcs.isEmpty ? "\(body)<p>Nobody yet.</p>" : "\(body)<ul class=\"npcs\">\(npcs)</ul>"
        body = "\(body)<h2>Feedback reports</h2>\(reportList(reports, slot: save.slot))"
        if let replayToken {
            // A form, not a link: a replay runs the model again for every turn, which no other site may start.
            body = """
                \(body)<h2>Replay</h2>
                <form method="post" action="\(link + "/replay")">
                <input type="hidden" name="token" value="\(replayToken)">
                <p><button type="submit">Replay this save's recorded turns</button> against the inspector's model and \
                see what changes, side by side.</p>
                </form>
                """
        }
        return layout(title: "Save \(save.slot)", breadcrumbs: [("Saves", "/inspect"), (save.slot, nil)], body)
    }

    /// What a list of reports shows of each.
    struct SavedAttachmentSummary: Sendable {
        var id: String
        var npc: String?
    }

    static func reportList(
        _ reports: [(saved: SavedAttachmentSummary, attachment: FeedbackAttachment)], slot: String
    ) -> HTML {
        guard !reports.isEmpty else { return "<p>No reports.</p>" }
        let items = reports.map { saved, report -> HTML in
            let issue = report.issues.first
            let kind = report.context[FeedbackReport.Kind.key] ?? "report"
            return """
                <li class="report \(kindClass(kind))"><a href="\("/inspect/saves/" + path(slot, "feedback", saved.id))">\
                \(kindName(kind))</a> about \(saved.npc ?? "-"), \(report.createdAt.formatted(.iso8601)): \
                \(issue?.category.rawValue ?? "") — \(String((issue?.explanation ?? "").prefix(160)))</li>
                """
        }
        return "<ul class=\"reports\">\(items)</ul>"
    }

    static func kindName(_ kind: String) -> String {
        switch FeedbackReport.Kind(rawValue: kind) {
        case .refusedOffer: "Refused offer"
        case .playerReport: "Player's report"
        case .developerReport: "Developer's report"
        case .emptyReply: "Empty reply"
        case .refusedAction: "Refused action"
        case nil: "Report"
        }
    }

    static func kindClass(_ kind: String) -> String {
        FeedbackReport.Kind(rawValue: kind).map { "kind-\($0.rawValue)" } ?? "kind-other"
    }

    // MARK: - A conversation

    /// A conversation as a chat, each turn with its annotations, tool calls, reports, trims, and a report form: one
    /// page of ``turnsPerPage`` turns (a page beyond the last shows the last), with links to the first, previous,
    /// next and last pages.
    static func conversation(
        _ conversation: InspectedConversation, page requested: Int = 1, formToken: String, filed: String?
    ) -> HTML {
        let slotLink = "/inspect/saves/" + path(conversation.slot)
        let base = slotLink + "/npcs/" + path(conversation.npc.rawValue)
        // Only the page's turns are rendered, and charted: the page costs its 100 turns, however long the talk.
        let pages = pageCount(turns: conversation.turns.count)
        let page = min(max(requested, 1), pages)
        let shown = pageRange(page, turns: conversation.turns.count)
        var onPage = conversation
        onPage.turns = Array(conversation.turns[shown])
        let turns = onPage.turns.map { turn(conversation, $0, base: base, formToken: formToken) }
        let notice: HTML =
            filed.map {
                "<p class=\"notice\" role=\"status\">Report <a href=\"\(slotLink + "/feedback/" + path($0))\">\($0)</a> "
                    + "is saved in slot \(conversation.slot).</p>"
            } ?? ""
        let model = conversation.model
        let instructions: HTML =
            conversation.instructions.map {
                "<details class=\"instructions\"><summary>The NPC's instructions</summary><pre>\($0)</pre></details>"
            } ?? ""
        let others: HTML =
            conversation.otherReports.isEmpty || page != 1
            ? ""
            : """
            <h2>Other reports</h2>\(reportList(conversation.otherReports.map { (SavedAttachmentSummary(id: $0.id, npc: conversation.npc.rawValue), $0) }, slot: conversation.slot))
            """
        let navigation = pageLinks(page, of: pages, base: base)
        let range: HTML =
            pages == 1 ? "" : " · turns \(shown.lowerBound + 1)–\(shown.upperBound), page \(page) of \(pages)"
        return layout(
            title: "\(conversation.npcName) in \(conversation.slot)",
            breadcrumbs: [("Saves", "/inspect"), (conversation.slot, slotLink), (conversation.npcName, nil)],
            """
            \(notice)
            <p class="summary">\(conversation.turns.count) turns\(range) · model \(model.id) \(model.version) · \
            <a href="\("/v1/saves/" + path(conversation.slot, "conversations", conversation.npc.rawValue))">JSON</a></p>
            \(InspectorChart.svg(for: onPage))
            \(instructions)
            \(navigation)
            <ol class="turns" start="\(shown.lowerBound + 1)">\(turns)</ol>
            \(navigation)
            \(others)
            """)
    }

    // MARK: - Pages of a conversation

    /// The most turns a conversation's page shows.
    static let turnsPerPage = 100

    /// How many pages a conversation of `turns` turns has: at least one.
    static func pageCount(turns: Int) -> Int { max(1, (turns + turnsPerPage - 1) / turnsPerPage) }

    /// The page (from 1) that shows turn `number` (from 1).
    static func page(ofTurn number: Int) -> Int { max(1, (number - 1) / turnsPerPage + 1) }

    /// The indices of the turns page `page` shows, of `turns` turns.
    static func pageRange(_ page: Int, turns: Int) -> Range<Int> {
        let start = min((page - 1) * turnsPerPage, turns)
        return start..<min(start + turnsPerPage, turns)
    }

    /// The link to a page of a conversation: `base` with `?page=N`, the first page without it.
    static func pageLink(_ page: Int, base: String) -> String { page == 1 ? base : base + "?page=\(page)" }

    /// The links to the first, previous, next and last pages; nothing when there is one page.
    static func pageLinks(_ page: Int, of pages: Int, base: String) -> HTML {
        guard pages > 1 else { return "" }
        func link(_ name: String, _ target: Int, rel: String) -> HTML {
            target == page || target < 1 || target > pages
                ? "<li><span aria-disabled=\"true\">\(name)</span></li>"
                : "<li><a href=\"\(pageLink(target, base: base))\" rel=\"\(rel)\">\(name)</a></li>"
        }
        return """
            <nav class="pages" aria-label="Pages of the conversation"><ul>\
            \(link("First", 1, rel: "first"))\(link("Previous", page - 1, rel: "prev"))\
            <li aria-current="page">Page \(page) of \(pages)</li>\
            \(link("Next", page + 1, rel: "next"))\(link("Last", pages, rel: "last"))</ul></nav>
            """
    }

    static func turn(
        _ conversation: InspectedConversation, _ turn: InspectedConversation.Turn, base: String, formToken: String
    ) -> HTML {
        var classes = ["turn"]
        if turn.hasRefusedOffer { classes.append("refused") }
        if turn.isBeat { classes.append("beat") }
        if turn.recording?.trim != nil { classes.append("trimmed") }
        let trim: HTML =
            turn.recording?.trim.map { trim in
                let times = trim.count == 1 ? "" : " (\(trim.count) times)"
                let notes: HTML =
                    trim.notes.map { "<pre class=\"notes\">\($0)</pre>" } ?? "<p>Nothing was kept but "
                    + "the instructions and the recent turns (policy firstAndLast).</p>"
                return """
                    <div class="trim" role="note"><p><strong>Context trimmed here\(times)</strong>: the earlier turns \
                    left the NPC's working transcript; its instructions kept this summary and these facts.</p>\(notes)</div>
                    """
            } ?? ""
        let who = turn.isWitnessedEvent ? "Event" : (turn.annotations[.player] ?? "Player")
        let input: HTML =
            turn.isWitnessedEvent
            ? "<p class=\"event\"><span class=\"who\">\(who)</span> \(turn.input)</p>"
            : "<p class=\"player\"><span class=\"who\">\(who)</span> \(turn.input)</p>"
        let tools = turn.toolCalls.map { pair -> HTML in
            let output = pair.output.map { $0.segments.map(\.description).joined(separator: " ") } ?? "(no output)"
            let refused = pair.output.map(InspectedConversation.Turn.isRefusal) ?? false
            return """
                <li\(HTML(markup: refused ? " class=\"refused\"" : ""))><details\(HTML(markup: refused ? " open" : ""))>\
                <summary><code>\(pair.call.toolName)</code>\(HTML(markup: refused ? " <strong>refused</strong>" : ""))\
                </summary><p>Arguments</p><pre>\(pair.call.arguments.jsonString)</pre><p>Output</p><pre>\(output)</pre>\
                </details></li>
                """
        }
        let toolList: HTML = tools.isEmpty ? "" : "<ul class=\"tools\" aria-label=\"Tool calls\">\(tools)</ul>"
        let reply: HTML =
            turn.reply.map { text in
                let badge: HTML = turn.isBeat ? "<span class=\"badge\">authored beat</span> " : ""
                return "<p class=\"npc\"><span class=\"who\">\(conversation.npcName)</span> \(badge)\(text)</p>"
            } ?? (turn.recording?.failure.map { "<p class=\"problem\">The turn failed: \($0)</p>" } ?? "")
        let reports = turn.reports.map { report -> HTML in
            let kind = report.context[FeedbackReport.Kind.key] ?? "report"
            let link = "/inspect/saves/" + path(conversation.slot, "feedback", report.id)
            return """
                <li class="report \(kindClass(kind))"><a href="\(link)">\(kindName(kind))</a>: \
                \(report.issues.first?.explanation ?? "")</li>
                """
        }
        let reportList: HTML = reports.isEmpty ? "" : "<ul class=\"turn-reports\">\(reports)</ul>"
        return """
            <li class="\(classes.joined(separator: " "))" id="turn-\(turn.number)">
            \(trim)
            <div class="exchange">
            <h2 class="turn-title"><a href="#turn-\(turn.number)">Turn \(turn.number)</a></h2>
            \(input)
            \(toolList)
            \(reply)
            \(reportList)
            </div>
            \(annotations(turn))
            \(reportForm(turn, base: base, formToken: formToken))
            </li>
            """
    }

    static func annotations(_ turn: InspectedConversation.Turn) -> HTML {
        var rows: [(String, String)] = []
        if let gold = turn.annotations[.gold] { rows.append(("Gold", gold)) }
        if let inventory = turn.annotations[.inventory] {
            rows.append(("Inventory", inventory.isEmpty ? "nothing" : inventory))
        }
        if let location = turn.annotations[.location] { rows.append(("Location", location)) }
        if let model = turn.model { rows.append(("Model", "\(model.id) \(model.version)")) }
        if let story = turn.annotations[.story] { rows.append(("Story", story)) }
        if let voicing = turn.annotations[.voicing] { rows.append(("Voicing", voicing)) }
        if let usage = turn.recording?.usage {
            let requests = turn.requests
            rows.append(
                (
                    "Prompt tokens",
                    requests > 1 ? "\(usage.promptTokens) in \(requests) requests" : "\(usage.promptTokens)"
                ))
        }
        if let first = turn.recording?.firstWordsMilliseconds, first.isFinite, first >= 0 {
            rows.append(("First words", "\(Int(saturating: first.rounded())) ms"))
        }
        let items = rows.map { name, value -> HTML in "<dt>\(name)</dt><dd>\(value)</dd>" }
        return "<aside class=\"annotations\" aria-label=\"Turn \(turn.number) context\"><dl>\(items)</dl></aside>"
    }

    static func reportForm(_ turn: InspectedConversation.Turn, base: String, formToken: String) -> HTML {
        let categories = LanguageModelFeedback.Issue.Category.allCases.map { category -> HTML in
            let selected = category == .incorrect ? " selected" : ""
            return "<option value=\"\(category.rawValue)\"\(HTML(markup: selected))>\(category.rawValue)</option>"
        }
        let id = "report-\(turn.number)"
        return """
            <details class="report-form"><summary>File a report on turn \(turn.number)</summary>
            <form method="post" action="\(base + "/feedback")" id="\(id)">
            <input type="hidden" name="token" value="\(formToken)">
            <input type="hidden" name="turn" value="\(turn.prompt.id)">
            <fieldset><legend>Sentiment</legend>
            <label><input type="radio" name="sentiment" value="negative" checked> negative</label>
            <label><input type="radio" name="sentiment" value="neutral"> neutral</label>
            <label><input type="radio" name="sentiment" value="positive"> positive</label>
            </fieldset>
            <label for="\(id)-category">Category</label>
            <select id="\(id)-category" name="category">\(categories)</select>
            <label for="\(id)-explanation">Explanation</label>
            <textarea id="\(id)-explanation" name="explanation" rows="3"></textarea>
            <label for="\(id)-desired">Desired output</label>
            <textarea id="\(id)-desired" name="desiredOutput" rows="2"></textarea>
            <button type="submit">File the report</button>
            </form></details>
            """
    }

    // MARK: - A report

    /// A feedback report, with its transcript, and a link to its JSON.
    static func report(_ report: FeedbackAttachment, slot: String, npc: String?) -> HTML {
        let slotLink = "/inspect/saves/" + path(slot)
        let kind = report.context[FeedbackReport.Kind.key] ?? "report"
        let issues = report.issues.map { issue -> HTML in
            "<li><strong>\(issue.category.rawValue)</strong>: \(issue.explanation ?? "")</li>"
        }
        let context = report.context.sorted { $0.key < $1.key }.map { key, value -> HTML in
            "<dt>\(key)</dt><dd>\(value)</dd>"
        }
        let desired: HTML =
            report.desiredOutput.map {
                "<h2>Desired output</h2><p class=\"npc\">\($0.segments.map(\.description).joined(separator: " "))</p>"
            } ?? ""
        let entries = report.transcript.map { entry(entry: $0) }
        let rolledBack = report.rolledBackEntries.map { entry(entry: $0) }
        let rolled: HTML =
            rolledBack.isEmpty ? "" : "<h2>Rolled-back entries</h2><ol class=\"entries\">\(rolledBack)</ol>"
        let export = "/v1/saves/" + path(slot, "feedback", report.id)
        let conversation: HTML =
            npc.map { "<a href=\"\(slotLink + "/npcs/" + path($0))\">the conversation</a>" } ?? "the conversation"
        return layout(
            title: "\(kindName(kind)) \(String(report.id.prefix(8)))",
            breadcrumbs: [("Saves", "/inspect"), (slot, slotLink), ("Report \(report.id.prefix(8))", nil)],
            """
            <p class="\(kindClass(kind))">\(kindName(kind)) about \(conversation), \(report.createdAt.formatted(.iso8601)). \
            <a href="\(export)" download="\(report.id).json">Export as JSON</a> (the format of docs/feedback-format.md).</p>
            <dl class="facts">
            <dt>Id</dt><dd>\(report.id)</dd>
            <dt>Sentiment</dt><dd>\(report.sentiment?.rawValue ?? "not given")</dd>
            <dt>Model</dt><dd>\(report.modelID) \(report.modelVersion)</dd>
            <dt>Parley</dt><dd>\(report.parleyVersion)</dd>
            </dl>
            <h2>Issues</h2><ul>\(issues)</ul>
            \(desired)
            <h2>Game context</h2><dl class="facts">\(context)</dl>
            <h2>Transcript</h2><ol class="entries">\(entries)</ol>
            \(rolled)
            """)
    }

    /// One transcript entry, as a report's transcript lists it.
    static func entry(entry: Transcript.Entry) -> HTML {
        switch entry {
        case .instructions(let value):
            return """
                <li class="entry instructions"><details><summary>Instructions</summary>\
                <pre>\(value.segments.map(\.description).joined(separator: "\n"))</pre></details></li>
                """
        case .prompt(let value):
            return
                "<li class=\"entry player\"><span class=\"who\">Prompt</span> \(value.segments.map(\.description).joined(separator: " "))</li>"
        case .toolCalls(let calls):
            let items = calls.map { call -> HTML in
                "<code>\(call.toolName)</code> <code>\(call.arguments.jsonString)</code>"
            }
            return
                "<li class=\"entry tool\"><span class=\"who\">Tool calls</span> \(HTML(markup: items.map(\.markup).joined(separator: "; ")))</li>"
        case .toolOutput(let value):
            return
                "<li class=\"entry tool\"><span class=\"who\">Output of \(value.toolName)</span> <code>\(value.segments.map(\.description).joined(separator: " "))</code></li>"
        case .response(let value):
            return
                "<li class=\"entry npc\"><span class=\"who\">Response</span> \(value.segments.map(\.description).joined(separator: " "))</li>"
        case .reasoning(let value):
            return
                "<li class=\"entry tool\"><span class=\"who\">Reasoning</span> \(value.segments.map(\.description).joined(separator: " "))</li>"
        case .unknown(let value):
            return "<li class=\"entry\"><span class=\"who\">Unknown entry</span> \(value.description)</li>"
        }
    }

    // MARK: - A replay

    /// A replay's report, each turn's recorded and replayed answers side by side.
    static func replay(_ report: Replay.Report, slot: String, modelName: String) -> HTML {
        let slotLink = "/inspect/saves/" + path(slot)
        let rows = report.turns.map { turn -> HTML in
            func side(_ text: String, _ calls: [String], _ voicing: String?) -> HTML {
                let list: HTML =
                    calls.isEmpty
                    ? "" : "<ul class=\"calls\">\(calls.map { call -> HTML in "<li><code>\(call)</code></li>" })</ul>"
                let voiced: HTML = voicing.map { "<p class=\"voicing\">\($0)</p>" } ?? ""
                return "<p>\(text)</p>\(list)\(voiced)"
            }
            return """
                <tr class="status-\(turn.status.rawValue)"><th scope="row">\(turn.number)<br>\(turn.npc.rawValue)</th>\
                <td>\(turn.input)</td><td>\(side(turn.recordedText, turn.recordedCalls, turn.recordedVoicing))</td>\
                <td>\(side(turn.replayedText, turn.replayedCalls, turn.replayedVoicing))</td>\
                <td class="status">\(turn.status.rawValue)</td></tr>
                """
        }
        let stopped: HTML =
            report.stoppedEarly
            ? "\n<p class=\"stopped\">The replay stopped at its time limit; \(report.notReplayed) turns were not "
                + "replayed. Replay again with a longer limit (parley serve --replay-timeout SECONDS), or use "
                + "<code>parley replay</code>.</p>"
            : ""
        return layout(
            title: "Replay of \(slot)",
            breadcrumbs: [("Saves", "/inspect"), (slot, slotLink), ("Replay", nil)],
            """
            <p class="summary">Replayed against \(modelName): \(report.summary).</p>\(stopped)
            <table class="replay">
            <thead><tr><th scope="col">Turn</th><th scope="col">Input</th><th scope="col">Recorded</th>\
            <th scope="col">Replayed</th><th scope="col">Status</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table>
            """)
    }
}

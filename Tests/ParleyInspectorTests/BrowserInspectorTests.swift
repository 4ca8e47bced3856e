import ChildProcess
import Foundation
import ParleyJSON
import ScriptedModel
import Testing

/// The inspector in a real browser: headless Chromium, driven through its WebDriver, opens the pages a save folder
/// made by real games gives, follows their links and submits their form, and the tests read the DOM it built.
@Suite(
    .enabled(if: HeadlessChromium.testsEnabled, Comment(rawValue: HeadlessChromium.howToEnable)),
    .timeLimit(.minutes(10)), .serialized)
struct BrowserInspectorTests {
    @Test func aSaveWithARefusedOfferShowsTheRefusalAndItsReport() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect"))
                try await browser.click("a[href='/inspect/saves/refused/npcs/mira']")
                #expect(try await browser.wait(until: "return location.pathname.endsWith('/npcs/mira');"))
                let refused = try await browser.evaluate(
                    """
                    const turn = document.querySelector('li.turn.refused');
                    if (!turn) return null;
                    return {
                      text: turn.textContent,
                      refusedTool: turn.querySelector('ul.tools li.refused details[open] summary')?.textContent ?? '',
                      report: turn.querySelector('li.report.kind-refusedOffer a')?.textContent ?? ''
                    };
                    """)
                try #require(refused != .null, "no turn is marked refused")
                #expect(refused["refusedTool"]?.stringValue?.contains("offerTrade") == true, "\(refused)")
                #expect(refused["refusedTool"]?.stringValue?.contains("refused") == true, "\(refused)")
                #expect(refused["report"]?.stringValue == "Refused offer", "\(refused)")
                #expect(refused["text"]?.stringValue?.contains("Unexpected trade offer") == true, "\(refused)")

                // Its report, one click away, with its transcript and the JSON export.
                try await browser.click("li.turn.refused li.report.kind-refusedOffer a")
                #expect(try await browser.wait(until: "return location.pathname.includes('/feedback/');"))
                let report = try await browser.evaluate(
                    """
                    return {
                      title: document.querySelector('h1').textContent,
                      export: document.querySelector('a[download]')?.getAttribute('href') ?? '',
                      entries: document.querySelectorAll('ol.entries li.entry').length,
                      context: document.querySelector('dl.facts:nth-of-type(2)')?.textContent ?? ''
                    };
                    """)
                #expect(report["title"]?.stringValue?.hasPrefix("Refused offer") == true, "\(report)")
                #expect((report["entries"]?.intValue ?? 0) >= 3, "\(report)")
                let export = try #require(report["export"]?.stringValue)
                #expect(export.hasPrefix("/v1/saves/refused/feedback/"))
                // The export is the documented JSON.
                let (status, json) = try await fixture.json(export)
                #expect(status == 200)
                #expect(json["type"] == "Parley.FeedbackAttachment")
                #expect(json["context"]?["kind"] == "refusedOffer")
            }
        }
    }

    @Test func aLongConversationShowsItsTrimsOnTheChart() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.longConversation()
            // Where the recordings say the context was trimmed (more than once, or the test proves little).
            let (_, conversation) = try await fixture.json("/v1/saves/long/conversations/mira")
            let turns = try #require(conversation["turns"]?.arrayValue)
            let trimmed = turns.filter { $0["trim"] != nil && $0["trim"] != .null }.compactMap {
                $0["number"]?.intValue
            }
            try #require(trimmed.count >= 2, "the conversation was trimmed \(trimmed.count) times; the test needs more")
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect/saves/long/npcs/mira"))
                let chart = try await browser.evaluate(
                    """
                    const svg = document.querySelector('figure.chart svg.token-chart');
                    if (!svg) return null;
                    return {
                      marks: Array.from(svg.querySelectorAll('line.trim-mark')).map(l => Number(l.dataset.turn)),
                      window: svg.querySelectorAll('line.window').length,
                      points: svg.querySelectorAll('circle.token-point').length,
                      width: svg.getBoundingClientRect().width,
                      caption: document.querySelector('figure.chart figcaption').textContent,
                      notes: Array.from(document.querySelectorAll('li.turn.trimmed'))
                        .map(t => t.querySelector('.trim pre.notes')?.textContent ?? '')
                    };
                    """)
                try #require(chart != .null, "no chart")
                #expect(chart["marks"]?.arrayValue?.compactMap(\.intValue) == trimmed, "\(chart)")
                #expect(chart["window"]?.intValue == 1)
                #expect(chart["points"]?.intValue == turns.count)
                #expect((chart["width"]?.doubleValue ?? 0) > 300, "the chart is not drawn: \(chart)")
                #expect(chart["caption"]?.stringValue?.contains("trimmed at turns") == true, "\(chart)")
                // Where each trim happened, the summary and facts the NPC kept are shown.
                let notes = chart["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(notes.count == trimmed.count)
                #expect(notes.allSatisfy { $0.contains("Facts that still hold") }, "\(notes)")
            }
        }
    }

    @Test func aPlayersLineWithAScriptIsShownAsText() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect/saves/refused/npcs/mira"))
                let page = try await browser.evaluate(
                    """
                    return {
                      injected: window.parleyInjected === true,
                      title: document.title,
                      scripts: Array.from(document.querySelectorAll('script')).map(s => s.getAttribute('src')),
                      bold: document.querySelectorAll('main b').length,
                      lines: Array.from(document.querySelectorAll('p.player')).map(p => p.textContent)
                    };
                    """)
                #expect(page["injected"] == false, "the player's script ran")
                #expect(page["title"]?.stringValue?.contains("injected") == false)
                // The only script is the inspector's own, and the player's <b> is no element.
                #expect(page["scripts"] == ["/inspect/assets/inspector.js"])
                #expect(page["bold"] == 0)
                let lines = page["lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(lines.contains { $0.contains(InspectorFixture.scriptLine) }, "\(lines)")
            }
        }
    }

    @Test func theKeyboardReachesTheSkipLinkFirstAndItShowsAndWorks() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect/saves/refused/npcs/mira"))
                try await browser.press("\u{E004}")  // Tab
                let focused = try await browser.evaluate(
                    """
                    const element = document.activeElement;
                    const box = element.getBoundingClientRect();
                    return {text: element.textContent, visible: box.left >= 0 && box.width > 0,
                            outline: getComputedStyle(element).outlineStyle};
                    """)
                #expect(focused["text"] == "Skip to content", "\(focused)")
                #expect(focused["visible"] == true, "the skip link stays off screen when focused: \(focused)")
                try await browser.press("\u{E007}")  // Enter
                let after = try await browser.evaluate(
                    "return {hash: location.hash, focused: document.activeElement.id};")
                #expect(after["hash"] == "#main")
                // Tab again: the next stop is a link or a button, with a visible focus style.
                try await browser.press("\u{E004}")
                let next = try await browser.evaluate(
                    """
                    const element = document.activeElement;
                    return {tag: element.tagName, outline: getComputedStyle(element).outlineStyle};
                    """)
                #expect(["A", "SUMMARY", "BUTTON"].contains(next["tag"]?.stringValue ?? ""), "\(next)")
                #expect(next["outline"] != "none", "no focus style: \(next)")
            }
        }
    }

    @Test func filingAReportFromATurnStoresItInTheSave() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.play(
                ["talk to mira", "how much is the lantern?"], slot: "report",
                models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
            let before = try await runParley(["feedback", "list", "--saves", fixture.folder.path])
            #expect(before.status == 0, "\(before.err)")
            #expect(before.out.contains("No feedback reports."), "\(before.out)")
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect/saves/report/npcs/mira"))
                // Open the form of turn 2 by keyboard-reachable summary, fill it in, and submit it.
                try await browser.click("li#turn-2 details.report-form summary")
                _ = try await browser.evaluate(
                    "document.querySelector('#report-2-category').value = 'tooVerbose'; return true;")
                try await browser.click("#report-2 input[value='neutral']")
                try await browser.type("The price is right, but it rambles.", into: "#report-2-explanation")
                try await browser.type("25 gold.", into: "#report-2-desired")
                try await browser.click("#report-2 button[type=submit]")
                let arrived = try await browser.wait(
                    until: "return location.search.includes('filed=') && document.readyState === 'complete';")
                #expect(arrived, "the form's answer never came")
                let notice = try await browser.evaluate(
                    "return document.querySelector('p.notice a')?.textContent ?? '';")
                let page = try await browser.evaluate(
                    "return location.href + ' ' + document.body.innerText.slice(0, 600);")
                let id = try #require(
                    notice.stringValue.flatMap { $0.isEmpty ? nil : $0 }, "no notice after filing: \(page)")
                let url = try await browser.currentURL()
                #expect(url.hasSuffix("#turn-2"), "\(url)")
                // The turn lists its new report.
                let listed = try await browser.evaluate(
                    "return document.querySelector('li#turn-2 li.report.kind-developerReport a')?.textContent ?? '';")
                #expect(listed == "Developer's report")

                // The built parley finds it in the save, as it finds the game's own reports.
                let after = try await runParley(["feedback", "list", "--saves", fixture.folder.path])
                #expect(after.status == 0, "\(after.err)")
                #expect(after.out.contains(String(id.prefix(8))), "\(after.out)")
                #expect(after.out.contains("tooVerbose: The price is right, but it rambles."), "\(after.out)")
                let shown = try await runParley([
                    "feedback", "show", String(id.prefix(8)), "--saves", fixture.folder.path,
                ])
                let report = try JSONValue(parsing: shown.out)
                #expect(report["sentiment"] == "neutral")
                #expect(report["context"]?["kind"] == "developerReport")
                #expect(report["context"]?["npc"] == "mira")
                #expect(report["desiredOutput"]?["contents"]?[0]?["text"] == "25 gold.")
                // Its transcript ends with the turn reported.
                let entries = report["transcript"]?["transcript"]?["entries"]?.arrayValue ?? []
                #expect(entries.last?["role"] == "response")
                #expect(entries.filter { $0["role"] == "user" }.count == 2, "\(entries.map { $0["role"] ?? .null })")
            }
        }
    }

    /// A replay is a form of the save's page, not a link: a real browser sends it (with the page's origin and token)
    /// and gets the replay's page; the server refuses the same request from any other site.
    @Test func theReplayButtonReplaysTheSave() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            try await HeadlessChromium.with { browser in
                try await browser.open(fixture.url("/inspect/saves/refused"))
                let links = try await browser.evaluate(
                    "return [...document.querySelectorAll('a')].filter(a => a.href.endsWith('/replay')).length;")
                #expect(links == 0)
                try await browser.click("form[action$='/replay'] button[type=submit]")
                let arrived = try await browser.wait(
                    until:
                        "return document.querySelector('table.replay') !== null && document.readyState === 'complete';")
                let text = try await browser.evaluate("return document.body.innerText.slice(0, 600);")
                #expect(arrived, "no replay page: \(text)")
                #expect(text.stringValue?.contains("2 changed") == true, "\(text)")
            }
        }
    }
}

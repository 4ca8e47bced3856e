import Foundation
import ParleyHTTP
import ParleyJSON
import Testing

/// The web example (`Examples/web`) in a real browser: headless Chromium opens its page from one loopback origin
/// against the built `parley serve`, on another, that allows that origin (`--cors-origin`), with the scripted model.
/// The page keeps its own gold, pack and gate; the tests play it through its DOM and check, through the DOM and the
/// server, that Parley's NPCs price, offer and trade by the state the page pushed, that speech and offers arrive
/// through its EventSource, that an NPC's action reaches the page and its answer is what the NPC says and what its
/// conversation holds, that an event the page tells reaches its witness, and that a page from an origin the server
/// does not allow gets nothing and says so.
@Suite(
    .enabled(if: HeadlessChromium.testsEnabled, Comment(rawValue: HeadlessChromium.howToEnable)),
    .timeLimit(.minutes(10)), .serialized)
struct BrowserWebExampleTests {
    /// The example's folder.
    static let example = InspectorFixture.root.appendingPathComponent("Examples/web")
    /// How long the page may take to show what a step waits for: generous, for a shared, busy machine.
    static let patience: Duration = .seconds(90)

    /// A folder of the test's own: the content pack, the saves, the server's output.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-web-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }

        /// The shipped content pack, copied here, with `openGate` waiting for the game's answer for the longest an
        /// action may (60 s) rather than 5 s: the page answers at once, but a busy machine must not make the test a
        /// race against the clock.
        func content() throws -> URL {
            let pack = url.appendingPathComponent("Content")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: InspectorFixture.root.appendingPathComponent("Content"), to: pack)
            let file = pack.appendingPathComponent("actions.json")
            let text = try String(contentsOf: file, encoding: .utf8)
            let longer = text.replacingOccurrences(of: #""timeoutSeconds": 5"#, with: #""timeoutSeconds": 60"#)
            try #require(longer != text, "Content/actions.json no longer has openGate's \"timeoutSeconds\": 5")
            try longer.write(to: file, atomically: true, encoding: .utf8)
            return pack
        }

        var saves: URL { url.appendingPathComponent("saves") }
    }

    /// The page, opened in a browser from a site, against a server.
    struct Page {
        let browser: HeadlessChromium
        let parley: ParleyServeProcess

        /// Opens the page with `?server=` naming the server.
        init(_ browser: HeadlessChromium, site: StaticSite, parley: ParleyServeProcess) async throws {
            self.browser = browser
            self.parley = parley
            let query = parley.baseURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await browser.open("\(site.origin)/?server=\(query)")
        }

        /// Waits for the page to show something, and fails with what it shows when it does not.
        func wait(
            until condition: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let shown = try await browser.wait(until: condition, limit: BrowserWebExampleTests.patience)
            let log = shown ? "" : try await log()
            try #require(shown, "the page never showed \(what):\n\(log)", sourceLocation: sourceLocation)
        }

        /// The page's status line and log, for failure messages.
        func log() async throws -> String {
            try await browser.evaluate(
                """
                const status = document.getElementById('status');
                return status.dataset.state + ': ' + status.textContent + '\\n' +
                  Array.from(document.querySelectorAll('#log li')).map(li => li.className + ' ' + li.textContent)
                    .join('\\n');
                """
            ).stringValue ?? ""
        }

        /// Waits until the page plays a game: it listens and Parley has its state. Returns the game's id.
        func started() async throws -> String {
            try await wait(until: "return document.body.dataset.ready === 'true';", "a game it plays")
            return try #require(try await browser.evaluate("return document.body.dataset.game;").stringValue)
        }

        /// Says a line to an NPC as a player does (the menu, the field, the button), and waits until every request
        /// the page made has been answered and the NPC has finished speaking through the listener.
        func say(_ line: String, to npc: String) async throws {
            let before = try await speeches(by: npc).count
            let chosen = try await browser.evaluate(
                "const menu = document.getElementById('npc'); menu.value = arguments[0]; return menu.value;",
                [.string(npc)])
            try #require(chosen == .string(npc), "no \(npc) in the page's menu")
            try await browser.type(line, into: "#line")
            try await browser.click("#say")
            try await settled(afterSpeeches: before + 1, by: npc, "\(npc)'s answer to \"\(line)\"")
        }

        /// Waits until no request of the page runs and an NPC has said `count` lines, each ended.
        func settled(afterSpeeches count: Int, by npc: String, _ what: String) async throws {
            try await wait(
                until: """
                    return document.getElementById('say-form').dataset.pending === '0' &&
                      document.querySelectorAll('#log li.speech[data-npc="\(npc)"][data-ended]').length >= \(count);
                    """, what)
        }

        /// What an NPC said, in order, as the page shows it.
        func speeches(by npc: String) async throws -> [String] {
            try await browser.evaluate(
                "return Array.from(document.querySelectorAll(`#log li.speech[data-npc=\"${arguments[0]}\"] .text`))"
                    + ".map(text => text.textContent);", [.string(npc)]
            ).arrayValue?.compactMap(\.stringValue) ?? []
        }

        /// The page's own gold and pack, as it shows them.
        func world() async throws -> (gold: Int, inventory: [String: Int]) {
            let shown = try await browser.evaluate(
                """
                const pack = {};
                for (const item of document.querySelectorAll('#inventory li')) pack[item.dataset.item] = Number(item.dataset.quantity);
                return {gold: Number(document.getElementById('gold').textContent), pack};
                """)
            var pack: [String: Int] = [:]
            for (item, quantity) in shown["pack"]?.objectValue ?? JSONObject([]) { pack[item] = quantity.intValue }
            return (try #require(shown["gold"]?.intValue), pack)
        }

        /// The player's gold, pack and waiting offers as Parley has them.
        func parleyState(_ game: String) async throws -> (gold: Int, inventory: [String: Int], offers: [JSONValue]) {
            let (response, state) = try await parley.call(.get, "/v1/games/\(game)")
            try #require(response.status == 200, "GET /v1/games/\(game): \(response.status) \(response.bodyText)")
            var inventory: [String: Int] = [:]
            for stack in state["player"]?["inventory"]?.arrayValue ?? [] {
                if let id = stack["id"]?.stringValue { inventory[id] = stack["quantity"]?.intValue }
            }
            return (
                try #require(state["player"]?["gold"]?.intValue, "\(state)"), inventory,
                state["offers"]?.arrayValue ?? []
            )
        }
    }

    /// Runs a test with a server that allows one site's origin, the example served from that site, and a browser.
    static func playing(_ body: (Page, _ game: String) async throws -> Void) async throws {
        let folder = Folder()
        let content = try folder.content()
        try await StaticSite.with(folder: example) { site in
            try await ParleyServeProcess.with(
                content: content, saves: folder.saves, arguments: ["--cors-origin", site.origin]
            ) { parley in
                try await HeadlessChromium.with { browser in
                    let page = try await Page(browser, site: site, parley: parley)
                    try await body(page, try await page.started())
                }
            }
        }
    }

    @Test func pricesOffersAndTradesFollowTheStateThePagePushes() async throws {
        try await Self.playing { page, game in
            // Parley's player is the page's: its name, gold and pack, and nothing of the world's own start.
            let start = try await page.world()
            #expect(start.gold == 10 && start.inventory == ["rusty_sword": 1, "apple": 3], "\(start)")
            var parley = try await page.parleyState(game)
            #expect(parley.gold == start.gold)
            #expect(parley.inventory == start.inventory, "Parley's player carries \(parley.inventory)")

            // 10 gold: Mira names her price, and makes no offer.
            try await page.say("I'll take the lantern", to: "mira")
            let priced = try #require(try await page.speeches(by: "mira").last)
            #expect(priced.contains("25"), "Mira's price, as her rules say it: \(priced)")
            #expect(try await page.parleyState(game).offers.isEmpty)
            // Her words came through the listener: each ended line carries its event id.
            let ids = try await page.browser.evaluate(
                "return Array.from(document.querySelectorAll('#log li.speech[data-npc=\"mira\"]'))"
                    + ".map(li => li.dataset.eventId ?? '');")
            #expect(ids.arrayValue?.allSatisfy { Int($0.stringValue ?? "") != nil } == true, "\(ids)")

            // The page's own world changes, and it pushes: an apple eaten, 20 gold found.
            try await page.browser.click("#eat-apple")
            try await page.wait(
                until:
                    "return document.querySelector('#log li.state-changed[data-field=\"inventory\"][data-value=\"2\"]') !== null;",
                "Parley's stateChanged for the apple eaten")
            try await page.browser.click("#find-gold")
            try await page.wait(
                until:
                    "return document.querySelector('#log li.state-changed[data-field=\"gold\"][data-value=\"30\"]') !== null;",
                "Parley's stateChanged for the gold found")
            parley = try await page.parleyState(game)
            #expect(parley.gold == 30)
            #expect(parley.inventory == ["rusty_sword": 1, "apple": 2], "\(parley.inventory)")
            // Everything of the line before came before the push's events, on the one ordered stream: no offer.
            let offers = try await page.browser.evaluate("return document.querySelectorAll('#offers li').length;")
            let shownSoFar = offers == 0 ? "" : try await page.log()
            #expect(offers == 0, "an offer was shown with 10 gold:\n\(shownSoFar)")

            // 30 gold: the same line gets an offer, shown with its buttons; declined, it is gone, and nothing changed.
            _ = try await Self.offer(on: page, game)
            try await page.browser.click("#offers li[data-npc=\"mira\"] button.decline")
            try await page.wait(
                until: """
                    return document.querySelectorAll('#offers li').length === 0 &&
                      document.getElementById('say-form').dataset.pending === '0';
                    """, "the offer declined")
            parley = try await page.parleyState(game)
            #expect(parley.offers.isEmpty && parley.gold == 30, "\(parley)")
            #expect(try await page.world().gold == 30)

            // Asked again, and accepted.
            let price = try await Self.offer(on: page, game)

            // Accept: the trade arrives through the listener, and the page applies it to its own world.
            try await page.browser.click("#offers li[data-npc=\"mira\"] button.accept")
            try await page.wait(
                until: """
                    return document.querySelector('#log li.trade[data-npc="mira"]') !== null &&
                      document.querySelectorAll('#offers li').length === 0 &&
                      document.getElementById('say-form').dataset.pending === '0';
                    """, "the trade")
            let after = try await page.world()
            #expect(after.gold == 30 - price, "\(after)")
            #expect(after.inventory == ["rusty_sword": 1, "apple": 2, "lantern": 1], "\(after)")
            parley = try await page.parleyState(game)
            #expect(parley.gold == after.gold)
            #expect(parley.inventory == after.inventory, "Parley's player carries \(parley.inventory)")
            #expect(parley.offers.isEmpty)
        }
    }

    /// Asks Mira for the lantern, waits for her offer on the page, checks it is Parley's, and returns its price.
    static func offer(on page: Page, _ game: String) async throws -> Int {
        try await page.say("I'll take the lantern", to: "mira")
        try await page.wait(
            until: "return document.querySelector('#offers li[data-npc=\"mira\"] button.accept') !== null;",
            "Mira's offer")
        let offer = try await page.browser.evaluate(
            """
            const card = document.querySelector('#offers li[data-npc="mira"]');
            return {gold: Number(card.dataset.playerGold), summary: card.querySelector('.summary').textContent};
            """)
        let price = try #require(offer["gold"]?.intValue)
        #expect(price > 0 && price <= 30, "\(offer)")
        #expect(offer["summary"]?.stringValue?.contains("Brass Lantern") == true, "\(offer)")
        let waiting = try await page.parleyState(game).offers
        #expect(waiting.count == 1 && waiting.first?["playerGives"]?["gold"]?.intValue == price, "\(waiting)")
        return price
    }

    @Test func oonaOpensThePagesGateAndSeesTheSwordItDraws() async throws {
        try await Self.playing { page, game in
            // Oona's openGate reaches the page, which opens its own gate and answers; she says its answer.
            try await page.say("please signal the gatehouse to open the gate", to: "oona")
            try await page.wait(
                until: """
                    return document.getElementById('gate').dataset.state === 'open' &&
                      document.querySelector('#log li.answer[data-message]') !== null;
                    """, "the gate opened and the action answered")
            let answered = try await page.browser.evaluate(
                """
                const log = Array.from(document.querySelectorAll('#log li'));
                const action = log.findIndex(li => li.matches('li.action[data-npc="oona"][data-action="openGate"]'));
                const answer = log.findIndex(li => li.matches('li.answer'));
                return {action, answer, message: log[answer].dataset.message};
                """)
            let message = try #require(answered["message"]?.stringValue)
            let action = try #require(answered["action"]?.intValue)
            #expect(action >= 0 && action < (answered["answer"]?.intValue ?? -1), "\(answered)")
            // The call's arguments came to the page: Oona asked for the player the page named.
            #expect(message.contains("Wren"), "\(message)")
            let said = try #require(try await page.speeches(by: "oona").last)
            #expect(said.contains(message), "Oona: \(said)")
            // The answer is the tool's output in Oona's conversation.
            let (response, transcript) = try await page.parley.call(.get, "/v1/games/\(game)/transcript/oona")
            #expect(response.status == 200)
            let outputs = (transcript["transcript"]?["entries"]?.arrayValue ?? []).filter {
                $0["role"] == "tool" && $0["toolName"] == "openGate"
            }
            #expect(outputs.count == 1 && outputs[0].jsonString().contains(message), "\(outputs)")

            // The page tells Oona its player draws a sword: she witnesses it, and answers unprompted.
            let before = try await page.speeches(by: "oona").count
            try await page.browser.click("#draw-sword")
            try await page.settled(afterSpeeches: before + 1, by: "oona", "Oona's answer to the sword")
            let told = try await page.browser.evaluate(
                """
                const log = Array.from(document.querySelectorAll('#log li'));
                const event = log.findIndex(li => li.matches('li.world-event'));
                const speeches = log.map((li, index) => [li, index])
                  .filter(([li]) => li.matches('li.speech[data-npc="oona"]')).map(([, index]) => index);
                return {event, text: event >= 0 ? log[event].textContent : '', last: speeches[speeches.length - 1]};
                """)
            #expect(told["text"]?.stringValue?.contains("Wren draws a sword.") == true, "\(told)")
            #expect(told["text"]?.stringValue?.contains("Sergeant Oona Vell") == true, "\(told)")
            let event = try #require(told["event"]?.intValue, "\(told)")
            #expect(event >= 0 && event < (told["last"]?.intValue ?? -1), "the event after Oona's answer: \(told)")
            let reaction = try #require(try await page.speeches(by: "oona").last)
            #expect(reaction.contains("bare steel"), "Oona's rule for a drawn weapon: \(reaction)")
            let (_, conversation) = try await page.parley.call(.get, "/v1/games/\(game)/transcript/oona")
            #expect(conversation.jsonString().contains("Wren draws a sword."))
        }
    }

    @Test func aPageFromAnOriginNotAllowedGetsNoAnswerAndSaysSo() async throws {
        let folder = Folder()
        try await StaticSite.with(folder: Self.example) { allowed in
            try await StaticSite.with(folder: Self.example) { other in
                try await ParleyServeProcess.with(
                    content: InspectorFixture.root.appendingPathComponent("Content"), saves: folder.saves,
                    arguments: ["--cors-origin", allowed.origin]
                ) { parley in
                    // The server gives the other origin no Access-Control-* field, and refuses its preflight.
                    let (preflight, _) = try await parley.call(
                        HTTPMethod(rawValue: "OPTIONS"), "/v1/games",
                        headers: [
                            "Origin": other.origin, "Access-Control-Request-Method": "POST",
                            "Access-Control-Request-Headers": "content-type",
                        ])
                    #expect(preflight.status == 403)
                    #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
                    let (health, _) = try await parley.call(.get, "/v1/health", headers: ["Origin": other.origin])
                    #expect(health.status == 200 && health.headers["Access-Control-Allow-Origin"] == nil)
                    let (welcome, _) = try await parley.call(.get, "/v1/health", headers: ["Origin": allowed.origin])
                    #expect(welcome.headers["Access-Control-Allow-Origin"] == allowed.origin)

                    try await HeadlessChromium.with { browser in
                        // From the other origin, the browser lets the page read nothing: it says so, and which origin
                        // to allow, and no game was started.
                        let blocked = try await Page(browser, site: other, parley: parley)
                        try await blocked.wait(
                            until: "return document.getElementById('status').dataset.state === 'unreachable';",
                            "that it cannot reach the server")
                        let status = try await browser.evaluate("return document.getElementById('status').textContent;")
                        #expect(status.stringValue?.contains("--cors-origin \(other.origin)") == true, "\(status)")
                        #expect(try await browser.evaluate("return document.body.dataset.game ?? null;") == .null)
                        let (_, games) = try await parley.call(.get, "/v1/games")
                        #expect(games["games"]?.arrayValue?.isEmpty == true, "\(games)")

                        // The same page from the allowed origin plays.
                        let page = try await Page(browser, site: allowed, parley: parley)
                        let game = try await page.started()
                        let (_, listed) = try await parley.call(.get, "/v1/games")
                        #expect(listed["games"]?.arrayValue?.map { $0["id"]?.stringValue } == [game], "\(listed)")
                    }
                }
            }
        }
    }
}

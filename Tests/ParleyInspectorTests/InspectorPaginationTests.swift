import Foundation
import GameWorld
import ParleyEngine
import ParleyHost
import ParleyHTTP
import ParleyServer
import SaveGames
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyInspector

/// A long conversation's page shows 100 turns with links to the first, previous, next and last pages, and pages are
/// made off the cooperative pool: a game's line is answered while inspector renders are held (by a gate the test
/// controls, never by timing).
@Suite(.timeLimit(.minutes(10))) struct InspectorPaginationTests {
    /// The turn numbers a page shows, from its `id="turn-N"` anchors.
    static func turnNumbers(in page: String) -> [Int] {
        page.components(separatedBy: "id=\"turn-").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    /// The link a page gives for `rel`, if it gives one.
    static func link(_ rel: String, in page: String) -> String? {
        for anchor in page.components(separatedBy: "<a href=\"").dropFirst() {
            let target = String(anchor.prefix { $0 != "\"" })
            if anchor.dropFirst(target.count).hasPrefix("\" rel=\"\(rel)\"") {
                return target.replacingOccurrences(of: "&amp;", with: "&")
            }
        }
        return nil
    }

    @Test func aPageOfAThousandTurnConversationShowsAHundredTurnsAndWorkingLinks() async throws {
        try await InspectorFixture.with { fixture in
            try LongConversationSave.write(turns: 1_000, slot: "long", in: fixture.folder)
            let base = "/inspect/saves/long/npcs/mira"
            let first = try await fixture.client.execute(.get(fixture.url(base)))
            #expect(first.status == 200)
            #expect(Self.turnNumbers(in: first.bodyText) == Array(1...100))
            #expect(first.bodyText.contains("1000 turns · turns 1–100, page 1 of 10"))
            #expect(Self.link("first", in: first.bodyText) == nil)
            #expect(Self.link("prev", in: first.bodyText) == nil)
            #expect(Self.link("last", in: first.bodyText) == base + "?page=10")
            // Follow next twice, then last, then prev and first: each link leads where it says.
            var page = first.bodyText
            for expected in 2...3 {
                let next = try #require(Self.link("next", in: page))
                #expect(next == base + "?page=\(expected)")
                let response = try await fixture.client.execute(.get(fixture.url(next)))
                #expect(response.status == 200)
                page = response.bodyText
                #expect(Self.turnNumbers(in: page) == Array((expected - 1) * 100 + 1...expected * 100))
            }
            let last = try await fixture.client.execute(.get(fixture.url(try #require(Self.link("last", in: page)))))
            #expect(Self.turnNumbers(in: last.bodyText) == Array(901...1_000))
            #expect(Self.link("next", in: last.bodyText) == nil)
            let previous = try #require(Self.link("prev", in: last.bodyText))
            #expect(previous == base + "?page=9")
            let ninth = try await fixture.client.execute(.get(fixture.url(previous)))
            #expect(Self.turnNumbers(in: ninth.bodyText) == Array(801...900))
            #expect(Self.link("first", in: ninth.bodyText) == base)
            // A page beyond the last shows the last; a page that is not a number is refused.
            let beyond = try await fixture.client.execute(.get(fixture.url(base + "?page=99")))
            #expect(Self.turnNumbers(in: beyond.bodyText) == Array(901...1_000))
            let bad = try await fixture.client.execute(.get(fixture.url(base + "?page=two")))
            #expect(bad.status == 400)
        }
    }

    @Test func aReportFiledOnALaterTurnLeadsBackToItsPage() async throws {
        try await InspectorFixture.with { fixture in
            try LongConversationSave.write(turns: 250, slot: "long", in: fixture.folder)
            let response = try await fixture.client.execute(
                HTTPRequest(
                    method: .post, url: fixture.url("/inspect/saves/long/npcs/mira/feedback"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": fixture.server.baseURL],
                    body: Data("token=\(fixture.inspector.formToken)&turn=prompt-234&category=incorrect".utf8)))
            #expect(response.status == 303, "\(response.bodyText)")
            let location = try #require(response.headers["Location"])
            #expect(location.hasPrefix("/inspect/saves/long/npcs/mira?page=3&filed="))
            #expect(location.hasSuffix("#turn-234"))
            let page = try await fixture.client.execute(.get(fixture.url(location)))
            #expect(Self.turnNumbers(in: page.bodyText).contains(234))
            #expect(page.bodyText.contains("is saved in slot long"))
        }
    }

    /// Issue 33: a `look` in another game took 30.8 s while four long pages rendered, because rendering held the
    /// cooperative pool's threads. Here as many renders as the pool has threads (and one more) are held inside the
    /// inspector by a gate; a game's line must still be answered. Were renders on the pool, nothing could run until a
    /// watchdog thread opened the gate, and the test says so.
    @Test func aGamesLineIsAnsweredWhileInspectorRendersAreHeld() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-offpool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try LongConversationSave.write(turns: 150, slot: "long", in: folder)
        let gate = ThreadGate()
        var inspector = Inspector(store: SaveGameStore(folder: folder))
        inspector.beforeRendering = { gate.pass() }
        var router = HTTPRouter()
        InspectorRoutes.register(on: &router, inspector: inspector, listingSaves: true)
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router)
        let client = try HTTPClient()
        // A watchdog off the pool: if the game's line is not answered in ten minutes, it opens the gate.
        gate.openAfter(.seconds(600))

        let renders = ProcessInfo.processInfo.activeProcessorCount + 1
        let pages = Task {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<renders {
                    group.addTask {
                        (try? await client.execute(.get(server.baseURL + "/inspect/saves/long/npcs/mira")))?.status
                            ?? 0
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Waited for on a thread of its own: the test holds no thread of the pool while it waits.
        let held = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: gate.waitUntilHeld(renders)) }.start()
        }
        #expect(held, "every render reached the gate")

        let pack = try InspectorFixture.pack()
        let host = GameHost(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: nil)
        let shown = Mutex<[String]>([])
        await host.perform("look") { output in shown.withLock { $0.append("\(output)") } }
        let openedByWatchdog = gate.open()
        #expect(!openedByWatchdog, "the game's line waited for the inspector's renders")
        #expect(shown.withLock { !$0.isEmpty })
        #expect(await pages.value == Array(repeating: 200, count: renders))
        await server.stop()
    }
}

/// A gate that holds threads (not tasks): the inspector's renders run on threads of their own, and a test holds them
/// there. Whoever opens it first (the test, or a watchdog after a deadline) is remembered.
final class ThreadGate: Sendable {
    private struct State {
        var held = 0
        var open = false
        var openedByWatchdog = false
    }

    private let state = Mutex(State())
    private let condition = NSCondition()

    /// Holds the calling thread until the gate opens.
    func pass() {
        condition.lock()
        state.withLock { $0.held += 1 }
        condition.broadcast()
        while !state.withLock({ $0.open }) { condition.wait() }
        condition.unlock()
    }

    /// Waits (blocking this thread, at most ten minutes) until `count` threads are held; `false` if they never are.
    func waitUntilHeld(_ count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(600)
        while state.withLock({ $0.held < count && !$0.open }) {
            guard condition.wait(until: deadline) else { return false }
        }
        return state.withLock { $0.held >= count }
    }

    /// Opens the gate.
    ///
    /// - Returns: Whether the watchdog had opened it already.
    @discardableResult
    func open() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let byWatchdog = state.withLock { state in
            defer { state.open = true }
            return state.openedByWatchdog
        }
        condition.broadcast()
        return byWatchdog
    }

    /// Starts a thread that opens the gate after `delay`, unless it is open by then.
    func openAfter(_ delay: Duration) {
        let seconds = Double(delay.components.seconds)
        Thread { [self] in
            condition.lock()
            let deadline = Date().addingTimeInterval(seconds)
            while !state.withLock({ $0.open }) {
                if !condition.wait(until: deadline) {
                    state.withLock {
                        $0.openedByWatchdog = true
                        $0.open = true
                    }
                    condition.broadcast()
                }
            }
            condition.unlock()
        }.start()
    }
}

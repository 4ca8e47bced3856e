import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import ScriptedModel
import Testing

@testable import ParleyAPI

/// The numbered events of one game, as its listeners get them (`GameEventLog`).
@Suite struct GameEventLogTests {
    static func event(_ number: Int) -> APIEvent { APIEvent(.narration, JSONObject([("text", .integer(number))])) }

    static func drain(_ stream: AsyncStream<GameEventLog.Item>) async -> [GameEventLog.Item] {
        var items: [GameEventLog.Item] = []
        for await item in stream where item != .heartbeat { items.append(item) }
        return items
    }

    @Test func aListenerGetsWhatIsKeptAfterItsLastIDThenEverythingNewThenTheEnd() async {
        let log = GameEventLog(capacity: 3)
        for number in 1...5 { log.publish(Self.event(number)) }
        let late = log.listen(after: 0, heartbeat: .seconds(3_600))
        let fresh = log.listen(after: nil, heartbeat: .seconds(3_600))
        let caughtUp = log.listen(after: 4, heartbeat: .seconds(3_600))
        log.publish(Self.event(6))
        log.end()
        #expect(
            await Self.drain(late) == [
                .missed(count: 2), .event(id: 3, Self.event(3)), .event(id: 4, Self.event(4)),
                .event(id: 5, Self.event(5)), .event(id: 6, Self.event(6)), .ended,
            ])
        #expect(await Self.drain(fresh) == [.event(id: 6, Self.event(6)), .ended])
        #expect(await Self.drain(caughtUp) == [.event(id: 5, Self.event(5)), .event(id: 6, Self.event(6)), .ended])
        #expect(log.listenerCount == 0)
        // After the end, a listener gets what is kept after its id, then the end at once.
        #expect(
            await Self.drain(log.listen(after: 5, heartbeat: .seconds(1))) == [.event(id: 6, Self.event(6)), .ended])
    }

    @Test func aGameKeepsItsLast1000EventsAndBeatsEvery15SecondsByDefault() async throws {
        let log = GameEventLog()
        for number in 1...1_003 { log.publish(Self.event(number)) }
        let late = log.listen(after: 0, heartbeat: .seconds(3_600))
        log.end()
        let items = await Self.drain(late)
        #expect(items.first == .missed(count: 3))
        #expect(items.dropFirst().first == .event(id: 4, Self.event(4)))
        #expect(items.count == 1 + 1_000 + 1)
        let pack = try ContentPack.load(
            from: APIGamesTests.root.appendingPathComponent("Content"), displayPath: "Content"
        ).get()
        let configuration = APIGames.Configuration(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: nil)
        #expect(configuration.eventBacklog == 1_000)
        #expect(configuration.heartbeatInterval == .seconds(15))
    }

    @Test func aListenerThatDoesNotReadIsEndedAfterWhatItBufferedSoItsClientResumes() async {
        let log = GameEventLog(capacity: 4)
        let stalled = log.listen(after: nil, heartbeat: .seconds(3_600))
        for number in 1...100 { log.publish(Self.event(number)) }
        #expect(log.listenerCount == 0)
        let items = await Self.drain(stalled)
        // Consecutive from the first, then the stream ends: a reconnect with the last id resumes from what is kept.
        let ids = items.compactMap { item -> Int? in if case .event(let id, _) = item { id } else { nil } }
        #expect(ids == Array(1...ids.count))
        #expect(ids.count == 4 + 16)
    }

    @Test func aListenerWhoseReaderIsCancelledIsRemovedBeforeAnythingIsPublished() async {
        let log = GameEventLog()
        let stream = log.listen(after: nil, heartbeat: .seconds(3_600))
        #expect(log.listenerCount == 1)
        let reader = Task { for await _ in stream {} }
        reader.cancel()
        await reader.value
        // Removed as its reader went, not at the next event: a game nobody listens to any more can be idle.
        #expect(log.listenerCount == 0)
    }

    @Test func aListenerWhoseStreamIsDroppedUnreadIsRemoved() async {
        let log = GameEventLog()
        do {
            let stream = log.listen(after: 0, heartbeat: .seconds(3_600))
            _ = stream
            #expect(log.listenerCount == 1)
        }
        // The route that listens can fail before it reads (its client left): the stream is let go unread.
        #expect(log.listenerCount == 0)
    }

    @Test func aListenerThatLeavesIsRemovedAndHeartbeatsComeWhileNothingHappens() async {
        let log = GameEventLog()
        let stream = log.listen(after: nil, heartbeat: .milliseconds(5))
        #expect(log.listenerCount == 1)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == .heartbeat)
        log.closeListeners()
        while await iterator.next() != nil {}
        #expect(log.listenerCount == 0)
        log.publish(Self.event(1))
        #expect(log.nextID == 2)
    }
}

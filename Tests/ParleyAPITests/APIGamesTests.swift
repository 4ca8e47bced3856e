import ContentPacks
import Foundation
import GameWorld
import ParleyAPI
import ParleyEngine
import ParleyJSON
import SaveGames
import ScriptedModel
import Testing

/// The game API below HTTP: starting, loading and continuing games in one save folder, running lines as a player
/// types them, and the events and state a client reads. The NPCs are the scripted model's, so what they say is known.
@Suite struct APIGamesTests {
    /// A temporary save folder, removed afterwards.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-api-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func games(in folder: Folder, maximum: Int = 8) throws -> APIGames {
        let pack = try ContentPack.load(from: root.appendingPathComponent("Content"), displayPath: "Content").get()
        return APIGames(
            configuration: .init(
                pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
                store: SaveGameStore(folder: folder.url), maximumGames: maximum))
    }

    static func types(_ events: [APIEvent]) -> [APIEvent.Kind] { events.map(\.type) }

    @Test func aNewGameLooksAroundAndSavesToAFreeAutosaveSlot() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        let (first, events) = try await games.start(.new)
        // The world's introduction, then the first look.
        #expect(events.prefix(2).map(\.type) == [.narration, .narration])
        #expect(events.first?.fields["text"]?.stringValue?.hasPrefix("You arrive in Brackenford") == true)
        #expect(events.dropFirst().first?.fields["text"]?.stringValue?.hasPrefix("Market Square") == true)
        let (second, _) = try await games.start(.new)
        #expect(first.id != second.id)
        let slots = [await first.state()["slot"], await second.state()["slot"]].compactMap { $0?.stringValue }
        #expect(Set(slots) == ["autosave", "autosave-2"])
        await games.endAll()
    }

    @Test func aPriceQuestionGivesSpeechPiecesAndTheToolCallWithItsOutput() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        let (game, _) = try await games.start(.new)
        _ = await game.input("talk to mira")
        let (events, goesOn) = await game.input("how much is the lantern?")
        #expect(goesOn)
        let speech = events.filter { $0.type == .speech }.compactMap { $0.fields["text"]?.stringValue }.joined()
        #expect(speech.contains("25 gold"))
        // The end of the speech carries the whole line.
        #expect(events.first { $0.type == .speechEnded }?.fields["text"]?.stringValue == speech)
        #expect(events.first { $0.type == .speechBegan }?.npc == .init(id: "mira", name: "Mira Quickcoin"))
        #expect(events.filter { $0.type == .speech }.allSatisfy { $0.npc?.id == "mira" })
        let call = try #require(events.first { $0.type == .toolCall })
        #expect(call.fields["tool"] == "lookUpStock")
        #expect(call.fields["output"]?.objectValue != nil)
        #expect(Self.types(events).firstIndex(of: .speechEnded)! > Self.types(events).firstIndex(of: .speechBegan)!)
        await games.endAll()
    }

    @Test func anOfferThenAcceptIsATradeInTheEventsAndTheState() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        let (game, _) = try await games.start(.new)
        _ = await game.input("talk to mira")
        let (asked, _) = await game.input("I'll buy the rope")
        let offer = try #require(asked.first { $0.type == .offer })
        #expect(offer.npc?.id == "mira")
        #expect(offer.fields["npcGives"]?["items"]?.arrayValue?.first?["id"] == "rope")
        let pending = await game.state()["offers"]?.arrayValue
        #expect(pending?.count == 1)
        let goldBefore = await game.state()["player"]?["gold"]?.intValue ?? 0
        let (accepted, _) = await game.input("accept")
        let trade = try #require(accepted.first { $0.type == .trade })
        let price = try #require(trade.fields["playerGives"]?["gold"]?.intValue)
        let state = await game.state()
        #expect(state["player"]?["gold"]?.intValue == goldBefore - price)
        #expect(state["player"]?["inventory"]?.arrayValue?.contains { $0["id"] == "rope" } == true)
        #expect(state["offers"]?.arrayValue?.isEmpty == true)
        await games.endAll()
    }

    @Test func aSavedGameLoadsInANewGameAndASlotInPlayIsRefused() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        let (game, _) = try await games.start(.new)
        _ = await game.input("go north")
        let (saved, _) = await game.input("save checkpoint")
        #expect(saved.contains { $0.type == .narration })
        do {
            _ = try await games.start(.load("autosave"))
            Issue.record("a slot another game plays was loaded")
        } catch {
            #expect(error.status == 409)
        }
        let (loaded, _) = try await games.start(.load("checkpoint"))
        let location = await loaded.state()["location"]?["id"]?.stringValue
        #expect(location == (await game.state()["location"]?["id"]?.stringValue))
        do {
            _ = try await games.start(.load("never-saved"))
            Issue.record("a slot that does not exist was loaded")
        } catch {
            #expect(error.status == 404)
        }
        let saves = await games.saves().arrayValue ?? []
        #expect(saves.contains { $0["slot"] == "checkpoint" })
        #expect(saves.contains { $0["slot"] == "autosave" && $0["game"]?.stringValue == game.id })
        await games.endAll()
    }

    @Test func continuingTakesTheLatestAutosaveOnceItsGameHasEnded() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        do {
            _ = try await games.start(.continueLast)
            Issue.record("continued with nothing saved")
        } catch {
            #expect(error.status == 404)
        }
        let (game, _) = try await games.start(.new)
        _ = await game.input("go north")
        let place = await game.state()["location"]?["id"]?.stringValue
        try await games.end(game.id)
        let (continued, _) = try await games.start(.continueLast)
        #expect(await continued.state()["location"]?["id"]?.stringValue == place)
        await #expect(throws: APIProblem.self) { try await games.game(game.id) }
        await games.endAll()
    }

    @Test func linesSentAtOnceRunOneAfterAnother() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder)
        let (game, _) = try await games.start(.new)
        _ = await game.input("talk to mira")
        let lines = (0..<8).map { $0 % 2 == 0 ? "how much is the lantern?" : "what do you sell?" }
        let results = await withTaskGroup(of: [APIEvent].self) { group in
            for line in lines { group.addTask { await game.input(line).events } }
            var all: [[APIEvent]] = []
            for await events in group { all.append(events) }
            return all
        }
        // Each line's events are its own whole turn: one speech, begun and ended, never another's in between.
        for events in results {
            let types = Self.types(events).filter { [.speechBegan, .speechEnded].contains($0) }
            #expect(types == [.speechBegan, .speechEnded], "\(Self.types(events))")
        }
        let transcript = try #require(try await game.transcript(of: "mira"))
        let prompts = transcript.transcript.filter { if case .prompt = $0 { true } else { false } }
        #expect(prompts.count == 1 + lines.count)
        await games.endAll()
    }

    @Test func tooManyGamesAreRefusedUntilOneEnds() async throws {
        let folder = Folder()
        let games = try Self.games(in: folder, maximum: 2)
        let (first, _) = try await games.start(.new)
        _ = try await games.start(.new)
        do {
            _ = try await games.start(.new)
            Issue.record("a third game started")
        } catch {
            #expect(error.status == 503)
        }
        try await games.end(first.id)
        _ = try await games.start(.new)
        #expect(await games.count == 2)
        await games.endAll()
    }

    @Test(arguments: [
        (#"{}"#, APIGames.Start.new), (#"{"load": "slot1"}"#, .load("slot1")), (#"{"continue": true}"#, .continueLast),
        (#"{"continue": false}"#, .new),
    ])
    func startBodiesAreRead(body: String, start: APIGames.Start) throws {
        #expect(try APIGames.Start(json: JSONValue(parsing: body)) == start)
    }

    @Test(arguments: [#"[]"#, #"{"load": 3}"#, #"{"load": ""}"#, #"{"continue": "yes"}"#, #"{"load": "a", "continue": true}"#, #"{"lod": "a"}"#])
    func badStartBodiesSayWhatToSend(body: String) throws {
        let problem = try #require(throws: APIProblem.self) { try APIGames.Start(json: JSONValue(parsing: body)) }
        #expect(problem.status == 400)
        #expect(!problem.detail.isEmpty)
    }
}

import GameWorld
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ParleyModels
import Testing

/// A server plays each NPC through a copy of one backend keyed by the world and the NPC, so each NPC's KV cache has
/// a file of its own on llama-server, named for the model that made it; and the game's save and close reach it.
@Suite(.timeLimit(.minutes(10)))
struct ModelCacheKeyTests {
    /// A loopback server that answers like llama-server with `--slot-save-path`, reporting `build` as its build.
    static func server(build: String = "b1") throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            switch request.path {
            case "/props":
                return .json(
                    #"{"default_generation_settings":{"n_ctx":4096,"params":{}},"total_slots":1,"#
                        + #""model_path":"/m/tiny.gguf","build_info":"\#(build)"}"#)
            case "/v1/chat/completions":
                return .json(
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":"Hm."},"finish_reason":"stop"}]}"#)
            case let path where path.hasPrefix("/slots/"):
                return request.query == "action=save"
                    ? .json(#"{"id_slot":0,"n_saved":3,"n_written":100,"timings":{"save_ms":1}}"#)
                    : .json(#"{"error":{"code":400,"message":"no file"}}"#, status: 400)
            default:
                return .text("not found", status: 404)
            }
        }
    }

    static let mira = NPC(id: "mira", name: "Mira", persona: "A merchant.", location: "gate")
    static let bram = NPC(id: "bram", name: "Bram", persona: "A smith.", location: "gate")
    static func world(_ id: String) -> World {
        World(
            id: id, title: "W", locations: [Location(id: "gate", name: "Gate", description: "A gate.")], items: [],
            npcs: [mira, bram], goal: GameGoal(description: "Be.", requirements: []))
    }

    static func voice(
        of npc: NPC, in world: World, provider: ModelChoice.Provider
    ) async throws -> OpenAICompatibleLanguageModel {
        let model = try #require(try await provider(npc, world) as? VoicedModel)
        return try #require(model.voice as? OpenAICompatibleLanguageModel)
    }

    @Test(arguments: [VoiceMode.grounded, .free])
    func eachNPCsVoiceIsKeyedByItsWorldAndId(mode: VoiceMode) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let choice = try ModelChoice.parse(server.baseURL + "/v1")
        let provider = try await choice.makeProvider(voice: VoiceSettings(mode: mode))
        let world = Self.world("brackenford")
        let mira = try await Self.voice(of: Self.mira, in: world, provider: provider)
        let bram = try await Self.voice(of: Self.bram, in: world, provider: provider)
        let elsewhere = try await Self.voice(of: Self.mira, in: Self.world("elsewhere"), provider: provider)
        #expect(mira.cacheKey == SlotCacheKey(scope: "brackenford", name: "mira"))
        #expect(bram.cacheKey == SlotCacheKey(scope: "brackenford", name: "bram"))
        let names = [mira.cacheFileName, bram.cacheFileName, elsewhere.cacheFileName].compactMap { $0 }
        #expect(Set(names).count == 3, "\(names)")
        // The same NPC later (another turn, another process) gets the same file.
        #expect(try await Self.voice(of: Self.mira, in: world, provider: provider).cacheFileName == mira.cacheFileName)
    }

    @Test func anotherModelBuildNamesAnotherFile() async throws {
        let old = try Self.server(build: "b1")
        let new = try Self.server(build: "b2")
        defer {
            old.stop()
            new.stop()
        }
        let world = Self.world("brackenford")
        let before = try await Self.voice(
            of: Self.mira, in: world, provider: try await ModelChoice.parse(old.baseURL + "/v1").makeProvider())
        let after = try await Self.voice(
            of: Self.mira, in: world, provider: try await ModelChoice.parse(new.baseURL + "/v1").makeProvider())
        #expect(before.version != after.version, "what the NPC's conversation records as model.version")
        #expect(before.cacheFileName != after.cacheFileName, "a cache is never restored into another build")
    }

    @Test func savingTheCachesOfAVoicedNPCReachesItsServer() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let provider = try await ModelChoice.parse(server.baseURL + "/v1").makeProvider()
        let model = try #require(try await provider(Self.mira, Self.world("w")) as? VoicedModel)
        let session = LanguageModelSession(model: model.voice, instructions: "You are Mira.")
        _ = try await session.respond(to: "Hello", options: GenerationOptions(maximumResponseTokens: 4))
        let keeper: any ModelCacheKeeping = model
        await keeper.saveCaches()
        let saves = server.requests.filter { $0.path == "/slots/0" && $0.query == "action=save" }
        #expect(saves.count == 1)
        let voice = try #require(model.voice as? OpenAICompatibleLanguageModel)
        #expect(saves.first?.bodyText.contains(voice.cacheFileName ?? "?") == true)
    }
}

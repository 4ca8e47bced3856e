import Testing

@testable import OpenAICompatible

/// A cache key's file name is safe to send to a server (no path, no traversal, bounded, `[a-z0-9_-]` only), stable
/// across processes, and different for every NPC, scope, model and model version.
@Suite struct SlotCacheKeyTests {
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name.count <= SlotCacheKey.maximumFileNameLength
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_".unicodeScalars.contains($0)
            }
    }

    @Test(arguments: [
        ("brackenford", "mira"),
        ("../../etc", "passwd"),
        ("/absolute/path", "..\\..\\windows"),
        ("", ""),
        ("Brackenford Market", "Mira Quickcoin"),
        ("wörld", "ñpc\u{0}\n"),
        (String(repeating: "w", count: 500), String(repeating: "n", count: 500)),
        (".", ".."),
        ("%2e%2e%2f", "a/b"),
    ])
    func fileNamesAreSafeWhateverTheKey(scope: String, name: String) {
        let file = SlotCacheKey(scope: scope, name: name).fileName(modelID: "m/../x", modelVersion: "v 1.0")
        #expect(Self.isSafe(file), "\(file)")
        #expect(!file.contains(".."))
        #expect(file.hasPrefix("parley-"))
    }

    @Test func theNameIsReadableAndStable() {
        let file = SlotCacheKey(scope: "brackenford", name: "mira").fileName(
            modelID: "SmolLM2-135M-Instruct", modelVersion: "SmolLM2-135M-Instruct.gguf llama.cpp b1")
        #expect(file.hasPrefix("parley-brackenford-mira-"))
        // FNV-1a of the four parts: the same in every process and on every machine, so a later process finds the
        // file an earlier one saved.
        #expect(
            file == "parley-brackenford-mira-"
                + Self.hex(
                    SlotCacheKey.fnv1a64(
                        "brackenford\u{0}mira\u{0}SmolLM2-135M-Instruct\u{0}SmolLM2-135M-Instruct.gguf llama.cpp b1")))
        #expect(SlotCacheKey.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(SlotCacheKey.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    @Test func keysDifferPerNPCScopeModelAndVersion() {
        let names = [
            SlotCacheKey(scope: "w", name: "mira").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "w", name: "bram").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "v", name: "mira").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "w", name: "mira").fileName(modelID: "m", modelVersion: "2"),
            SlotCacheKey(scope: "w", name: "mira").fileName(modelID: "n", modelVersion: "1"),
            // Names that read the same once made safe still differ by their hash.
            SlotCacheKey(scope: "w", name: "Mira").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "w", name: "mira!").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "w-x", name: "y").fileName(modelID: "m", modelVersion: "1"),
            SlotCacheKey(scope: "w", name: "x-y").fileName(modelID: "m", modelVersion: "1"),
        ]
        #expect(Set(names).count == names.count, "\(names)")
    }

    @Test func copiesNameTheirFileForTheModelTheServerReports() throws {
        var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: "http://127.0.0.1:9/v1", apiKey: nil)
        configuration.version = "v1"
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        #expect(model.cacheFileName == nil, "no key")
        let mira = model.keepingCache(as: SlotCacheKey(scope: "w", name: "mira"))
        #expect(mira.cacheKey == SlotCacheKey(scope: "w", name: "mira"))
        #expect(
            mira.cacheFileName
                == SlotCacheKey(scope: "w", name: "mira").fileName(modelID: "default", modelVersion: "v1"))
        #expect(mira.replying(inAtMost: 1).cacheKey == mira.cacheKey, "a budget copy keeps the key")
        #expect(mira.keepingCache(as: nil).cacheFileName == nil)
    }
}

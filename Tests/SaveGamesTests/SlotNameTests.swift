import Foundation
import SaveGames
import Testing

@Suite struct SlotNameTests {
    @Test(
        "Slot names become safe file names inside the save folder",
        arguments: [
            ("slot1", "slot1"), ("My Save 1", "my-save-1"), ("../../etc/passwd", "etc-passwd"),
            ("/absolute/path", "absolute-path"), ("..", nil), ("", nil), ("  ", nil), ("a\\b:c", "a-b-c"),
            (".hidden", "hidden"), ("Café Noir", "café-noir"), ("Cafe\u{301}", "café"), ("slot\u{0}one", "slot-one"),
            ("__x__", "x"), ("Ärger ☕ 2", "ärger-2"), ("a--b", "a--b"),
            (
                String(repeating: "x", count: 200),
                String(repeating: "x", count: 64)
            ),
        ] as [(String, String?)])
    func sanitize(_ name: String, _ expected: String?) throws {
        #expect(SaveGameStore.sanitizedSlotName(name) == expected)
        let folder = URL(fileURLWithPath: "/saves")
        if let expected {
            let url = try SaveGameStore(folder: folder).slotURL(name)
            #expect(url.path == "/saves/\(expected).parley")
            #expect(url.deletingLastPathComponent().path == "/saves")
        } else {
            let error = try #require(throws: SaveGameError.self) { try SaveGameStore(folder: folder).slotURL(name) }
            #expect(error.code == .invalidSlotName)
            #expect(error.description.contains("Use letters, digits"))
        }
    }

    @Test("Two spellings of one name are one slot")
    func sameSlot() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder)
            _ = try store.open(slot: "Slot One")
            #expect(store.exists(slot: "slot-one"))
            #expect(store.exists(slot: "SLOT ONE"))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".parley") }
                    == ["slot-one.parley"])
        }
    }
}

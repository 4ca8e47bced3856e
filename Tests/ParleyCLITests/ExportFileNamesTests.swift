import Foundation
import Testing

@testable import parley

/// The file names `parley feedback export` gives reports, from ids read out of saves.
@Suite struct ExportFileNamesTests {
    @Test(arguments: [
        ("5E0B3C5A-6A0C-4E8B-9C55-3F1A8B2D7E10", "5E0B3C5A-6A0C-4E8B-9C55-3F1A8B2D7E10"),
        ("plain_report-1", "plain_report-1"),
        ("../../escaped-report", "escaped-report"),
        ("/etc/passwd", "etc-passwd"),
        (#"..\..\windows"#, "windows"),
        ("a/../../b", "a-b"),
        ("..", "report"),
        (".", "report"),
        ("", "report"),
        ("---", "report"),
        (".hidden", "hidden"),
        ("-rf", "rf"),
        ("~/x", "x"),
        ("nul\u{0}byte", "nul-byte"),
        ("\u{1B}[2Jclear", "2Jclear"),
        ("\u{202E}fdp.exe", "fdp-exe"),
        ("été", "t"),
        ("a b  c", "a-b-c"),
        ("x:y*z?", "x-y-z"),
    ])
    func aNameKeepsOnlyLettersDigitsDashesAndUnderscores(_ id: String, _ expected: String) {
        let name = ExportFileNames.baseName(for: id)
        #expect(name == expected)
        #expect(
            name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0))
            })
    }

    @Test func aLongIdIsCut() {
        let name = ExportFileNames.baseName(for: String(repeating: "ab/", count: 100))
        #expect(name.count <= ExportFileNames.maximumLength)
        #expect(!name.hasSuffix("-"))
        #expect(ExportFileNames.baseName(for: String(repeating: "x", count: 500)).count == 64)
    }

    @Test func idsThatMakeTheSameNameGetDistinctNames() {
        let names = ExportFileNames.fileNames(
            for: ["a/b", "a-b", "A-B", "a-b-2", "../a-b", "c"], fileExtension: "json")
        #expect(names == ["a-b.json", "a-b-2.json", "A-B-3.json", "a-b-2-2.json", "a-b-4.json", "c.json"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
        // The same ids in the same order get the same names.
        #expect(
            ExportFileNames.fileNames(for: ["a/b", "a-b", "A-B", "a-b-2", "../a-b", "c"], fileExtension: "json")
                == names)
    }
}

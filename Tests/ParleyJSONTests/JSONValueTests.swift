import Foundation
import Testing

@testable import ParleyJSON

@Suite struct JSONValueTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-12.5e3"#, #"18446744073709551615"#, #""""#,
        #""a\"b\\c\n\u0001é😀""#, #"[]"#, #"{}"#, #"[1,[2,[3]],{"a":null}]"#,
        #"{"zeta":1,"alpha":{"b":[true,false]},"mid":"x"}"#,
    ])
    func roundTripIsByteForByte(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(value.jsonString() == text)
    }

    @Test func keepsMemberOrderAndNumberText() throws {
        let value = try JSONValue(parsing: #"{"b": 1.50, "a": 18446744073709551615}"#)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(value["a"]?.jsonString() == "18446744073709551615")
        #expect(value["b"]?.doubleValue == 1.5)
    }

    @Test func objectsCompareWithoutOrderAndNumbersByValue() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"b":2}"#) == JSONValue(parsing: #"{"b":2.0,"a":1e0}"#))
        #expect(try JSONValue(parsing: #"[1,2]"#) != JSONValue(parsing: #"[2,1]"#))
        #expect(try JSONValue(parsing: "1") != JSONValue(parsing: "\"1\""))
    }

    @Test func unicodeEscapesDecode() throws {
        let value = try JSONValue(parsing: #""\u00e9\ud83d\ude00\/""#)
        #expect(value.stringValue == "é😀/")
    }

    @Test(arguments: [
        ("", "line 1, column 1: the document is empty"),
        ("{\n  \"a\" 1}", "line 2, column 7: expected ':' after the object key \"a\", found '1'"),
        (#"{"a":1,"a":2}"#, #"line 1, column 8: the object has the key "a" twice"#),
        ("[1,]", "line 1, column 4: unexpected ']' where a value should begin"),
        ("[1 2]", "line 1, column 4: expected ',' or ']' after an array element, found '2'"),
        ("01", "line 1, column 1: \"01\" is not a JSON number"),
        ("tru", "line 1, column 4: the document ends where true should follow"),
        ("\"abc", "line 1, column 1: the string that begins here is not closed"),
        ("\"a\u{01}\"", "line 1, column 3: a control character (byte 0x1) inside a string must be escaped"),
        (#""\x""#, #"line 1, column 2: \x is not a JSON escape"#),
        ("{} x", "line 1, column 4: unexpected 'x' after the end of the document"),
        // A comma missing at the end of a line is pointed at there, not at the next line's member.
        (
            "{\n  \"a\": 1\n  \"b\": 2\n}",
            "line 2, column 9: expected ',' or '}' after an object member: a comma is missing here, at the end of the "
                + "line (the next member begins on line 3 with '\"')"
        ),
        (
            "[\n  \"a\",\n  \"b\"  \n\n  \"c\"\n]",
            "line 3, column 6: expected ',' or ']' after an array element: a comma is missing here, at the end of the "
                + "line (the next element begins on line 5 with '\"')"
        ),
        ("{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}' after an object member, found '\"'"),
        // After a byte order mark, which is passed over, columns count from the first character shown.
        ("\u{FEFF}[1 2]", "line 1, column 4: expected ',' or ']' after an array element, found '2'"),
    ])
    func syntaxErrorsNameLineColumnAndProblem(_ text: String, _ expected: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func aByteOrderMarkAtTheStartIsPassedOver() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": [1]}"#.utf8)
        #expect(try JSONValue(parsing: bytes) == ["a": [1]])
        #expect(try JSONValue(parsing: "\u{FEFF}\n true") == .bool(true))
        // Only at the start: elsewhere it is an error, as any stray byte.
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "[1, \u{FEFF}2]") }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func duplicateKeysCanBeAllowed() throws {
        let options = JSONValue.ParsingOptions(rejectsDuplicateKeys: false)
        let (value, _) = try JSONValue.parse(Array(#"{"a":1,"a":2}"#.utf8), options: options)
        #expect(value["a"]?.intValue == 2)
    }

    @Test func prettyPrintingAndSortedKeys() throws {
        let value: JSONValue = ["b": [1, 2], "a": [:]]
        #expect(
            value.jsonString([.prettyPrinted, .sortedKeys]) == "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2\n  ]\n}")
    }

    @Test func codableBridgeThroughFoundation() throws {
        let value = try JSONValue(parsing: #"{"n":[1,2.5,"x",null,true],"big":9007199254740993,"o":{"k":-3}}"#)
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
        #expect(decoded["big"]?.jsonString() == "9007199254740993")
    }

    @Test(arguments: [(Double(3), "3"), (0.1, "0.1"), (-2.5, "-2.5"), (1e20, "1e+20")])
    func doublesWriteShortestText(_ value: Double, _ text: String) throws {
        #expect(JSONValue.double(value).jsonString() == text)
        #expect(try JSONValue(parsing: text).doubleValue == value)
    }
}

@Suite struct IncompleteJSONTests {
    func partial(_ text: String) throws -> (JSONValue, Bool) {
        let result = try JSONValue.parse(Array(text.utf8), options: .init(allowsIncompleteDocument: true))
        return (result.value, result.isComplete)
    }

    @Test(arguments: [
        (#"{"name": "Mi"#, #"{"name":"Mi"}"#),
        (#"{"name": "Mira", "ag"#, #"{"name":"Mira"}"#),
        (#"{"name": "Mira", "age":"#, #"{"name":"Mira"}"#),
        (#"{"name": "Mira", "age": 4"#, #"{"name":"Mira","age":4}"#),
        (#"{"items": [1, 2, tr"#, #"{"items":[1,2]}"#),
        (#"{"price": 12."#, #"{"price":12}"#),
        (#"["a\"#, #"["a"]"#),
        (#"["\u00"#, #"[""]"#),
        (#"{"a": {"b": [{"c": "d"#, #"{"a":{"b":[{"c":"d"}]}}"#),
        (#"[-"#, #"[]"#),
    ])
    func incompleteDocumentsCloseWhereTheyEnd(_ text: String, _ expected: String) throws {
        let (value, complete) = try partial(text)
        #expect(value.jsonString() == expected)
        #expect(!complete)
    }

    @Test func aCompleteDocumentSaysSo() throws {
        let (value, complete) = try partial(#"{"a": [1]}"#)
        #expect(complete)
        #expect(value == ["a": [1]])
    }

    @Test func everyPrefixOfADocumentParses() throws {
        let text = #"{"name": "Élodie 😀", "tags": ["a", "b\n"], "price": -12.5e2, "ok": true, "none": null}"#
        let bytes = Array(text.utf8)
        for end in 1..<bytes.count {
            let result = try JSONValue.parse(bytes[0..<end], options: .init(allowsIncompleteDocument: true))
            #expect(!result.isComplete, "prefix of \(end) bytes")
        }
        let whole = try JSONValue.parse(bytes, options: .init(allowsIncompleteDocument: true))
        #expect(whole.isComplete)
    }

    @Test func aBrokenDocumentIsStillAnError() {
        #expect(throws: JSONParseError.self) { try partial(#"{"a": x"#) }
    }
}

@Suite struct JSONFuzzTests {
    /// Feeds thousands of mutated and truncated documents to the parser: it must return or throw, never crash.
    @Test func mutatedDocumentsNeverCrash() {
        let seeds = [
            #"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[{"id":"a","role":"user","contents":[{"type":"text","id":"b","text":"hi \u00e9"}]}]}}"#,
            #"[1, -2.5e10, "x\n", null, true, {"k": [[], {}]}]"#,
        ]
        var generator = SplitMix64(seed: 42)
        let alphabet = Array(#"{}[]",:0123456789-+.eE\"u tnrfalsx"#.utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        var parsed = 0
        for iteration in 0..<5_000 {
            var bytes = Array(seeds[iteration % seeds.count].utf8)
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 3 {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            for partial in [false, true] {
                if (try? JSONValue.parse(bytes, options: .init(allowsIncompleteDocument: partial))) != nil {
                    parsed += 1
                }
            }
        }
        #expect(parsed > 0)
    }
}

/// A small seedable generator, so the fuzz loop is the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

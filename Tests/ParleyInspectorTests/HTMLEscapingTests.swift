import Testing

@testable import ParleyInspector

/// Every text from a save or a model reaches a page through one escaping function.
@Suite struct InspectorHTMLEscapingTests {
    @Test(arguments: [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("Tom & Jerry", "Tom &amp; Jerry"),
        ("\"quoted\" and 'single'", "&quot;quoted&quot; and &#39;single&#39;"),
        ("&amp;", "&amp;amp;"),
        ("plain text, ünïcödé ✓", "plain text, ünïcödé ✓"),
        ("", ""),
    ])
    func escapesTheFiveSpecialCharacters(_ text: String, _ escaped: String) {
        #expect(HTML.escape(text) == escaped)
    }

    @Test func interpolatedStringsAreEscapedAndFragmentsAreNot() {
        let line = "<img src=x onerror=alert(1)>"
        let inner: HTML = "<em>\(line)</em>"
        let outer: HTML = "<p title=\"\(line)\">\(inner)</p>"
        #expect(
            outer.markup
                == "<p title=\"&lt;img src=x onerror=alert(1)&gt;\"><em>&lt;img src=x onerror=alert(1)&gt;</em></p>")
        #expect(!outer.markup.contains("<img"))
    }
}

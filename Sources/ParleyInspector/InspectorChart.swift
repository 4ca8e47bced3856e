import Foundation
import ParleyBasics

/// The chart of a conversation, as inline SVG: the prompt tokens of each turn against the context window, the turns
/// where the working transcript was trimmed, and the time to the first words of each turn, when recorded.
///
/// It is drawn on the server, so it shows without JavaScript; each point and mark has a `<title>` (a tooltip, and
/// what a screen reader says), and a sentence under the chart says what it shows.
enum InspectorChart {
    static let width = 720.0
    static let height = 240.0
    static let left = 56.0
    static let right = 56.0
    static let top = 16.0
    static let bottom = 36.0

    /// The chart of the conversation's turns (those of one page, numbered as in the whole conversation), or a
    /// sentence saying why there is none.
    static func svg(for conversation: InspectedConversation) -> HTML {
        let turns = conversation.turns
        let firstNumber = turns.first?.number ?? 1
        let points = turns.compactMap { turn in turn.promptTokensPerRequest.map { (turn.number, Double(max($0, 0))) } }
        guard !points.isEmpty else {
            return
                "<p class=\"chart-missing\">No turn of this conversation recorded its token counts, so there is no chart.</p>"
        }
        let window = Double(max(conversation.contextSize ?? 0, 0))
        let most = max(points.map(\.1).max() ?? 1, 1)
        // A window far above every turn would flatten the line at the bottom: then it is said, not drawn.
        let drawsWindow = window > 0 && window <= most * 3
        let highest = drawsWindow ? max(window, most) : most * 1.15
        let count = max(turns.count, 1)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func x(_ number: Int) -> Double {
            count == 1 ? left + plotWidth / 2 : left + plotWidth * Double(number - firstNumber) / Double(count - 1)
        }
        func y(_ tokens: Double) -> Double { top + plotHeight * (1 - tokens / highest) }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var parts: [HTML] = []
        // Axes and the context window.
        parts.append(
            """
            <line class="axis" x1="\(f(left))" y1="\(f(top + plotHeight))" x2="\(f(left + plotWidth))" y2="\(f(top + plotHeight))"/>
            <line class="axis" x1="\(f(left))" y1="\(f(top))" x2="\(f(left))" y2="\(f(top + plotHeight))"/>
            <text class="label" x="\(f(left - 6))" y="\(f(top + plotHeight))" text-anchor="end">0</text>
            <text class="label" x="\(f(left - 6))" y="\(f(top + 10))" text-anchor="end">\(Int(saturating: highest))</text>
            <text class="label" x="\(f(left))" y="\(f(height - 8))">turn \(firstNumber)</text>
            <text class="label" x="\(f(left + plotWidth))" y="\(f(height - 8))" text-anchor="end">turn \(firstNumber + count - 1)</text>
            """)
        if drawsWindow {
            parts.append(
                """
                <line class="window" x1="\(f(left))" y1="\(f(y(window)))" x2="\(f(left + plotWidth))" y2="\(f(y(window)))">\
                <title>Context window: \(Int(saturating: window)) tokens</title></line>
                """)
        }
        // Trims: a vertical mark at each turn that trimmed.
        let trims = turns.filter { $0.recording?.trim != nil }
        for turn in trims {
            let trim = turn.recording?.trim
            parts.append(
                """
                <line class="trim-mark" data-turn="\(turn.number)" x1="\(f(x(turn.number)))" y1="\(f(top))" \
                x2="\(f(x(turn.number)))" y2="\(f(top + plotHeight))"><title>Turn \(turn.number): context trimmed\
                \(trim.map { $0.count > 1 ? " \($0.count) times" : "" } ?? "")</title></line>
                """)
        }
        // Prompt tokens per turn.
        let line = points.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
        parts.append("<polyline class=\"tokens\" points=\"\(line)\"/>")
        if points.count <= 200 {
            for (number, tokens) in points {
                parts.append(
                    """
                    <circle class="token-point" cx="\(f(x(number)))" cy="\(f(y(tokens)))" r="2.5">\
                    <title>Turn \(number): \(Int(saturating: tokens)) prompt tokens a request</title></circle>
                    """)
            }
        }
        // Time to first words, on its own scale (right axis).
        let firstWords = turns.compactMap { turn in
            turn.recording?.firstWordsMilliseconds.flatMap { $0.isFinite && $0 >= 0 ? (turn.number, $0) : nil }
        }
        var legendFirstWords: HTML = ""
        if !firstWords.isEmpty {
            let slowest = max(firstWords.map(\.1).max() ?? 1, 1)
            func yTime(_ ms: Double) -> Double { top + plotHeight * (1 - ms / slowest) }
            let timeLine = firstWords.map { "\(f(x($0.0))),\(f(yTime($0.1)))" }.joined(separator: " ")
            parts.append(
                """
                <polyline class="first-words" points="\(timeLine)"><title>Time to first words per turn</title></polyline>
                <line class="axis" x1="\(f(left + plotWidth))" y1="\(f(top))" x2="\(f(left + plotWidth))" y2="\(f(top + plotHeight))"/>
                <text class="label" x="\(f(left + plotWidth + 6))" y="\(f(top + 10))">\(Int(saturating: slowest.rounded())) ms</text>
                <text class="label" x="\(f(left + plotWidth + 6))" y="\(f(top + plotHeight))">0 ms</text>
                """)
            legendFirstWords = "<li class=\"first-words\">time to first words (right axis)</li>"
        }
        let trimNumbers = trims.map { String($0.number) }.joined(separator: ", ")
        let summary =
            "Prompt tokens a request (the turn's count over its requests) of \(points.count) turns"
            + (window > 0 ? " against a context window of \(Int(saturating: window)) tokens" : "")
            + (window > 0 && !drawsWindow ? " (far above the turns, so not drawn)" : "")
            + (trims.isEmpty
                ? "; the context was never trimmed."
                : "; the context was trimmed at turn\(trims.count == 1 ? "" : "s") \(trimNumbers).")
        return """
            <figure class="chart">
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(saturating: width)) \(Int(saturating: height))" role="img" \
            aria-labelledby="chart-title chart-summary" class="token-chart">
            <title id="chart-title">Prompt tokens a request, per turn</title>
            \(parts)
            </svg>
            <figcaption id="chart-summary">\(summary)
            <ul class="legend"><li class="tokens">prompt tokens a request</li>\(drawsWindow ? HTML("<li class=\"window\">context window</li>") : "")\
            <li class="trim-mark">context trimmed</li>\(legendFirstWords)</ul></figcaption>
            </figure>
            """
    }
}

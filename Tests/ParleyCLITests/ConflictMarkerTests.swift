import Foundation
import Testing

/// No file a newcomer reads or the build uses keeps a merge's conflict markers: the README once did (a `<<<<<<< HEAD`
/// block in its play section, shipped for a session). Every text file under the package's own folders is read.
@Suite struct ConflictMarkerTests {
    /// The folders and files checked, relative to the package root.
    static let places = [
        "README.md", "BENCHMARKS.md", "Package.swift", "docs", "Sources", "Tests", "Content", "Examples", "scripts",
    ]
    /// File endings read as text.
    static let textEndings: Set<String> = ["md", "swift", "json", "jsonl", "gd", "js", "html", "css", "toml", "txt", ""]

    @Test func noFileHoldsAMergesConflictMarkers() throws {
        let root = ParleyBinary.packageRoot
        let manager = FileManager.default
        var files: [URL] = []
        for place in Self.places {
            let url = root.appendingPathComponent(place)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                files.append(url)
                continue
            }
            let walker = manager.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
            while let file = walker?.nextObject() as? URL {
                if Self.textEndings.contains(file.pathExtension),
                    (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                {
                    files.append(file)
                }
            }
        }
        #expect(files.count > 100, "the walk found the package's files")
        var marked: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.hasPrefix("<<<<<<< ") || line.hasPrefix(">>>>>>> ")
                || (line == "=======" && Self.isMarkdownOrCode(file))
            {
                marked.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")):\(number + 1)")
            }
        }
        #expect(marked.isEmpty, "conflict markers at \(marked)")
    }

    /// Whether a lone `=======` line would be a conflict marker there (in Markdown it may underline a heading, but
    /// Parley's docs use `#` headings).
    static func isMarkdownOrCode(_ file: URL) -> Bool { file.pathExtension != "txt" }
}

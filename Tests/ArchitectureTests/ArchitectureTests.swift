import Foundation
import Testing

/// docs/ARCHITECTURE.md's "Modules as built" table is true: every module of Package.swift has a row, each row's
/// "Depends on" is the set of dependencies Package.swift declares for it, and each module imports no Parley module
/// it does not declare.
///
/// The rule of the "Depends on" column (also written under the table): entries are separated by commas or
/// semicolons, `—` is none; an entry whose first word is a target of Package.swift is a dependency, and any other
/// entry (a system library such as libsqlite3, "the toolchain's SwiftSyntax") is a note and is not checked. A row's
/// first column names its module first; a target named after it in backticks, as "(+ `CSQLite`)", is covered by the
/// row too.
@Suite struct ArchitectureTests {
    /// The package's root: this file is `Tests/ArchitectureTests/ArchitectureTests.swift` in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyModuleHasARowAndEveryRowAModule() throws {
        let package = try PackageManifest(text: Self.read("Package.swift"))
        let table = try ModuleTable(markdown: Self.read("docs/ARCHITECTURE.md"))
        let modules = Set(package.targets.filter { $0.kind != "testTarget" }.map(\.name))
        #expect(package.targets.count > 30, "Package.swift was not read: \(package.targets.map(\.name))")
        for row in table.rows {
            let exists = modules.contains(row.module)
            #expect(exists, "the table's `\(row.module)` is not a module of Package.swift")
        }
        let covered = Set(table.rows.flatMap { [$0.module] + $0.alsoCovers })
        for module in modules.sorted() {
            let hasRow = covered.contains(module)
            #expect(hasRow, "Package.swift's `\(module)` has no row in the table")
        }
    }

    @Test func eachRowDependsOnWhatPackageSwiftDeclares() throws {
        let package = try PackageManifest(text: Self.read("Package.swift"))
        let table = try ModuleTable(markdown: Self.read("docs/ARCHITECTURE.md"))
        let names = Set(package.targets.map(\.name))
        for row in table.rows {
            guard let target = package.target(row.module) else { continue }
            let documented = row.dependencies(among: names)
            let same = documented == Set(target.dependencies)
            #expect(
                same,
                """
                `\(row.module)`: the table says \(documented.sorted()), Package.swift declares \
                \(target.dependencies.sorted()); missing from the table: \
                \(Set(target.dependencies).subtracting(documented).sorted()), not declared: \
                \(documented.subtracting(target.dependencies).sorted())
                """)
        }
    }

    @Test func eachModuleImportsOnlyWhatItDeclares() throws {
        let package = try PackageManifest(text: Self.read("Package.swift"))
        let names = Set(package.targets.map(\.name))
        var checked = 0
        for target in package.targets where target.kind != "testTarget" && target.kind != "systemLibrary" {
            let directory = Self.root.appendingPathComponent(target.path ?? "Sources/\(target.name)")
            let files = try Self.swiftFiles(in: directory)
            #expect(!files.isEmpty, "`\(target.name)` has no Swift files in \(target.path ?? "Sources/\(target.name)")")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for imported in Self.imports(in: text) where names.contains(imported) && imported != target.name {
                    checked += 1
                    let declared = target.dependencies.contains(imported)
                    #expect(
                        declared,
                        "\(file.lastPathComponent) in `\(target.name)` imports \(imported), which it does not declare")
                }
            }
        }
        #expect(checked > 100, "too few imports were read: \(checked)")
    }

    @Test func theCheckNoticesADependencyTheTableLeavesOut() throws {
        let package = try PackageManifest(text: Self.read("Package.swift"))
        let table = try ModuleTable(
            markdown: """
                ### Modules as built

                | Module | Depends on | What it is |
                |---|---|---|
                | `ParleySQLite` (+ `CSQLite`) | libsqlite3 | The SQLite layer. |
                """)
        let row = try #require(table.rows.first)
        #expect(row.module == "ParleySQLite" && row.alsoCovers == ["CSQLite"])
        let declared = Set(try #require(package.target("ParleySQLite")).dependencies)
        #expect(row.dependencies(among: Set(package.targets.map(\.name))) != declared)
        #expect(declared.contains("CSQLite"))
    }

    @Test func importsAreReadInEveryForm() {
        let text = """
            import Foundation
            @testable import ParleyEngine
            internal import CSQLite
            package import ParleyJSON
            @preconcurrency import Dispatch
            import struct GameWorld.NPC
            // import NotThis
            let x = "import NorThis"
            """
        #expect(
            Self.imports(in: text) == ["Foundation", "ParleyEngine", "CSQLite", "ParleyJSON", "Dispatch", "GameWorld"])
    }

    // MARK: - Reading

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func swiftFiles(in directory: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The modules a Swift file imports, in order, in any form (`@testable`, an access level, one declaration).
    static func imports(in text: String) -> [String] {
        let pattern = #/
            ^ \s* (?: @\w+ \s+ )*                                          # @testable, @preconcurrency
            (?: (?: public | package | internal | fileprivate | private ) \s+ )?
            import \s+
            (?: (?: struct | class | enum | protocol | typealias | func | var | let | actor ) \s+ )?
            ( [A-Za-z_] [A-Za-z0-9_]* )
            /#
        return text.split(separator: "\n").compactMap { line in
            (try? pattern.prefixMatch(in: line)).map { String($0.output.1) }
        }
    }
}

/// The targets of Package.swift as its text declares them: `.target(`, `.executableTarget(`, `.testTarget(`,
/// `.systemLibrary(` and `.macro(` calls with a `name:`, an optional `path:` and `dependencies:` of string literals,
/// which may be followed by `+ constant`, a `let constant: [Target.Dependency] = ...` of the manifest whose string
/// literals count as dependencies (the macro plugin, declared where the toolchain has it).
struct PackageManifest {
    struct Target {
        var kind: String
        var name: String
        var path: String?
        var dependencies: [String]
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    var targets: [Target] = []

    func target(_ name: String) -> Target? { targets.first { $0.name == name } }

    init(text: String) throws {
        let calls = #/\.(target|executableTarget|testTarget|systemLibrary|macro)\(/#
        for match in text.matches(of: calls) {
            let body = try Self.balanced(text[...], from: match.range.upperBound, open: "(", close: ")")
            guard let name = body.firstMatch(of: #/name:\s*"([^"]+)"/#)?.output.1 else {
                throw Unreadable(description: "a .\(match.output.1)( without a name: \(body.prefix(80))")
            }
            let path = body.firstMatch(of: #/path:\s*"([^"]+)"/#).map { String($0.output.1) }
            var dependencies: [String] = []
            if let list = body.range(of: "dependencies: [") {
                let inside = try Self.balanced(body, from: list.upperBound, open: "[", close: "]")
                dependencies = try Self.strings(in: inside, of: String(name))
                let after = body[inside.endIndex...].dropFirst()
                if let plus = after.prefixMatch(of: #/\s*\+\s*([A-Za-z_]\w*)/#) {
                    let constant = String(plus.output.1)
                    let declaration = "let \(constant): [Target.Dependency] ="
                    guard let line = text.split(separator: "\n").first(where: { $0.contains(declaration) }) else {
                        throw Unreadable(description: "`\(name)` adds `\(constant)`, which is not declared")
                    }
                    dependencies += line.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
                }
            }
            targets.append(
                Target(kind: String(match.output.1), name: String(name), path: path, dependencies: dependencies))
        }
    }

    /// The text from `start` to the bracket that closes the one before it, string literals skipped.
    static func balanced(_ text: Substring, from start: String.Index, open: Character, close: Character) throws
        -> Substring
    {
        var depth = 1
        var inString = false
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == open {
                depth += 1
            } else if character == close {
                depth -= 1
                if depth == 0 { return text[start..<index] }
            }
            index = text.index(after: index)
        }
        throw Unreadable(description: "an unclosed \(open)")
    }

    /// The string literals of a dependency list, which must hold nothing else (a `.product(...)` would not be read).
    static func strings(in list: Substring, of target: String) throws -> [String] {
        let literals = list.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
        let rest = list.replacing(#/"[^"]*"/#, with: "").replacing(#/[\s,]/#, with: "")
        guard rest.isEmpty else {
            throw Unreadable(description: "`\(target)`'s dependencies hold more than names: \(rest)")
        }
        return literals
    }
}

/// The "Modules as built" table of docs/ARCHITECTURE.md.
struct ModuleTable {
    struct Row {
        /// The module: the first name in backticks in the first column.
        var module: String
        /// The other names in backticks in the first column (a system library the module wraps, a product name).
        var alsoCovers: [String]
        /// The "Depends on" column's entries.
        var entries: [String]
        /// The "What it is" column.
        var reason: String

        /// The entries that are dependencies: those whose first word is one of `targets`.
        func dependencies(among targets: Set<String>) -> Set<String> {
            Set(
                entries.compactMap { entry in
                    let word = String(entry.split(separator: " ").first ?? "").replacingOccurrences(of: "`", with: "")
                    return targets.contains(word) ? word : nil
                })
        }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    var rows: [Row] = []

    init(markdown: String) throws {
        guard let heading = markdown.range(of: "### Modules as built") else {
            throw Unreadable(description: "no \"### Modules as built\" heading")
        }
        let lines = markdown[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("|") }
            .prefix { $0.hasPrefix("|") }
        for line in lines.dropFirst(2) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3 else { throw Unreadable(description: "a row of fewer than 3 columns: \(line)") }
            let names = cells[0].matches(of: #/`([^`]+)`/#).map { String($0.output.1) }
            guard let module = names.first else { throw Unreadable(description: "a row without a module: \(line)") }
            let entries =
                cells[1] == "—"
                ? []
                : cells[1].split(whereSeparator: { $0 == "," || $0 == ";" }).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            rows.append(
                Row(
                    module: module, alsoCovers: Array(names.dropFirst()), entries: entries,
                    reason: cells[2...].joined(separator: "|")))
        }
        guard !rows.isEmpty else { throw Unreadable(description: "the table has no rows") }
    }
}

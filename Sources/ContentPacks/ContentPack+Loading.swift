import Foundation
import GameWorld

// MARK: - Loading

extension ContentPack {
    /// Loads a pack from a directory, reporting every problem at once.
    ///
    /// Reads `world.json`, `items.json`, `lexicon.json` and `actions.json` (when there are) and `npcs/*.json`; `schema/` and files that are not JSON are ignored.
    /// Nothing is thrown: a missing directory or file is a diagnostic like any other. Only plain files are read
    /// (`ContentFile`): a FIFO, a device, a socket or a symbolic link loop where a file is expected is an error
    /// naming what it is, and an `npcs/` folder that cannot be listed is an error, not an empty folder.
    ///
    /// - Parameters:
    ///   - directory: The pack's directory.
    ///   - displayPath: How diagnostics name the directory, as the user typed it (`Content`); by default the
    ///     URL's relative path.
    /// - Returns: The pack if it has no errors, and every diagnostic.
    public static func load(from directory: URL, displayPath: String? = nil) -> ContentLoadResult {
        let display = ContentLoader.normalizedDisplayPath(displayPath ?? directory.relativePath)
        let topLevel: [String]
        do {
            topLevel = try ContentFile.entries(of: directory)
        } catch {
            let notFound = error.code == .notFound
            let diagnostic = ContentDiagnostic(
                .error, file: display.isEmpty ? "." : display, path: "$",
                message: notFound ? "no such directory" : error.problem,
                hint: notFound ? "pass the folder that holds world.json, items.json and npcs/" : error.hint)
            return ContentLoadResult(
                pack: nil, diagnostics: [diagnostic], counts: ContentCounts(), displayPath: display)
        }
        var files: [String: [UInt8]] = [:]
        var unreadable: [String: ContentFileError] = [:]
        func read(_ relative: String) {
            do {
                files[relative] = try ContentFile.read(at: directory.appendingPathComponent(relative))
            } catch {
                unreadable[relative] = error
            }
        }
        let loaded: Set = [worldFileName, itemsFileName, lexiconFileName, actionsFileName]
        for name in topLevel where name.hasSuffix(".json") {
            // Other JSON files are only warned about, never read: their bytes are not needed.
            if loaded.contains(name) { read(name) } else { files[name] = [] }
        }
        // A world.json or items.json that is a dangling link is listed, and reported by `read` as such.
        let npcsURL = directory.appendingPathComponent(npcsDirectoryName)
        if ContentFile.exists(at: npcsURL) {
            do {
                for name in try ContentFile.entries(of: npcsURL) where name.hasSuffix(".json") {
                    read(npcsDirectoryName + "/" + name)
                }
            } catch {
                unreadable[npcsDirectoryName] = error
            }
        }
        var loader = ContentLoader(displayPath: display)
        return loader.load(files, unreadable: unreadable)
    }

    /// Loads a pack from files held in memory, reporting every problem at once.
    ///
    /// - Parameters:
    ///   - files: Each file's text by its path inside the pack: `world.json`, `items.json`, `npcs/mira.json`.
    ///   - displayPath: How diagnostics name the pack's directory, `Content` by default.
    /// - Returns: The pack if it has no errors, and every diagnostic.
    public static func load(files: [String: String], displayPath: String = "Content") -> ContentLoadResult {
        load(fileData: files.mapValues { Array($0.utf8) }, displayPath: displayPath)
    }

    /// Loads a pack from files held in memory as UTF-8 bytes; see `load(files:displayPath:)`.
    ///
    /// - Parameters:
    ///   - fileData: Each file's bytes by its path inside the pack.
    ///   - displayPath: How diagnostics name the pack's directory.
    /// - Returns: The pack if it has no errors, and every diagnostic.
    public static func load(fileData: [String: [UInt8]], displayPath: String = "Content") -> ContentLoadResult {
        var loader = ContentLoader(displayPath: ContentLoader.normalizedDisplayPath(displayPath))
        return loader.load(fileData)
    }
}

import Foundation
import ParleySQLite

extension SaveGameStore {
    /// The slots a game's autosaves use, by the name they are based on: `base` itself, then `base-2`, `base-3`, …
    ///
    /// A game saves itself after every turn, and never over a save it did not make: a new game whose autosave slot
    /// holds another game (or a damaged file) saves itself to the first free slot of the family instead, and
    /// `parley play --continue` continues the most recent of them.
    ///
    /// - Parameter base: The autosave slot's name, for example `autosave`.
    /// - Returns: The family's slots that have a file, most recently saved first (by their metadata, or the file's
    ///   modification time when it cannot be read). The metadata is read without the inspection ``list()`` runs;
    ///   loading a slot checks it.
    public func autosaveSlots(base: String) -> [SaveSlotSummary] {
        guard let base = Self.sanitizedSlotName(base) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let slots = names.compactMap { name -> String? in
            guard name.hasSuffix(".\(Self.fileExtension)") else { return nil }
            let slot = String(name.dropLast(Self.fileExtension.count + 1))
            return Self.autosaveNumber(of: slot, base: base) != nil ? slot : nil
        }
        var index = SaveListingIndex.read(in: folder)
        let summaries = slots.map { indexedSummary(slot: $0, index: &index, read: metadataSummary(slot:)) }
        index.writeIfChanged(in: folder)
        return summaries.sorted { first, second in
            let a = first.metadata?.updatedAt ?? Self.modificationDate(first.url)
            let b = second.metadata?.updatedAt ?? Self.modificationDate(second.url)
            return a != b ? a > b : first.slot < second.slot
        }
    }

    /// Deletes the autosaves beyond the newest `keeping`, oldest first, for `--keep-autosaves N`.
    ///
    /// Only saves of the family (``autosaveSlots(base:)``) whose metadata could be read are counted and deleted, most
    /// recently saved first by that metadata: the newest `keeping` are kept, and so is every slot in `sparing` (one a
    /// game plays) whatever its age. A file that could not be read is neither counted nor deleted (it may hold a game
    /// worth rescuing; `parley saves show` says what is wrong with it). Other slots are never touched. A slot that
    /// cannot be deleted is left as it was.
    ///
    /// - Parameters:
    ///   - base: The autosave slot's name, for example `autosave`.
    ///   - keeping: How many autosaves to keep (at least one is).
    ///   - sparing: The slots games play, which are kept whatever their age.
    /// - Returns: The slots deleted, oldest first.
    @discardableResult
    public func pruneAutosaves(base: String, keeping: Int, sparing: Set<String>) -> [String] {
        let spared = Set(sparing.compactMap(Self.sanitizedSlotName))
        let saved = autosaveSlots(base: base).filter { $0.metadata != nil && $0.error == nil }
        let doomed = saved.dropFirst(max(1, keeping)).map(\.slot).filter { !spared.contains($0) }
        var deleted: [String] = []
        for slot in doomed.reversed() {
            do {
                try delete(slot: slot)
                deleted.append(slot)
            } catch {
                continue
            }
        }
        return deleted
    }

    /// The first slot of the autosave family that holds nothing: no file, or a file with no game in it (an SQLite
    /// file with no tables, as a game killed before its first save leaves).
    ///
    /// - Parameter base: The autosave slot's name, for example `autosave`.
    /// - Returns: `base` when it is free, else the first free `base-N`.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/invalidSlotName`` when `base` has nothing usable.
    public func freeAutosaveSlot(base: String) throws -> String {
        guard let base = Self.sanitizedSlotName(base) else {
            throw SaveGameError(.invalidSlotName, detail: "\"\(base)\" has no letter or digit to make a file name from")
        }
        // A slot the listing index knows holds a game is taken: it is not opened to be sure.
        let index = SaveListingIndex.read(in: folder)
        for number in 1... {
            let slot = number == 1 ? base : "\(base)-\(number)"
            if let url = try? slotURL(slot), index.entry(slot, fingerprint: SaveFingerprint(of: url))?.metadata != nil {
                continue
            }
            if isFree(slot) { return slot }
        }
        preconditionFailure("unreachable: the loop above returns")
    }

    /// A slot with its metadata, read without the inspection ``list()`` runs: enough to tell which save is the most
    /// recent; loading it checks it.
    func metadataSummary(slot: String) -> SaveSlotSummary {
        let url = folder.appendingPathComponent(slot).appendingPathExtension(Self.fileExtension)
        do {
            try checkPlainFiles(url)
            let db = try Database(path: url.path, options: Self.readOptions(for: url))
            return SaveSlotSummary(slot: slot, url: url, metadata: try SaveFile.readMetadata(db, path: url.path), error: nil)
        } catch {
            return SaveSlotSummary(slot: slot, url: url, metadata: nil, error: SaveGameError.wrapping(error, path: url.path))
        }
    }

    /// Whether a slot holds nothing that could be lost by writing a new game into it: it has no file (and no `-wal`
    /// or `-shm` file), or its file is an SQLite database with no tables. Nothing is changed by asking.
    ///
    /// - Parameter slot: The slot's name.
    /// - Returns: `true` when a new game may be written there.
    public func isFree(_ slot: String) -> Bool {
        guard let url = try? slotURL(slot) else { return false }
        switch Self.fileType(url.path) {
        case .missing:
            return Self.sideFileSuffixes.allSatisfy { Self.fileType(url.path + $0) == .missing }
        case .regular:
            // An empty file, or an SQLite database with no tables; no need to check every page to tell.
            guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
                return false
            }
            if size == 0 { return true }
            guard SaveInspector.hasSQLiteHeader(url),
                let db = try? Database(path: url.path, options: Self.readOptions(for: url))
            else { return false }
            return (try? db.tableNames().isEmpty) == true
        default:
            return false
        }
    }

    /// The number of a slot in an autosave family: 1 for `base`, N for `base-N` (N ≥ 2), `nil` for other slots.
    static func autosaveNumber(of slot: String, base: String) -> Int? {
        if slot == base { return 1 }
        guard slot.hasPrefix(base + "-"), let number = Int(slot.dropFirst(base.count + 1)), number >= 2,
            String(number) == slot.dropFirst(base.count + 1)
        else { return nil }
        return number
    }

    /// When a file was last modified; the distant past when unknown.
    static func modificationDate(_ url: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }
}

extension SaveGameStore {
    /// Whether a slot belongs to an autosave family: it is `base` or `base-N` (N ≥ 2), once both are sanitized.
    ///
    /// - Parameters:
    ///   - slot: A slot name.
    ///   - base: The autosave slot's name, for example `autosave`.
    /// - Returns: `true` for `autosave`, `autosave-2`, …; `false` for other slots.
    public static func isAutosave(_ slot: String, base: String) -> Bool {
        guard let slot = sanitizedSlotName(slot), let base = sanitizedSlotName(base) else { return false }
        return autosaveNumber(of: slot, base: base) != nil
    }
}

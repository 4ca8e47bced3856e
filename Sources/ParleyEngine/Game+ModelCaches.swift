import LanguageModels

// Model caches that travel with the save: the game asks the NPCs' models to write their servers' KV caches when it
// saves or closes (see `ModelCacheKeeping`), so that a continued game's first turn restores them.

extension Game {
    /// Asks the model of every NPC the player talked to that keeps caches outside the process (`ModelCacheKeeping`)
    /// to write what changed: `GameHost` calls it when the game saves and when it closes.
    ///
    /// Never fails visibly and changes nothing in the game: a cache that is not written costs speed later, never
    /// correctness. Models that share a server (copies of one backend) write each cache once.
    public func saveModelCaches() async {
        let keepers = conversations.keys.sorted { $0.rawValue < $1.rawValue }.compactMap {
            conversations[$0]?.session.model as? any ModelCacheKeeping
        }
        for keeper in keepers { await keeper.saveCaches() }
    }
}

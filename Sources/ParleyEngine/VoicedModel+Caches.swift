extension VoicedModel: ModelCacheKeeping {
    /// Writes the caches of the voice and the planner, for those that keep caches outside the process.
    public func saveCaches() async {
        await (voice as? any ModelCacheKeeping)?.saveCaches()
        await (planner as? any ModelCacheKeeping)?.saveCaches()
    }
}

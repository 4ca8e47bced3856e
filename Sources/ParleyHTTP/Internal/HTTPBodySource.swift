import Synchronization

/// The body of one streamed response, shared by the response's copies and its iterator.
///
/// Holds the client, so the engine thread outlives every body still being read. When the last reference goes
/// (response dropped, iteration abandoned), `deinit` cancels the transfer if it still runs: this is the
/// `onTermination` of the body stream.
final class HTTPBodySource: Sendable {
    let channel: TransferChannel
    private let client: HTTPClient
    private let claimed = Atomic<Bool>(false)

    init(channel: TransferChannel, client: HTTPClient) {
        self.channel = channel
        self.client = client
    }

    deinit {
        channel.cancel()
    }

    /// Marks the body as being read; `false` when it already was, since a body can be read only once.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// The bytes a connection has received and not yet parsed: appended at the end, consumed from the front.
///
/// Consuming moves an offset; the storage is compacted once the consumed part is the larger half, so that
/// parsing a stream of pipelined requests stays linear.
struct InputBuffer {
    private var storage: [UInt8] = []
    private var start = 0

    /// The number of unconsumed bytes.
    var count: Int { storage.count - start }

    /// Whether every received byte was consumed.
    var isEmpty: Bool { count == 0 }

    /// The unconsumed byte at `offset` from the front.
    subscript(offset: Int) -> UInt8 { storage[start + offset] }

    /// The unconsumed bytes in `range`, offsets from the front.
    subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        storage[(start + range.lowerBound)..<(start + range.upperBound)]
    }

    /// The offset of the first `byte` at or after `offset`, or `nil`.
    func firstIndex(of byte: UInt8, from offset: Int = 0) -> Int? {
        guard offset < count else { return nil }
        return storage[(start + offset)...].firstIndex(of: byte).map { $0 - start }
    }

    /// Appends received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// Appends bytes.
    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    /// Drops `length` bytes from the front.
    mutating func consume(_ length: Int) {
        start += min(length, count)
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 && start > storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// Takes `length` bytes from the front.
    mutating func take(_ length: Int) -> ArraySlice<UInt8> {
        let taken = self[0..<min(length, count)]
        consume(length)
        return taken
    }
}

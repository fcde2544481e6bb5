import Dispatch
import NearbyDecode
import Synchronization

/// A capture decoded as it is read: an asynchronous sequence of owned values in file order,
/// in memory bounded by ``bufferLimit``, however long the capture (``CaptureFile/stream()``).
///
/// ```swift
/// for try await item in CaptureFile(path: "day.pcapng").stream() {
///     switch item {
///     case .advertisement(let a): …
///     case .issue(let fault): print(fault)
///     case .end(let records): print(records.read, "records")
///     }
/// }
/// ```
///
/// The decoder runs on a dispatch queue of its own and waits while ``bufferLimit`` items
/// are unread. Ending the iteration early lets it skip the rest of the file without keeping
/// anything.
public struct CaptureStream: AsyncSequence, Sendable {
    /// One thing the decoder found, in file order.
    public enum Item: Sendable, Hashable {
        /// An advertisement, with or without AD data.
        case advertisement(CapturedAdvertisement)
        /// A fault: the record is counted malformed and decoding goes on.
        case issue(CaptureIssue)
        /// The last item: how the records were accounted for.
        case end(RecordCounts)
    }

    /// How many decoded items may wait unread before the decoder waits.
    public static let bufferLimit = 1_024

    let path: String

    /// Starts the decoder when iteration starts.
    public func makeAsyncIterator() -> Iterator { Iterator(reader: Reader(Channel(path: path))) }

    /// Reads the items as the decoder gives them.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next item; nil after ``Item/end(_:)``. Throws `capture/unreadable` when the file
        /// cannot be read at all (before any item).
        public mutating func next() async throws(ConformanceError) -> Item? {
            let result = await reader.channel.next()
            switch result {
            case .item(let item): return item
            case .finished: return nil
            case .failed(let error): throw error
            }
        }
    }

    /// The iterator's hold on the channel: when the last copy of the iterator goes, the
    /// decoder is told that nobody reads any more.
    final class Reader: Sendable {
        let channel: Channel
        init(_ channel: Channel) { self.channel = channel }
        deinit { channel.abandon() }
    }

    /// The hand-over between the decoder's thread and the iterator.
    final class Channel: Sendable {
        enum Next: Sendable {
            case item(Item)
            case finished
            case failed(ConformanceError)
        }

        struct State {
            var started = false
            var items: [Item] = []
            var head = 0
            var done: Next?
            var waiting: CheckedContinuation<Next, Never>?
            var abandoned = false
        }

        let path: String
        let state = Mutex(State())
        let room = DispatchSemaphore(value: CaptureStream.bufferLimit)

        init(path: String) { self.path = path }

        /// Nobody reads any more: the decoder stops waiting and keeps nothing.
        ///
        /// Gives back every slot the decoder can hold: the ``bufferLimit`` buffered items and
        /// the one it may be waiting for, so the semaphore ends no lower than it began
        /// (libdispatch traps when a semaphore is released below its initial value).
        func abandon() {
            state.withLock { $0.abandoned = true }
            for _ in 0...CaptureStream.bufferLimit { room.signal() }
        }

        func next() async -> Next {
            startIfNeeded()
            return await withCheckedContinuation { (c: CheckedContinuation<Next, Never>) in
                let ready: Next? = state.withLock { s in
                    if s.head < s.items.count {
                        let item = s.items[s.head]
                        s.head += 1
                        if s.head == s.items.count {
                            s.items.removeAll(keepingCapacity: true)
                            s.head = 0
                        }
                        return .item(item)
                    }
                    if let done = s.done { return done }
                    s.waiting = c
                    return nil
                }
                if let ready {
                    if case .item = ready { room.signal() }
                    c.resume(returning: ready)
                }
            }
        }

        func startIfNeeded() {
            let start = state.withLock { s in
                defer { s.started = true }
                return !s.started
            }
            guard start else { return }
            DispatchQueue(label: "nearby-conformance.capture-stream").async { self.produce() }
        }

        /// Runs on the decoder's queue.
        func produce() {
            do {
                let accounting = try CaptureDecoder.decode(
                    path: path,
                    onAdvertisement: { [path] in
                        self.put(.advertisement(CapturedAdvertisement($0.jsonObject(file: path))))
                    },
                    onIssue: { self.put(.issue(CaptureIssue($0))) })
                put(.end(RecordCounts(accounting)))
                finish(.finished)
            } catch {
                finish(.failed(ConformanceError(.captureUnreadable, file: path, error.reason)))
            }
        }

        func put(_ item: Item) {
            if state.withLock({ $0.abandoned }) { return }
            room.wait()
            let waiting: CheckedContinuation<Next, Never>? = state.withLock { s in
                guard !s.abandoned else { return nil }
                if let c = s.waiting {
                    s.waiting = nil
                    return c
                }
                s.items.append(item)
                return nil
            }
            if let waiting {
                room.signal()
                waiting.resume(returning: .item(item))
            }
        }

        func finish(_ done: Next) {
            let waiting = state.withLock { s in
                s.done = done
                defer { s.waiting = nil }
                return s.waiting
            }
            waiting?.resume(returning: done)
        }
    }
}

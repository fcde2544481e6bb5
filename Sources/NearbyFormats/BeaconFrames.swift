/// The beacon frames of one advertisement, in the order of their AD structures.
///
/// A random-access collection that reads like an array (`Array(frames)` gives one, and an
/// array literal makes one), with value semantics: a copy is independent of the original,
/// which is copied on its first change while both are held.
///
/// Emptied with `removeAll()`, it keeps its storage, and frames that hold no reference
/// (`BeaconFrame.holdsReferences`: all but URL frames of more than 32 encoded bytes, eTLM,
/// E2EE-EID, unknown Eddystone frames and tokens of an unknown version) are dropped
/// without being destroyed one by one: a decoder that reuses one `AdvertisingDataContents`
/// empties it with two tests, whatever it held.
public struct BeaconFrames: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    @usableFromInline var storage: Storage

    /// No frames.
    @inlinable public init() { storage = Storage.empty }

    /// The frames of `frames`, in order.
    public init<S: Sequence>(_ frames: S) where S.Element == BeaconFrame {
        self.init()
        for frame in frames { append(frame) }
    }

    /// The frames of the literal, in order.
    public init(arrayLiteral frames: BeaconFrame...) { self.init(frames) }

    /// The index of the first frame: always 0.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last frame's index: the number of frames.
    @inlinable public var endIndex: Int { storage.count }

    /// The frame at `position`, which must be in `0..<count` (a position outside it stops
    /// the program).
    @inlinable public subscript(position: Int) -> BeaconFrame {
        precondition(position >= 0 && position < storage.count, "BeaconFrames index out of range")
        return storage.frames[position]
    }

    /// Adds `frame` at the end.
    @inlinable @inline(__always)
    public mutating func append(_ frame: consuming BeaconFrame) {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) {
            storage = storage.copy(minimumCapacity: Swift.max(4, 2 * storage.capacity))
        }
        appendToOwnStorage(frame)
    }

    /// Removes every frame, keeping the storage for the next ones (unless a copy of these
    /// frames holds it too).
    @inlinable @inline(__always)
    public mutating func removeAll() {
        if _fastPath(isKnownUniquelyReferenced(&storage)) {
            storage.removeAll()
        } else if storage.count > 0 {
            storage = Storage(capacity: storage.capacity)
        }
    }

    /// Removes every frame, leaving a storage that `appendToOwnStorage` may add to without
    /// the uniqueness check of `append`: one this value holds alone, or the shared empty
    /// storage, which has no room (a storage others hold too is left to them).
    @inline(__always)
    mutating func removeAllOwningStorage() {
        if _fastPath(isKnownUniquelyReferenced(&storage)) {
            storage.removeAll()
        } else {
            storage = Storage.empty
        }
    }

    /// Adds `frame` at the end, given that the storage is this value's alone or has no room:
    /// after `removeAllOwningStorage()` with no copy made since, or `append`'s check.
    @inlinable @inline(__always)
    mutating func appendToOwnStorage(_ frame: consuming BeaconFrame) {
        let references = frame.holdsReferences
        if _slowPath(storage.count == storage.capacity) {
            storage = storage.copy(minimumCapacity: Swift.max(4, 2 * storage.capacity))
        }
        (storage.frames + storage.count).initialize(to: frame)
        storage.count &+= 1
        if references { storage.holdsReferences = true }
    }

    /// True when `a` and `b` hold equal frames in the same order, whether or not they share
    /// storage.
    public static func == (a: BeaconFrames, b: BeaconFrames) -> Bool { a.elementsEqual(b) }

    /// Hashes the number of frames, then each frame in order (equal values hash equally).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for frame in self { hasher.combine(frame) }
    }

    /// The frames in an array's form: `Array(frames).description`.
    public var description: String { Array(self).description }

    /// The frames' memory: `count` initialized frames of `capacity`, shared by copies of a
    /// `BeaconFrames` until one of them changes (only a uniquely held storage is changed).
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var frames: UnsafeMutablePointer<BeaconFrame>
        @usableFromInline @exclusivity(unchecked) var count = 0
        @usableFromInline let capacity: Int
        /// True when one of the frames may hold a reference: they are then destroyed one by one.
        @usableFromInline @exclusivity(unchecked) var holdsReferences = false

        /// The storage of every empty `BeaconFrames` until its first frame.
        @usableFromInline static let empty = Storage(capacity: 0)

        @usableFromInline init(capacity: Int) {
            self.capacity = capacity
            frames = .allocate(capacity: capacity)
        }

        deinit {
            removeAll()
            frames.deallocate()
        }

        /// A storage of at least `minimumCapacity` frames holding copies of these.
        @usableFromInline func copy(minimumCapacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(minimumCapacity, count))
            copy.frames.initialize(from: frames, count: count)
            copy.count = count
            copy.holdsReferences = holdsReferences
            return copy
        }

        @inlinable @inline(__always)
        func removeAll() {
            // Frames that hold no reference are plain bytes: nothing to destroy.
            if _slowPath(holdsReferences) {
                frames.deinitialize(count: count)
                holdsReferences = false
            }
            count = 0
        }
    }
}

import NearbyBytes

/// Joins the fragments of extended advertising data that a controller reports in
/// several LE Extended Advertising Reports (data status 1 = "incomplete, more data to
/// come"; HCI-EXT-6 to HCI-EXT-13; Core Vol 4 Part E §7.7.65.13, Vol 6 Part B §4.4.2.4).
///
/// Fragments are chained per advertiser, SID and scan-response flag. The joined
/// advertisement takes the time, RSSI and record number of the report that completes it
/// and records how many fragments it had. A chain that ends with data status 2
/// (truncated), that outgrows 1650 bytes, that is pushed out because more than
/// `maximumPendingChains` are open, or that is still open at the end of the capture is
/// emitted with what arrived and `truncated` set: nothing is dropped silently. Memory is
/// bounded by `maximumPendingChains × 1650` bytes.
public struct ExtendedAdvertisingReassembler: Sendable {
    /// The largest advertising data an extended advertising set may have (Core Vol 4
    /// Part E §7.8.54: Advertising_Data up to 1650 octets).
    public static let maximumDataLength = 1650

    @usableFromInline struct Key: Hashable, Sendable {
        var address: BluetoothAddress
        var addressType: AddressType
        var sid: UInt8
        var scanResponse: Bool
    }

    @usableFromInline struct Chain: Sendable {
        var data: [UInt8]
        var fragments: Int
        /// The header of the latest fragment (its `data` is nil: the chain owns the bytes).
        var last: Advertisement
    }

    public let maximumPendingChains: Int
    @usableFromInline var pending: [Key: Chain] = [:]
    private var order: [Key] = []

    public init(maximumPendingChains: Int = 16) {
        self.maximumPendingChains = maximumPendingChains
    }

    /// Chains that are open now.
    @inlinable public var pendingChainCount: Int { pending.count }

    /// Takes the decoded report in `slot` and emits an advertisement when its data is
    /// complete: the report itself, left in the slot, or the joined chain, written over it.
    package mutating func accept(_ slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void) {
        guard let details = Self.extendedDetails(of: slot.pointee) else { return emitted() }
        // Most reports come whole, with no chain open: handed on as they are.
        if details.dataStatus != 1 && pending.isEmpty { return emitted() }
        let report = slot.pointee
        let data = report.data!
        let key = Key(
            address: report.address, addressType: report.addressType, sid: details.sid,
            scanResponse: report.isScanResponse)
        // HCI-EXT-6, HCI-EXT-7: a fragment waits in the chain of its address, type, SID and
        // scan-response flag.
        if details.dataStatus == 1 {
            var header = report
            header.data = nil
            if let index = pending.index(forKey: key) {
                // Appended in place (the dictionary's copy is the only one), from contiguous
                // bytes: appending the collection itself goes byte by byte.
                data.withUnsafeBytes { pending.values[index].data.append(contentsOf: $0) }
                pending.values[index].fragments += 1
                pending.values[index].last = header
                if pending.values[index].data.count > Self.maximumDataLength {  // HCI-EXT-10
                    flush(key, into: slot, emitted: emitted)
                }
            } else {
                if pending.count >= maximumPendingChains, let oldest = order.first {  // HCI-EXT-11
                    flush(oldest, into: slot, emitted: emitted)
                }
                pending[key] = Chain(data: data.withUnsafeBytes { Array($0) }, fragments: 1, last: header)
                order.append(key)
            }
            return
        }
        // HCI-EXT-8, HCI-EXT-9, HCI-EXT-13: status 0, 2 or 3 ends the chain (2: truncated).
        guard var whole = pending.removeValue(forKey: key) else { return emitted() }
        order.removeAll { $0 == key }
        data.withUnsafeBytes { whole.data.append(contentsOf: $0) }
        whole.fragments += 1
        slot.pointee = joined(report, whole, status: details.dataStatus, truncated: details.dataStatus == 2)
        emitted()
    }

    /// The extended details of a report that has data.
    private static func extendedDetails(of report: borrowing Advertisement) -> ExtendedReportDetails? {
        report.hasData ? report.extended : nil
    }

    /// Emits every chain still open (at the end of a capture), oldest first, as truncated
    /// (HCI-EXT-12).
    package mutating func finish(into slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void) {
        for key in order {
            guard let chain = pending[key] else { continue }
            slot.pointee = Self.pendingAdvertisement(chain)
            emitted()
        }
        pending.removeAll()
        order.removeAll()
    }

    private mutating func flush(_ key: Key, into slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void) {
        guard let chain = pending[key] else { return }
        remove(key)
        slot.pointee = Self.pendingAdvertisement(chain)
        emitted()
    }

    private mutating func remove(_ key: Key) {
        pending[key] = nil
        order.removeAll { $0 == key }
    }

    /// A chain that did not complete: the data so far, marked truncated, with data
    /// status 1 (the controller promised more that never came).
    private static func pendingAdvertisement(_ chain: Chain) -> Advertisement {
        var a = chain.last
        a.data = InlineBytes(chain.data)
        a.extended?.dataStatus = 1
        a.extended?.fragments = chain.fragments
        a.extended?.truncated = true
        return a
    }

    private func joined(_ last: Advertisement, _ chain: Chain, status: UInt8, truncated: Bool) -> Advertisement {
        var a = last
        a.data = InlineBytes(chain.data)
        a.extended?.dataStatus = status
        a.extended?.fragments = chain.fragments
        a.extended?.truncated = truncated
        return a
    }
}

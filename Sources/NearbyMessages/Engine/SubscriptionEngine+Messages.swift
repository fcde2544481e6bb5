/// Messages interned once, and the filters that match them (ENGINE-R1 to ENGINE-R4).
extension SubscriptionEngine {
    // MARK: messages and filters (ENGINE-R1 to ENGINE-R4)

    /// The engine index of message `m`, added (with its filters) when new. Equal messages,
    /// byte for byte, share one index (ENGINE-R4).
    mutating func intern(_ m: Message) -> Int32 {
        if let i = messageIndex[m] { return i }
        let exact = filterID(FilterKey(namespace: ExactString(m.namespace), type: ExactString(m.type)))
        let everyType =
            m.type.isEmpty ? nil : filterID(FilterKey(namespace: ExactString(m.namespace), type: ExactString("")))
        let i = place(m, MessageFilters(exact: exact, everyType: everyType))
        messageIndex[m] = i
        return i
    }

    /// Gives message `m` an index: a released one's, or a new one.
    private mutating func place(_ m: Message, _ filters: MessageFilters) -> Int32 {
        if let free = freeMessages.popLast() {
            messages[Int(free)] = m
            messageFilters[Int(free)] = filters
            return free
        }
        messages.append(m)
        messageFilters.append(filters)
        pairsOfMessage.append(0)
        return Int32(messages.count - 1)
    }

    /// The index of message `m` if the engine holds it (a registry message, or a reserved one
    /// made and not released).
    func index(of m: Message) -> Int32? {
        messageIndex[m] ?? Self.beaconID(reservedMessage: m).flatMap { reservedMessages[$0] }
    }

    /// The beacon ID whose reserved message `m` is (ENGINE-R2), or nil when it is none.
    static func beaconID(reservedMessage m: Message) -> SightingIdentity? {
        guard m.namespace == Message.reservedNamespace else { return nil }
        switch (m.type, m.content.count) {
        case (Message.eddystoneUIDType, 16): return SightingIdentity(.eddystoneUID, m.content)
        case (Message.iBeaconIDType, 20): return SightingIdentity(.iBeacon, m.content)
        default: return nil
        }
    }

    /// Removes found pair `key` (make its lost event first: its message may go with it).
    mutating func losePair(_ key: FoundKey) {
        found.remove(key)
        pairGone(key.message)
    }

    /// A found pair of message `m` has gone: a reserved message no pair holds any more is
    /// released (ENGINE-R2).
    mutating func pairGone(_ m: Int32) {
        pairsOfMessage[Int(m)] -= 1
        if pairsOfMessage[Int(m)] == 0 { releaseIfReserved(m) }
    }

    /// Releases reserved message `m` when no found pair holds it, its index to be reused: a
    /// reserved message exists only while something has found it or is being shown it
    /// (ENGINE-R2), so the engine's memory follows the found pairs, not every beacon ever seen.
    /// The registry's messages (and a reserved message equal to one, ENGINE-R4) stay.
    mutating func releaseIfReserved(_ m: Int32) {
        guard Int(m) >= resolving.messages.count, pairsOfMessage[Int(m)] == 0 else { return }
        reservedMessages.remove(Self.beaconID(reservedMessage: messages[Int(m)])!)
        messages[Int(m)] = Message(namespace: "", type: "", content: [])
        freeMessages.append(m)
    }

    mutating func filterID(_ key: FilterKey) -> Int32 {
        if let f = filters[key] { return f }
        let f = Int32(subscribersByFilter.count)
        filters[key] = f
        subscribersByFilter.append([])
        if key.namespace == ExactString(Message.reservedNamespace) {
            switch key.type {
            case ExactString(Message.eddystoneUIDType): reservedUIDFilter = f
            case ExactString(Message.iBeaconIDType): reservedIBeaconFilter = f
            case ExactString(""): reservedEveryTypeFilter = f
            default: break
            }
        }
        return f
    }

    /// Whether a held, live subscription selects by one of these filters.
    @inline(__always)
    func hasSubscribers(_ a: Int32?, _ b: Int32?) -> Bool {
        if let a, !subscribersByFilter[Int(a)].isEmpty { return true }
        if let b, !subscribersByFilter[Int(b)].isEmpty { return true }
        return false
    }

    /// The reserved message of a beacon ID (ENGINE-R2), one with a registry message equal to it (ENGINE-R4).
    /// Made ones are found by identity (`reservedMessages`), not by `messageIndex`: a beacon
    /// found again after it was lost makes its message again, without hashing the message.
    mutating func reservedMessage(_ identity: SightingIdentity, type: String) -> Int32 {
        if let m = reservedMessages[identity] { return m }
        if let m = registryReserved[identity] { return m }
        let isUID = type == Message.eddystoneUIDType
        let exact =
            (isUID ? reservedUIDFilter : reservedIBeaconFilter)
            ?? filterID(FilterKey(namespace: ExactString(Message.reservedNamespace), type: ExactString(type)))
        let everyType =
            reservedEveryTypeFilter
            ?? filterID(FilterKey(namespace: ExactString(Message.reservedNamespace), type: ExactString("")))
        let m = place(
            Message(namespace: Message.reservedNamespace, type: type, content: identity.bytes),
            MessageFilters(exact: exact, everyType: everyType))
        reservedMessages.insert(identity, m)
        return m
    }
}

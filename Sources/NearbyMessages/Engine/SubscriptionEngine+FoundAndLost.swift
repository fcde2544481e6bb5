/// Found and lost: evidence, timers and the callbacks they fire (ENGINE-F1 to ENGINE-F3).
extension SubscriptionEngine {
    // MARK: found and lost (ENGINE-F1 to ENGINE-F3)

    /// A sighting from `source` at `t` resolved to message `m` (ENGINE-R1, ENGINE-R2): found for every
    /// subscription whose filter selects it (ENGINE-R3) and that counts the source now (ENGINE-A1 to ENGINE-A6), or
    /// fresh evidence for the pairs already found (ENGINE-F2); a message with a subscriber that
    /// counts it and has not found it goes to `unfound` (ENGINE-F1).
    @inline(__always)
    mutating func touch(_ m: Int32, _ source: EvidenceSource, _ t: Int64) {
        let f = messageFilters[Int(m)]
        touch(m, subscribersByFilter[Int(f.exact)], source, t)
        if typelessSubscriptions > 0, let w = f.everyType { touch(m, subscribersByFilter[Int(w)], source, t) }
    }

    @inline(__always)
    mutating func touch(_ m: Int32, _ subscribers: [Subscriber], _ source: EvidenceSource, _ t: Int64) {
        let windows = configuration.lowPowerScan
        let counting = profiles.counting
        // The pairs already found (nearly every touch) are updated in one run over the
        // table's storage.
        let allFound = found.withUpdates { table in
            var all = true
            for s in subscribers where counting[Int(s.profile)].counts(source, at: t, since: s.since, windows: windows)
            {
                if !table.update(FoundKey(subscription: s.slot, message: m), { $0.seen[source] = t }) { all = false }
            }
            return all
        }
        if !allFound { unfound.append(m) }
    }

    /// ENGINE-F1: the subscribers of message `m` that count this sighting and have not found `m`
    /// find it now, each with its lost timer (ENGINE-F2).
    mutating func addFound(_ m: Int32, _ source: EvidenceSource, _ t: Int64, into events: inout [EngineEvent]) {
        let f = messageFilters[Int(m)]
        addFound(m, subscribersByFilter[Int(f.exact)], source, t, into: &events)
        if let w = f.everyType { addFound(m, subscribersByFilter[Int(w)], source, t, into: &events) }
    }

    mutating func addFound(
        _ m: Int32, _ subscribers: [Subscriber], _ source: EvidenceSource, _ t: Int64,
        into events: inout [EngineEvent]
    ) {
        let windows = configuration.lowPowerScan
        for s in subscribers
        where profiles.counting[Int(s.profile)].counts(source, at: t, since: s.since, windows: windows) {
            let slot = s.slot
            let key = FoundKey(subscription: slot, message: m)
            if found[key] == nil {
                generation &+= 1
                var entry = FoundTable.Entry(generation: generation)
                entry.seen[source] = t
                found.set(key, entry)
                pairsOfMessage[Int(m)] += 1
                timers.push(
                    .init(
                        deadline: t + configuration.lostTimeoutMicros, kind: .lost, slot: slot, message: m,
                        generation: generation))
                events.append(
                    EngineEvent(
                        timeMicros: t, kind: .found, subscription: subscriptions[Int(slot)].id,
                        message: messages[Int(m)]))
            }
        }
    }

    /// Fires timer `t`, the first of the queue (still in it: `fire` pushes no timer, so it
    /// stays first). Returns the timer that takes its place when a lost timer finds its pair
    /// seen since it was set (the queue's first is then replaced), nil when it is done (the
    /// caller pops it).
    mutating func fire(_ t: TimerQueue.Timer, into batch: inout [EngineEvent]) -> TimerQueue.Timer? {
        switch t.kind {
        case .lost:
            // ENGINE-F2
            let key = FoundKey(subscription: t.slot, message: t.message)
            guard let entry = found[key], entry.generation == t.generation else { return nil }
            let deadline = entry.seen.latest + configuration.lostTimeoutMicros
            if deadline > t.deadline {
                return .init(
                    deadline: deadline, kind: .lost, slot: t.slot, message: t.message, generation: t.generation)
            } else if deadline == t.deadline {
                batch.append(lostEvent(key, at: t.deadline))
                losePair(key)
            }
        case .subscriptionExpiry:
            // ENGINE-F6
            guard subscriptions[Int(t.slot)].status == .live else { return nil }
            end(subscription: t.slot, as: .expired, at: t.deadline, into: &batch)
            batch.append(
                EngineEvent(
                    timeMicros: t.deadline, kind: .subscriptionExpired, subscription: subscriptions[Int(t.slot)].id))
        case .publicationExpiry:
            // ENGINE-P1
            guard publications[Int(t.slot)].status == .live else { return nil }
            end(publication: t.slot, as: .expired)
            batch.append(
                EngineEvent(
                    timeMicros: t.deadline, kind: .publicationExpired, publication: publications[Int(t.slot)].id))
        }
        return nil
    }

    func lostEvent(_ key: FoundKey, at time: Int64) -> EngineEvent {
        EngineEvent(
            timeMicros: time, kind: .lost, subscription: subscriptions[Int(key.subscription)].id,
            message: messages[Int(key.message)])
    }

    /// Ends a live or expired subscription: expired (ENGINE-F6, ENGINE-F7: its found messages are lost now),
    /// released (ENGINE-F5) or terminated (ENGINE-L1): no callback.
    mutating func end(
        subscription slot: Int32, as status: Status, at time: Int64, into batch: inout [EngineEvent]
    ) {
        let wasLive = subscriptions[Int(slot)].status == .live
        subscriptions[Int(slot)].status = status
        guard wasLive else { return }
        subscriptions[Int(slot)].endedAt = time
        let s = subscriptions[Int(slot)]
        if let moved = subscribersByFilter[Int(s.filter)].swapRemove(at: Int(s.filterPosition)) {
            subscriptions[Int(moved.slot)].filterPosition = s.filterPosition
        }
        if let moved = profiles.remove(at: s.profilePosition, of: s.profile) {
            subscriptions[Int(moved)].profilePosition = s.profilePosition
        }
        if s.params.type.isEmpty { typelessSubscriptions -= 1 }
        for m in found.removeAll(of: slot) {
            if status == .expired { batch.append(lostEvent(FoundKey(subscription: slot, message: m), at: time)) }
            pairGone(m)
        }
    }

    /// Ends a live or expired publication: expired (ENGINE-P1, ENGINE-F7), released or terminated
    /// (ENGINE-L1).
    mutating func end(publication slot: Int32, as status: Status) {
        if publications[Int(slot)].status == .live {
            let key = Self.handlerKey(publications[Int(slot)].params.strategy)
            livePublicationStrategies[key]! -= 1
            if livePublicationStrategies[key] == 0 { livePublicationStrategies[key] = nil }
        }
        publications[Int(slot)].status = status
    }

    /// What the handlers read of a publication's strategy (ENGINE-H2, ENGINE-H4): all but its TTL.
    static func handlerKey(_ strategy: Strategy) -> Strategy {
        var key = strategy
        key.ttl = .infinite
        return key
    }

    /// ENGINE-F6: sets the timer that ends a subscription or publication (`slot`) when its TTL runs
    /// out; returns that time (µs), or nil for an infinite TTL.
    mutating func scheduleExpiry(_ ttl: TimeToLive, _ kind: TimerQueue.Kind, slot: Int32, at time: Int64) -> Int64? {
        guard case .micros(let micros) = ttl else { return nil }
        timers.push(.init(deadline: time + micros, kind: kind, slot: slot, message: 0, generation: 0))
        return time + micros
    }
}

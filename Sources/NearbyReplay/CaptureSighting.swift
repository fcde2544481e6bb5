import NearbyCapture
import NearbyMessages

extension ReplaySession {
    /// A sighting as the replay sorts it (by `unixMicros`, stably: equal times keep the
    /// order the sightings were taken in): 56 bytes, what a spilled sighting takes on disk.
    /// The fields are ordered so that the advertiser's address fits in what would otherwise be
    /// padding.
    struct CaptureSighting: SpillSortable {
        var unixMicros: Int64
        var identity: SightingIdentity
        var rssi: Int8?
        var medium: Medium
        /// Index into the captures (BLE) or the sound files (audio): `replay` takes at most
        /// 65,536 of them.
        var file: UInt16
        private var addressHigh: UInt16
        /// The record (BLE) or the frame's index in its file (audio).
        var record: Int32
        private var addressLow: UInt32

        init(
            unixMicros: Int64, identity: SightingIdentity, rssi: Int8?, medium: Medium, file: UInt16, record: Int32,
            address: BluetoothAddress? = nil
        ) {
            self.unixMicros = unixMicros
            self.identity = identity
            self.rssi = rssi
            self.medium = medium
            self.file = file
            self.record = record
            let raw = address?.rawValue ?? 0
            addressHigh = UInt16(truncatingIfNeeded: raw >> 32)
            addressLow = UInt32(truncatingIfNeeded: raw)
        }

        /// The advertiser's address (BLE sightings; nil for audio).
        var address: BluetoothAddress? {
            medium == .ble ? BluetoothAddress(rawValue: UInt64(addressHigh) << 32 | UInt64(addressLow)) : nil
        }

        var sortKey: Int64 { unixMicros }
    }
}

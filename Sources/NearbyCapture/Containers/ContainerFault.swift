import NearbyBytes

/// Damage a container reader found: a record it cannot frame, or a stretch of bytes it
/// passed over (DAMAGE-16). Reported as `CaptureReadStep.malformed`, numbered as the reader
/// reports it.
struct ContainerFault {
    /// File offset of the field at fault (nil when not known).
    var fileOffset: Int64?
    var error: DecodeError
    /// The bytes passed over to reach the next plausible record, or the end of the file.
    var skipped: SkippedBytes?

    init(at fileOffset: Int64?, _ error: DecodeError, skipped: SkippedBytes? = nil) {
        (self.fileOffset, self.error, self.skipped) = (fileOffset, error, skipped)
    }
}

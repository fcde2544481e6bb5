import NearbyConformance

/// What a vector asks an implementation (docs/spec/interop.md, INTEROP-21 to INTEROP-24),
/// given to ``ImplementationUnderTest/answer``.
public enum ConformanceRequest: Sendable, Hashable {
    /// Decode one frame (level `frames`).
    case frame(Frame)
    /// Decode a capture file, given by its absolute path (level `captures`).
    case capture(path: String)
    /// Decode the NUT v1 tokens of a sound file, given by its absolute path (level `audio`).
    case audio(path: String)
    /// Run a scenario and give its callbacks (level `events`). The scenario is
    /// self-contained: its registry inline, its time origin fixed, and the sightings of its
    /// captures and sound files merged into its `events` (docs/scenario-format.md).
    case scenario(FieldValue)
}

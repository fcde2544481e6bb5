/// The registry an engine resolves sightings with (R1, R2), shared by the engine's copies:
/// its messages, in order, are the engine's first messages.
final class RegistryLookup: Sendable {
    let registry: Registry

    init(_ registry: Registry) {
        self.registry = registry
    }
}

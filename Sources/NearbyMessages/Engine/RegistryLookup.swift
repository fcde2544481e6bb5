/// The registry an engine resolves sightings with (R1, R2), and the engine message each
/// registry message is (namespace "" made the project's, equal messages one: R3, R4). Fixed
/// when the engine is made and shared by its copies.
final class RegistryLookup: Sendable {
    let registry: Registry
    /// The engine message index of each of `registry.messages`, in its order.
    let engineMessages: [Int32]

    init(registry: Registry, engineMessages: [Int32]) {
        self.registry = registry
        self.engineMessages = engineMessages
    }
}

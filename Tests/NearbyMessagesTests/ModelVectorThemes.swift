import NearbyMessages

extension ModelVectorTests {
    static func themes() -> [Spec] { [] }
}

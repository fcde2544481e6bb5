// libFuzzer entry points for the "display-filter" target (NearbyFuzzTargets; see Fuzz/README.md).
import NearbyFuzzTargets

let target = FuzzTarget.named("display-filter")!

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    FuzzDriver.initialize(target)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.run(target, data, size)
}

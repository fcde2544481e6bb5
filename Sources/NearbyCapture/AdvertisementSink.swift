/// What a decoder hands each advertisement to: a closure that receives it `inout`.
///
/// The advertisement is lent, not copied: a consumer that keeps it takes it by swapping
/// in another one (`swap(&kept, &advertisement)`: a move of the bytes, with no copy and no
/// reference count), and whatever it leaves behind is dropped when the call returns. A
/// consumer that only looks at it reads it in place. (Passed as an owned value instead,
/// each advertisement, about 160 bytes, was copied and the original destroyed on every
/// call: Swift 6.3 does not forward an owned argument to a closure without a copy.)
public typealias AdvertisementSink = (inout Advertisement) -> Void

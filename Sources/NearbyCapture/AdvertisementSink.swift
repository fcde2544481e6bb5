/// What a decoder hands each advertisement to: a closure that receives it `inout`.
///
/// The advertisement is lent, not copied: a consumer that keeps it takes it by swapping
/// in another one (`swap(&kept, &advertisement)`: a move of the bytes, with no copy and no
/// reference count), and whatever it leaves behind is dropped when the call returns. A
/// consumer that only looks at it reads it in place.
package typealias AdvertisementSink = (inout Advertisement) -> Void

extension Array {
    /// Removes the element at `index` in O(1) by moving the last element into its place (the
    /// order of the rest is not kept). Returns the element now at `index`, nil when the removed
    /// one was last: the caller updates the position it records for that element.
    @inline(__always)
    mutating func swapRemove(at index: Int) -> Element? {
        let last = removeLast()
        guard index < count else { return nil }
        self[index] = last
        return last
    }
}

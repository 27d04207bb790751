import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `word`'s: one length check and a `memcmp`, for the byte
    /// scanners that match a line's keys against fixed words. (`elementsEqual(word.utf8)` goes
    /// through a string's generic view, many times the cost on the per-line path.)
    func equals(_ word: StaticString) -> Bool {
        count == word.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, word.utf8Start, count) == 0)
    }
}

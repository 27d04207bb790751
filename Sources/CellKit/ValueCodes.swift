/// The distinct values a long array holds, numbered from 1, so each element can be stored as a
/// two-byte code instead of its eight bytes: row heights are whole pixels of a few sizes, so a
/// million measured rows use a handful of codes. Values are told apart by their bits, so a value
/// read back is the very value stored (0 and -0 stay apart).
struct ValueCodes: Sendable {
    typealias Code = UInt16
    /// The code of an element never stored (its owner says what it reads as).
    static let unset: Code = 0
    /// The code of an element that did not get a code of its own (every code was taken): its
    /// owner stores the value itself.
    static let uncoded: Code = .max

    private var values: [Double] = []
    private var codes: [UInt64: Code] = [:]

    /// The code of `value`, numbered now when new; `uncoded` once every code is taken.
    mutating func code(of value: Double) -> Code {
        if let code = codes[value.bitPattern] { return code }
        guard values.count < Int(Self.uncoded) - 1 else { return Self.uncoded }
        values.append(value)
        let code = Code(values.count)
        codes[value.bitPattern] = code
        return code
    }

    /// The value numbered `code` (neither `unset` nor `uncoded`).
    @inline(__always)
    func value(of code: Code) -> Double { values[Int(code) - 1] }
}

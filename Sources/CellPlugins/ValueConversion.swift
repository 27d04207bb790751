import CCellHostABI
import Glibc
import Synchronization
import CellKit

/// CellKit values ↔ the plain C structs of plugin.h.
///
/// A dynamic colour (light/dark variants) crosses as the appearance for the traits at hand;
/// where no traits are known (a property set from an event stream) it crosses as its light
/// appearance, and the configuration sets it again for other traits before the plugin restyles
/// for them (`DynamicColourSettings`). Plugins that need trait-dependent colours of their own ask
/// `system_color` with the traits of the state or context they were given.
extension cellhost_color {
    init(_ color: Color) { self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha) }
    var color: Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}

extension cellhost_size {
    init(_ size: Size) { self.init(width: size.width, height: size.height) }
    var size: Size { Size(width: width, height: height) }
}

extension cellhost_rect {
    init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
    var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
}

extension cellhost_insets {
    init(_ i: DirectionalEdgeInsets) { self.init(top: i.top, leading: i.leading, bottom: i.bottom, trailing: i.trailing) }
    var insets: DirectionalEdgeInsets { DirectionalEdgeInsets(top: top, leading: leading, bottom: bottom, trailing: trailing) }
}

extension cellhost_header {
    /// The header a host-made struct of type `T` carries.
    static func host<T>(for _: T.Type) -> cellhost_header {
        cellhost_header(struct_size: UInt32(MemoryLayout<T>.size), abi_major: UInt16(CELLHOST_ABI_MAJOR),
                        abi_minor: UInt16(CELLHOST_ABI_MINOR))
    }
}

extension FontWeight {
    init(abi value: Int32) {
        switch value {
        case CELLHOST_FONT_MEDIUM: self = .medium
        case CELLHOST_FONT_SEMIBOLD: self = .semibold
        case CELLHOST_FONT_BOLD: self = .bold
        default: self = .regular
        }
    }

    var abiValue: Int32 {
        switch self {
        case .regular: CELLHOST_FONT_REGULAR
        case .medium: CELLHOST_FONT_MEDIUM
        case .semibold: CELLHOST_FONT_SEMIBOLD
        case .bold: CELLHOST_FONT_BOLD
        }
    }
}

extension TextStyle {
    init?(abi value: Int32) {
        guard value >= 0, Int(value) < TextStyle.allCases.count else { return nil }
        self = TextStyle.allCases[Int(value)]
    }
    var abiValue: Int32 { Int32(TextStyle.allCases.firstIndex(of: self)!) }
}

extension Font {
    init(_ font: cellhost_font) {
        self.init(family: font.family.map { String(abiBytes: $0, length: strnlen($0, 256)) }, pointSize: font.point_size,
                  weight: FontWeight(abi: font.weight), isItalic: font.italic,
                  textStyle: TextStyle(abi: font.text_style))
    }
}

extension cellhost_font {
    init(_ font: Font) {
        self.init(family: font.family.map(InternedCString.shared.pointer(for:)), point_size: font.pointSize,
                  weight: font.weight.abiValue, italic: font.isItalic,
                  text_style: font.textStyle?.abiValue ?? CELLHOST_TEXT_STYLE_NONE)
    }
}

extension String {
    /// A string from pointer + byte length (no NUL needed); invalid UTF-8 is repaired.
    init(abiBytes: UnsafePointer<CChar>?, length: Int) {
        guard let abiBytes, length > 0 else { self = ""; return }
        self = abiBytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// C strings the host hands out as "static": each distinct string is copied once and kept until
/// the process ends (font family names, a bounded set).
final class InternedCString: Sendable {
    static let shared = InternedCString()
    private struct Pointer: @unchecked Sendable { let value: UnsafePointer<CChar> }
    private let table = Mutex<[String: Pointer]>([:])

    func pointer(for string: String) -> UnsafePointer<CChar> {
        table.withLock { table in
            if let p = table[string] { return p.value }
            let p = UnsafePointer(strdup(string)!)
            table[string] = Pointer(value: p)
            return p
        }
    }
}

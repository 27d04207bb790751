/// Where each property of one cell type sits inside its value, found once when the type is
/// exported. The boxes are generic over the cell type, but their code is not specialised for it:
/// a key path read there looks its types up in the runtime's metadata caches on every read,
/// where a stored property read through its offset is a copy of its bytes.
final class PropertyLayout: Sendable {
    struct Slot: Sendable {
        enum Kind: Sendable {
            /// A C value (number, colour, size, insets, function pointer): its bytes are its value.
            case bytes(count: Int)
            /// A Swift `String`, handed out as a C string.
            case string
        }
        let name: String
        let kind: Kind
        /// The byte offset of a stored property inside the value; nil for a computed one (and
        /// for every property of a class), which is read and written through its key path.
        let offset: Int?
    }

    let slots: [Slot]

    init<Cell: PluginCell>(_: Cell.Type) {
        slots = Cell.properties.map { Slot(name: $0.name, kind: $0.access.kind, offset: $0.access.offset) }
    }
}

extension CellProperty.Access {
    var kind: PropertyLayout.Slot.Kind {
        switch self {
        case .bool: .bytes(count: MemoryLayout<Bool>.size)
        case .int64: .bytes(count: MemoryLayout<Int64>.size)
        case .double: .bytes(count: MemoryLayout<Double>.size)
        case .string: .string
        case .color: .bytes(count: MemoryLayout<cellhost_color>.size)
        case .size: .bytes(count: MemoryLayout<cellhost_size>.size)
        case .insets: .bytes(count: MemoryLayout<cellhost_insets>.size)
        case .transformer: .bytes(count: MemoryLayout<cellhost_color_transformer?>.size)
        }
    }

    var offset: Int? {
        switch self {
        case .bool(let k): MemoryLayout<Cell>.offset(of: k)
        case .int64(let k): MemoryLayout<Cell>.offset(of: k)
        case .double(let k): MemoryLayout<Cell>.offset(of: k)
        case .string(let k): MemoryLayout<Cell>.offset(of: k)
        case .color(let k): MemoryLayout<Cell>.offset(of: k)
        case .size(let k): MemoryLayout<Cell>.offset(of: k)
        case .insets(let k): MemoryLayout<Cell>.offset(of: k)
        case .transformer(let k): MemoryLayout<Cell>.offset(of: k)
        }
    }
}

import Synchronization

/// Colour names, each kept once: a `Color` holds the number of its name instead of a `String`,
/// so copying or destroying a colour (every display command, configuration and property value
/// holds some) retains and releases nothing for it. Names are few (the system colours and what
/// event streams and plugins name), and a number stays valid for the life of the process.
enum ColorNames {
    private struct Table: Sendable {
        var names: [String] = []
        var numbers: [String: UInt32] = [:]
    }
    private static let table = Mutex(Table())

    /// The number of `name`, from 1; the same name always gets the same number.
    static func number(of name: String) -> UInt32 {
        table.withLock { t in
            if let known = t.numbers[name] { return known }
            t.names.append(name)
            let number = UInt32(t.names.count)
            t.numbers[name] = number
            return number
        }
    }

    /// The name numbered `number` (from `number(of:)`).
    static func name(numbered number: UInt32) -> String {
        table.withLock { $0.names[Int(number) - 1] }
    }
}

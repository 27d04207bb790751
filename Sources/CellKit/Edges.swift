/// Edge and axis sets of layout properties (`NSDirectionalRectEdge`, `UIAxis`).

public struct DirectionalRectEdge: OptionSet, Hashable, Sendable, PropertyValueConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = DirectionalRectEdge(rawValue: 1)
    public static let leading = DirectionalRectEdge(rawValue: 2)
    public static let bottom = DirectionalRectEdge(rawValue: 4)
    public static let trailing = DirectionalRectEdge(rawValue: 8)
    public static let all: DirectionalRectEdge = [.top, .leading, .bottom, .trailing]

    static let names: [(String, DirectionalRectEdge)] = [("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing)]

    public var propertyValue: PropertyValue { .symbolic(optionNames(self, Self.names)) }
    public static var propertyKindName: String { "edges (top, leading, bottom, trailing, all, none; comma-separated)" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self? {
        try parseOptions(value, property: property, names: names, kind: propertyKindName)
    }
}

public struct Axes: OptionSet, Hashable, Sendable, PropertyValueConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let horizontal = Axes(rawValue: 1)
    public static let vertical = Axes(rawValue: 2)
    public static let both: Axes = [.horizontal, .vertical]

    static let names: [(String, Axes)] = [("horizontal", .horizontal), ("vertical", .vertical)]

    public var propertyValue: PropertyValue { .symbolic(optionNames(self, Self.names)) }
    public static var propertyKindName: String { "axes (horizontal, vertical, all, none; comma-separated)" }
    public static func converting(_ value: PropertyValue, property: String) throws(ConfigurationPropertyError) -> Self? {
        try parseOptions(value, property: property, names: names, kind: propertyKindName)
    }
}

private func optionNames<O: OptionSet>(_ set: O, _ names: [(String, O)]) -> String where O.Element == O {
    let present = names.filter { set.contains($0.1) }.map(\.0)
    if present.isEmpty { return "none" }
    return present.count == names.count ? "all" : present.joined(separator: ",")
}

private func parseOptions<O: OptionSet>(_ value: PropertyValue, property: String, names: [(String, O)], kind: String)
    throws(ConfigurationPropertyError) -> O? where O.Element == O
{
    let text: String
    switch value {
    case .symbolic(let s), .string(let s): text = s
    default: return nil
    }
    var result = O()
    for part in text.split(separator: ",").map({ String(String($0).trimmingCharactersInWhitespace()) }) {
        switch part {
        case "none", "": continue
        case "all": names.forEach { result.insert($0.1) }
        default:
            guard let match = names.first(where: { $0.0 == part }) else {
                throw .invalidValue(property: property, reason: "'\(part)' is not one of \(kind)")
            }
            result.insert(match.1)
        }
    }
    return result
}

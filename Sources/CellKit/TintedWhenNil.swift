/// Colour properties whose nil is not "no colour" but the view's tint colour (UIKit resolves them
/// with `resolvedBackgroundColor(for:)`, `resolvedStrokeColor(for:)`, `resolvedTintColor(for:)`),
/// so traces can say what a nil shows.
extension BackgroundConfiguration {
    public static let propertiesTintedWhenNil: Set<String> = ["backgroundColor", "strokeColor"]
}

extension ListContentConfiguration {
    public static let propertiesTintedWhenNil: Set<String> = ["imageProperties.tintColor"]
}

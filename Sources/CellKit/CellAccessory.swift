/// UIKit's `UICellAccessory`: a system control or view a list cell shows beside its content
/// view. The cell lays accessories out around the content view, which shrinks to make room
/// (`DecorationLayout`); the content configuration never knows about them, so built-in and
/// plugin cells get the same accessories.
///
/// Defaults are UIKit's per kind: the editing controls (delete, insert, reorder, multiselect)
/// show only while editing, everything else always; delete, insert and multiselect sit on the
/// leading edge, the rest on the trailing edge; tints follow UIKit (delete red, insert green,
/// disclosure a pale gray, checkmark/detail/outline/multiselect the cell's tint).
public struct CellAccessory: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case disclosureIndicator, checkmark, delete, insert, reorder, outlineDisclosure, detail, multiselect
        /// A short text (UIKit's `.label(text:)`), in the secondary label colour.
        case label(text: String)
        /// An image (a symbol or a PNG) of a fixed size (UIKit's `.customView`).
        case customView(image: Image, size: Size)

        /// The kind's name as streams and traces spell it.
        public var name: String {
            switch self {
            case .disclosureIndicator: "disclosureIndicator"
            case .checkmark: "checkmark"
            case .delete: "delete"
            case .insert: "insert"
            case .reorder: "reorder"
            case .outlineDisclosure: "outlineDisclosure"
            case .detail: "detail"
            case .multiselect: "multiselect"
            case .label: "label"
            case .customView: "customView"
            }
        }
    }

    /// When the accessory shows (`UICellAccessory.DisplayedState`).
    public enum DisplayedState: String, Hashable, Sendable, CaseIterable {
        case always, whenEditing, whenNotEditing
    }

    public enum Placement: String, Hashable, Sendable, CaseIterable {
        case leading, trailing
    }

    /// The width the layout reserves for the accessory, which is centred in it
    /// (`UICellAccessory.LayoutDimension`): the kind's standard width, the accessory's own, or a
    /// fixed one. Equal reserved widths line accessories of different sizes up in a column.
    public enum LayoutWidth: Hashable, Sendable {
        case standard, actual
        case custom(Double)
    }

    /// Every kind's name, for messages and schemas.
    public static let kindNames = ["disclosureIndicator", "checkmark", "delete", "insert", "reorder", "outlineDisclosure",
                                   "detail", "multiselect", "label", "customView"]

    public var kind: Kind
    public var displayed: DisplayedState
    public var placement: Placement
    /// nil = the kind's default (`defaultTint`).
    public var tintColor: Color?
    public var reservedLayoutWidth: LayoutWidth

    public init(_ kind: Kind, displayed: DisplayedState? = nil, placement: Placement? = nil, tintColor: Color? = nil,
                reservedLayoutWidth: LayoutWidth = .standard) {
        self.kind = kind
        self.displayed = displayed ?? CellAccessory.defaultDisplayed(for: kind)
        self.placement = placement ?? CellAccessory.defaultPlacement(for: kind)
        self.tintColor = tintColor
        self.reservedLayoutWidth = reservedLayoutWidth
    }

    public static func defaultDisplayed(for kind: Kind) -> DisplayedState {
        switch kind {
        case .delete, .insert, .reorder, .multiselect: .whenEditing
        default: .always
        }
    }

    public static func defaultPlacement(for kind: Kind) -> Placement {
        switch kind {
        case .delete, .insert, .multiselect: .leading
        default: .trailing
        }
    }

    /// The colour a nil `tintColor` gives, for a cell whose tint is `cellTint`.
    public static func defaultTint(for kind: Kind, cellTint: Color) -> Color {
        switch kind {
        case .disclosureIndicator: .tertiaryLabel
        case .delete: .systemRed
        case .insert: .systemGreen
        case .reorder: .systemGray
        case .label: .secondaryLabel
        case .checkmark, .outlineDisclosure, .detail, .multiselect, .customView: cellTint
        }
    }

    public func resolvedTint(cellTint: Color) -> Color { tintColor ?? CellAccessory.defaultTint(for: kind, cellTint: cellTint) }

    /// Whether the accessory shows in a cell that is (not) editing.
    public func isShown(editing: Bool) -> Bool {
        switch displayed {
        case .always: true
        case .whenEditing: editing
        case .whenNotEditing: !editing
        }
    }

    /// "disclosureIndicator", "label(\"3\")", "customView(star.fill)".
    public var description: String {
        switch kind {
        case .label(let text): "label(\"\(text)\")"
        case .customView(let image, _): "customView(\(image))"
        default: kind.name
        }
    }
}

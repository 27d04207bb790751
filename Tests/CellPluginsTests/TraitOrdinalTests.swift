import CCellHostABI
import CellKit
import Testing
@testable import CellPlugins

/// Traits cross the ABI with each enumeration as its position in `allCases` (plugin.h numbers
/// them that way); the switches that give the positions must agree with `allCases`.
@Suite struct TraitOrdinalTests {
    func checkOrdinals<E: ABIOrdinal & Equatable>(_: E.Type) where E.AllCases == [E] {
        for (index, value) in E.allCases.enumerated() {
            #expect(value.abiOrdinal == Int32(index), "\(value)")
            #expect(E(abiOrdinal: Int32(index)) == value, "\(value)")
        }
        #expect(E(abiOrdinal: -1) == nil)
        #expect(E(abiOrdinal: Int32(E.allCases.count)) == nil)
    }

    @Test func ordinalsArePositionsInAllCases() {
        checkOrdinals(ContentSizeCategory.self)
        checkOrdinals(UserInterfaceSizeClass.self)
        checkOrdinals(ListEnvironment.self)
        #expect(ContentSizeCategory.large.abiOrdinal == CELLHOST_CONTENT_SIZE_LARGE)
        #expect(ContentSizeCategory.accessibilityMedium.abiOrdinal == CELLHOST_CONTENT_SIZE_FIRST_ACCESSIBILITY)
    }

    @Test func everyTraitCollectionRoundTrips() {
        for style in UserInterfaceStyle.allCases {
            for category in ContentSizeCategory.allCases {
                for direction in LayoutDirection.allCases {
                    for sizeClass in UserInterfaceSizeClass.allCases {
                        for environment in ListEnvironment.allCases {
                            for contrast in AccessibilityContrast.allCases {
                                let traits = TraitCollection(
                                    userInterfaceStyle: style, preferredContentSizeCategory: category, layoutDirection: direction,
                                    horizontalSizeClass: sizeClass, verticalSizeClass: sizeClass, displayScale: 3,
                                    listEnvironment: environment, accessibilityContrast: contrast)
                                let abi = cellhost_traits(traits)
                                #expect(abi.traitCollection == traits)
                                #expect(abi.content_size_category == Int32(category.index))
                                #expect(abi.hasSameValues(as: abi))
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func outOfRangeTraitsFallBackToTheDefaults() {
        var abi = cellhost_traits(TraitCollection.default)
        abi.content_size_category = 99
        abi.horizontal_size_class = -3
        abi.vertical_size_class = 7
        abi.list_environment = 6
        abi.display_scale = 0
        let traits = abi.traitCollection
        #expect(traits.preferredContentSizeCategory == .large)
        #expect(traits.horizontalSizeClass == .compact)
        #expect(traits.verticalSizeClass == .regular)
        #expect(traits.listEnvironment == ListEnvironment.none)
        #expect(traits.displayScale == 2)
    }

    @Test func traitsDifferingInOneFieldAreNotTheSame() {
        let base = cellhost_traits(TraitCollection.default)
        var changed: [cellhost_traits] = []
        for i in 0..<8 {
            var t = base
            switch i {
            case 0: t.user_interface_style = CELLHOST_STYLE_DARK
            case 1: t.content_size_category += 1
            case 2: t.layout_direction = CELLHOST_RTL
            case 3: t.horizontal_size_class = CELLHOST_SIZE_CLASS_REGULAR
            case 4: t.vertical_size_class = CELLHOST_SIZE_CLASS_COMPACT
            case 5: t.list_environment += 1
            case 6: t.accessibility_contrast = CELLHOST_CONTRAST_HIGH
            default: t.display_scale = 3
            }
            changed.append(t)
        }
        for t in changed { #expect(!t.hasSameValues(as: base) && !base.hasSameValues(as: t)) }
        var nan = base
        nan.display_scale = .nan
        #expect(!nan.hasSameValues(as: nan), "a NaN scale never matches, so nothing kept is used for it")
    }
}

import Testing
@testable import CellKit

@Suite struct PropertySettingTests {
    @Test func settingByDottedNameSetsAndLocks() throws {
        let config = try ListContentConfiguration.cell()
            .setting("text", to: .string("Inbox"))
            .setting("textProperties.color", to: .string("systemRed"))
            .setting("textProperties.numberOfLines", to: .int(2))
            .setting("imageProperties.reservedLayoutSize", to: .size(Size(width: 30, height: 30)))
            .setting("directionalLayoutMargins", to: .double(8))
            .setting("alpha", to: .double(0.5))
        #expect(config.text == "Inbox")
        #expect(config.textProperties.color == .systemRed && config.textProperties.$color.isCustomized)
        #expect(config.textProperties.numberOfLines == 2)
        #expect(config.imageProperties.reservedLayoutSize == Size(width: 30, height: 30))
        #expect(config.directionalLayoutMargins == DirectionalEdgeInsets(all: 8))
        #expect(config.alpha == 0.5)
        #expect(config.updated(for: CellConfigurationState(isDisabled: true)).textProperties.color == .systemRed)
    }

    @Test func imageStringsAreSymbolsOrPaths() throws {
        let symbol = try ListContentConfiguration.cell().setting("image", to: .string("star.fill"))
        #expect(symbol.image == Image(systemName: "star.fill"))
        let file = try ListContentConfiguration.cell().setting("image", to: .string("/art/photo.png"))
        #expect(file.image?.source == .file(path: "/art/photo.png"))
        let cleared = try symbol.setting("image", to: .none)
        #expect(cleared.image == nil && cleared.$image.isCustomized)
    }

    @Test func unknownNamesAndWrongTypesAreReportedNotIgnored() {
        let config = ListContentConfiguration.cell()
        #expect(throws: ConfigurationPropertyError.unknownProperty("textProperties.colour", typeIdentifier: "com.cellhost.list-content")) {
            try config.setting("textProperties.colour", to: .string("red"))
        }
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "textProperties.numberOfLines", expected: "int", got: "string")) {
            try config.setting("textProperties.numberOfLines", to: .string("two"))
        }
        #expect(throws: ConfigurationPropertyError.invalidValue(property: "textProperties.numberOfLines", reason: "must be 0 (unlimited) or more")) {
            try config.setting("textProperties.numberOfLines", to: .int(-1))
        }
        #expect(throws: ConfigurationPropertyError.self) { try config.setting("alpha", to: .double(1.5)) }
        #expect(throws: ConfigurationPropertyError.self) { try config.setting("textProperties.color", to: .string("notacolour")) }
        #expect(throws: ConfigurationPropertyError.self) { try config.setting("textProperties.alignment", to: .string("middle")) }
    }

    @Test func errorsReadAsSentencesNamingTheProperty() {
        do {
            _ = try ListContentConfiguration.cell().setting("secondaryTextProperties.font", to: .bool(true))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "property 'secondaryTextProperties.font' takes font, not bool")
        }
    }

    @Test func inspectablePropertiesListEverySettablePropertyWithItsFlag() throws {
        let config = try ListContentConfiguration.valueCell().setting("secondaryText", to: .string("42"))
        let props = config.inspectableProperties
        let names = props.map(\.name)
        for expected in ["image", "text", "attributedText", "secondaryText", "secondaryAttributedText",
                         "imageProperties.tintColor", "imageProperties.reservedLayoutSize", "imageProperties.maximumSize",
                         "textProperties.font", "textProperties.color", "textProperties.transform",
                         "secondaryTextProperties.color", "directionalLayoutMargins",
                         "prefersSideBySideTextAndSecondaryText", "imageToTextPadding",
                         "textToSecondaryTextVerticalPadding", "alpha"] {
            #expect(names.contains(expected))
        }
        #expect(Set(names).count == names.count)
        #expect(props.first { $0.name == "secondaryText" } == InspectableProperty(name: "secondaryText", value: .string("42"), isCustomized: true))
        #expect(props.first { $0.name == "prefersSideBySideTextAndSecondaryText" }?.value == .bool(true))
        #expect(props.filter(\.isCustomized).map(\.name) == ["secondaryText"])
        // Every listed property can be set back to its own value by name.
        for p in props where p.name != "customView" {
            let again = try config.setting(p.name, to: p.value)
            #expect(again.inspectableProperty(named: p.name)?.value == p.value)
        }
    }

    @Test func backgroundSharesTheSameShape() throws {
        let background = try BackgroundConfiguration.listGroupedCell()
            .setting("backgroundColor", to: .string("#FF000080"))
            .setting("shadowProperties.opacity", to: .double(0.3))
            .setting("edgesAddingLayoutMarginsToBackgroundInsets", to: .string("leading,trailing"))
            .setting("visualEffect", to: .int(12))
        #expect(background.backgroundColor?.hexString == "#FF000080")
        #expect(background.shadowProperties.opacity == 0.3 && background.shadowProperties.$opacity.isCustomized)
        #expect(background.edgesAddingLayoutMarginsToBackgroundInsets == [.leading, .trailing])
        #expect(background.visualEffect == VisualEffect(blurRadius: 12))
        let names = background.inspectableProperties.map(\.name)
        #expect(names.contains("shadowProperties.offset") && names.contains("cornerRadius"))
        #expect(throws: ConfigurationPropertyError.invalidValue(property: "shadowProperties.opacity", reason: "opacity must be between 0 and 1")) {
            try background.setting("shadowProperties.opacity", to: .double(2))
        }
        #expect(throws: ConfigurationPropertyError.self) { try background.setting("customView", to: .string("x")) }
    }
}

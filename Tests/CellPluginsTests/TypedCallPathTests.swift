@testable import CellPlugins
import CellKit
import CellTestSupport
import Testing

/// The host calls getters and setters as typed C function pointers chosen by the encoding; the
/// libffi calls stay for `validate` to compare with. For a property of every encoding (the C
/// sample declares one of each), both paths must write and read the same values.
@Suite struct TypedCallPathTests {
    static let values: [ValueEncoding: [PropertyValue]] = [
        .double: [.double(0.625), .int(1)],  // an int is a fine double on both paths
        .color: [.color(Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.75)), .string("systemRed")],
        .string: [.string("héllo ✓"), .string("")],
        .int64: [.int(1), .int(0)],
        .bool: [.bool(true), .bool(false)],
        .size: [.size(Size(width: 120, height: 44))],
        .insets: [.insets(DirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))],
        .transformer: [.string("grayscale"), .none],
    ]

    @Test func typedAndLibffiCallsAgreeForEveryEncoding() throws {
        let type = try TypedSetterTests().progressType()
        #expect(Set(type.properties.map(\.encoding)) == Set(ValueEncoding.allCases), "the sample declares every encoding")
        for property in type.properties {
            let defaults = try #require(type.makeDefault())
            #expect(property.value(of: defaults.handle) == property.valueThroughFFI(of: defaults.handle), "\(property.name) default")
            for value in try #require(Self.values[property.encoding]) {
                let typed = try #require(type.makeDefault()), throughFFI = try #require(type.makeDefault())
                try property.set(value, on: typed.handle)
                try property.setThroughFFI(value, on: throughFFI.handle)
                let read = property.value(of: typed.handle)
                #expect(read != property.value(of: defaults.handle) || value == property.value(of: defaults.handle),
                        "\(property.name) = \(value) was written")
                #expect(read == property.valueThroughFFI(of: typed.handle), "\(property.name) = \(value): both getters read it")
                #expect(read == property.value(of: throughFFI.handle), "\(property.name) = \(value): both setters wrote it")
                #expect(typed == throughFFI, "\(property.name) = \(value): the plugin's equal agrees")
            }
        }
    }

    @Test func bothPathsRefuseAValueOfAnotherKind() throws {
        let type = try TypedSetterTests().progressType()
        let config = try #require(type.makeDefault())
        let style = try #require(type.property(named: "style"))
        let mismatch = ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "string")
        #expect(throws: mismatch) { try style.set(.string("x"), on: config.handle) }
        #expect(throws: mismatch) { try style.setThroughFFI(.string("x"), on: config.handle) }
    }
}

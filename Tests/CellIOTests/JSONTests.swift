import CellIO
import Testing

/// JSON values as every trace, report and stream line reads and writes them.
@Suite struct JSONTests {
    @Test func roundTripKeepsKeyOrderAndIntegers() throws {
        let text = #"{"b":1,"a":[true,null,2.5,"x\"\n\u00e9"],"c":{"z":-3}}"#
        let v = try JSON.parse(text)
        #expect(v.serialized == #"{"b":1,"a":[true,null,2.5,"x\"\né"],"c":{"z":-3}}"#)
        #expect(try JSON.parse(v.serialized) == v)
        #expect(v["b"]?.intValue == 1)
    }

    @Test func rejectsDuplicateKeysAndTrailingCommas() {
        #expect(throws: JSONSyntaxError.self) { try JSON.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: JSONSyntaxError.self) { try JSON.parse(#"[1,]"#) }
        #expect(throws: JSONSyntaxError.self) { try JSON.parse(#"{"a":1} x"#) }
    }
}

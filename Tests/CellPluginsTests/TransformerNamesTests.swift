import CellKit
import CellTestSupport
import CellIO
import Testing

/// plugin.h names the built-in colour transformers a plugin may ask the host for; a plugin
/// author reads that list, so it must be exactly the set the host answers.
@Suite struct TransformerNamesTests {
    @Test func pluginHeaderListsExactlyTheHostsBuiltInTransformers() throws {
        let header = try #require(readTextFile(BuiltProducts.packageRoot + "/SDK/include/cellhost/plugin.h"))
        let start = try #require(header.range(of: "a built-in by name ("))
        let end = try #require(header[start.upperBound...].firstIndex(of: ")"))
        let listed = header[start.upperBound..<end].split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(listed) == Set(ColorTransformer.builtIn.keys), "plugin.h lists \(listed)")
        #expect(listed.count == Set(listed).count)
    }
}

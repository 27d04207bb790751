import CellTestSupport
import Testing

/// The Rust sample's snapshot stream (Plugins/RustRating/Tests/cellhost), run the way a plugin
/// author's CI runs it, from the plugin's folder, against its committed references. It lives
/// beside the crate rather than in Tests/cellhost because the plugin is built by cargo here,
/// not by `swift build` (`.ci/test` runs Tests/cellhost with the sample plugins only).
@Suite struct RustSnapshotTests {
    @Test func theRustSamplesSnapshotsMatchTheirReferences() throws {
        let plugin = try RustPluginTests.samplePlugin.get()
        let outcome = try Shell.run("cellhost test --plugin '\(plugin)' --record never",
                                    in: BuiltProducts.packageRoot + "/Plugins/RustRating", seconds: 120)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("cellhost test: 6 passed"), "\(outcome.output)")
    }
}

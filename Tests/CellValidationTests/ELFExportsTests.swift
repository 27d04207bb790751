import CellTestSupport
@testable import CellValidation
import Testing

/// The exports `entry-symbol` lists, read through the same bounded ELF reader as the metadata
/// section: defined global and weak symbols only, nil for a file that is not 64-bit ELF.
@Suite struct ELFExportsTests {
    @Test func definedGlobalAndWeakSymbolsAreListedAndNothingElse() throws {
        let path = try PluginCompiler.compile(source: """
            #include "cellhost/plugin.h"
            extern int imported(void);
            static int kept_private(void) { return 1; }
            __attribute__((visibility("hidden"))) int hidden_one(void) { return kept_private(); }
            __attribute__((weak)) int weak_one(void) { return 2; }
            int extra_global = 3;
            CELLHOST_EXPORT int cellhost_plugin_entry(void) { return hidden_one() + imported(); }
            """, name: "exports", extraFlags: "-Wl,--unresolved-symbols=ignore-all")
        let names = try #require(ELFExports.names(inFileAt: path))
        #expect(Set(names.filter { !ELFExports.isIncidental($0) }) == ["cellhost_plugin_entry", "weak_one", "extra_global"])
        #expect(ELFExports.names(inFileAt: "\(BuiltProducts.packageRoot)/README.md") == nil)
    }
}

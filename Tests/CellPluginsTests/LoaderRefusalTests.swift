import CCellHostABI
import CellPlugins
import Glibc
import CellTestSupport
import Testing

/// Every way a library can fail to be a plugin is refused with one sentence naming the file
/// and the problem.
@Suite struct LoaderRefusalTests {
    func refusal(_ path: String, registry: PluginRegistry = PluginRegistry()) -> String? {
        PluginFixtures.refusal(path, registry: registry)
    }

    func compiled(_ source: TestPluginSource, _ name: String, flags: String = "") throws -> String {
        try PluginCompiler.compile(source: source.text, name: name, extraFlags: flags)
    }

    @Test func missingFile() {
        let message = refusal("/nonexistent/dir/plugin.so")
        #expect(message == "/nonexistent/dir/plugin.so: no such file")
    }

    @Test func directory() {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellplugins-test")
        #expect(refusal(dir) == "\(dir): is a directory, not a plugin library")
    }

    @Test func emptyAndNonELFFiles() {
        let dir = BuiltProducts.temporaryDirectory(prefix: "cellplugins-test")
        writeFile("", to: "\(dir)/empty.so")
        writeFile("#!/bin/sh\necho not a library\n", to: "\(dir)/script.so")
        #expect(refusal("\(dir)/empty.so") == "\(dir)/empty.so: is an empty file, not a plugin library")
        #expect(refusal("\(dir)/script.so") == "\(dir)/script.so: is not an ELF shared library (wrong magic bytes)")
    }

    @Test func unresolvedSymbolIsReportedByName() throws {
        var source = TestPluginSource()
        source.prelude = "extern int cellhost_test_missing_function(void);\n"
            + "CELLHOST_EXPORT int uses_missing(void) { return cellhost_test_missing_function(); }"
        let path = try compiled(source, "unresolved")
        let message = try #require(refusal(path))
        #expect(message.hasPrefix("\(path): dlopen failed:"))
        #expect(message.contains("undefined symbol: cellhost_test_missing_function"))
    }

    @Test func missingEntry() throws {
        var source = TestPluginSource()
        source.entryName = "some_other_entry"
        let path = try compiled(source, "noentry")
        #expect(refusal(path) == "\(path): does not export the entry symbol cellhost_plugin_entry")
    }

    @Test func entryReturningNull() throws {
        var source = TestPluginSource()
        source.entryBody = "(void)descriptor; return NULL;"
        let path = try compiled(source, "nullentry")
        #expect(refusal(path) == "\(path): cellhost_plugin_entry returned NULL instead of a descriptor")
    }

    @Test func entryReturningGarbage() throws {
        var unmapped = TestPluginSource()
        unmapped.entryBody = "(void)descriptor; return (const cellhost_plugin_descriptor *)(uintptr_t)0x10;"
        let unmappedPath = try compiled(unmapped, "garbage1")
        #expect(refusal(unmappedPath) == "\(unmappedPath): cellhost_plugin_entry did not return a plugin descriptor: it points to unreadable memory")

        var wrongMagic = TestPluginSource()
        wrongMagic.magic = "0x12345678u"
        let wrongMagicPath = try compiled(wrongMagic, "garbage2")
        #expect(refusal(wrongMagicPath) == "\(wrongMagicPath): cellhost_plugin_entry did not return a plugin descriptor: the magic number is 0x12345678, not CELLHOST_DESCRIPTOR_MAGIC")
    }

    @Test func versionRuleNamesBothVersions() throws {
        var newerMajor = TestPluginSource()
        newerMajor.major = "2"
        newerMajor.minor = "0"
        let majorPath = try compiled(newerMajor, "major2")
        #expect(refusal(majorPath) == "\(majorPath): was built for plugin ABI 2.0, which this host (ABI \(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)) cannot load: the major versions must match and the plugin's minor must not exceed the host's")

        var newerMinor = TestPluginSource()
        newerMinor.minor = "7"
        let minorPath = try compiled(newerMinor, "minor7")
        #expect(refusal(minorPath)?.contains("was built for plugin ABI 1.7, which this host (ABI \(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)) cannot load") == true)
    }

    @Test func malformedDescriptorsAreRefusedWithTheReason() throws {
        var badID = TestPluginSource()
        badID.typeID = "NotReverseDNS"
        let badIDPath = try compiled(badID, "badid")
        #expect(refusal(badIDPath) == "\(badIDPath): has an invalid descriptor: type_id \"NotReverseDNS\" is not a reverse-DNS identifier such as com.example.badge")

        var badEncoding = TestPluginSource()
        badEncoding.encoding = "{Point=dd}"
        let badEncodingPath = try compiled(badEncoding, "badencoding")
        #expect(refusal(badEncodingPath)?.contains("has an invalid descriptor: property com.test.minimal.cell.value: encoding \"{Point=dd}\" does not parse at \"{Point=dd}\"") == true)

        var missingCopy = TestPluginSource()
        missingCopy.copyFunction = "NULL"
        missingCopy.prelude = "#pragma GCC diagnostic ignored \"-Wunused-function\""
        let missingCopyPath = try compiled(missingCopy, "nocopy")
        #expect(refusal(missingCopyPath) == "\(missingCopyPath): has an invalid descriptor: type com.test.minimal.cell lacks required function(s) copy")
    }

    @Test func typeIdentifiersAreUniqueAcrossPlugins() throws {
        let registry = PluginRegistry()
        let first = try compiled(TestPluginSource(), "first")
        var clash = TestPluginSource()
        clash.pluginID = "com.test.other"
        let second = try compiled(clash, "second")
        try registry.load(first)
        #expect(refusal(second, registry: registry) == "\(second): declares type com.test.minimal.cell, which \(first) already provides")
        // Loading the same library again is not a clash: it is the plugin already loaded.
        #expect(try registry.load(first) === registry.plugins[0])
        #expect(registry.plugins.count == 1)
    }
}

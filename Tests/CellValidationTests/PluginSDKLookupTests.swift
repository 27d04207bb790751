import CellIO
@testable import CellValidation
import Glibc
import Testing

/// Where `cellhost sdk` looks: an install prefix beside `bin` first, then the source tree the
/// tool was built from; a tool outside any `bin` folder has only the source tree.
@Suite struct PluginSDKLookupTests {
    let sourceTree = PluginSDK.buildTimePackageRoot

    @Test func anInstalledToolLooksInItsPrefixFirst() {
        let candidates = PluginSDK.candidates(executable: "/opt/cellhost/bin/cellhost")
        #expect(candidates.map(\.layout) == [.installed(prefix: "/opt/cellhost"), .sourceTree(root: sourceTree)])
        #expect(candidates.first?.includeDirectory == "/opt/cellhost/include")
        #expect(candidates.first?.pkgConfigDirectory == "/opt/cellhost/lib/pkgconfig")
    }

    @Test func aBuiltToolFindsTheSourceTreesSDKFolder() throws {
        let sdk = try PluginSDK.locate(executable: "\(sourceTree)/.build/debug/cellhost")
        #expect(sdk.layout == .sourceTree(root: sourceTree))
        #expect(sdk.compilerFlags == "-I\(sourceTree)/SDK/include")
        #expect(try sdk.existingPkgConfigDirectory() == "\(sourceTree)/SDK/pkgconfig")
    }

    @Test func aPrefixWithoutHeadersFallsBackToTheSourceTree() throws {
        let prefix = try #require(makeTemporaryDirectory(prefix: "cellhost-empty-prefix"))
        let sdk = try PluginSDK.locate(executable: "\(prefix)/bin/cellhost")
        #expect(sdk.layout == .sourceTree(root: sourceTree))
    }

    @Test func aMissingPkgConfigFileSaysHowToWriteOne() {
        let sdk = PluginSDK(layout: .installed(prefix: "/opt/c"), includeDirectory: "/opt/c/include",
                            pkgConfigDirectory: "/opt/c/lib/pkgconfig")
        #expect(throws: PluginSDKError.pkgConfigFileNotFound("/opt/c/lib/pkgconfig/cellhost-plugin.pc")) {
            try sdk.existingPkgConfigDirectory()
        }
        #expect(PluginSDKError.pkgConfigFileNotFound("/opt/c/lib/pkgconfig/cellhost-plugin.pc").description
                == "no cellhost-plugin.pc at /opt/c/lib/pkgconfig/cellhost-plugin.pc; write one with `cellhost sdk --write-pc /opt/c/lib/pkgconfig`")
    }
}

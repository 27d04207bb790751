import Glibc

/// What a dead worker tells a plugin's author, worded the same by `run`, `inspect` and
/// `validate`: one sentence (how it ended and in which phase), then the plugin's own last words
/// (what it or libc printed before the Swift runtime's backtrace), then the backtrace frames
/// inside the plugin. The backtracer's registers, library list and timing say nothing about the
/// plugin and are dropped; every part is bounded, so a chatty plugin cannot bloat the report.
public struct WorkerDeathReport: Sendable {
    /// Lines of the plugin's own output kept (its last ones), and the longest line kept whole.
    public static let outputLineLimit = 4
    public static let frameLimit = 3
    public static let lineLengthLimit = 240

    /// "the worker crashed with SIGABRT while applying …".
    public var sentence: String
    /// The plugin's last output lines, then `in the plugin: <frame>` lines.
    public var evidence: [String]
    /// The worker stopped on a trap in cellhost's own code (`hostTrapFrame`): the sentence says
    /// so, and the failure is the host's, not the plugin's.
    public private(set) var isHostFailure = false

    /// `phase`: a clause naming what the worker was doing ("while loading x.so"), nil when
    /// unknown. `pluginFiles`: paths or file names of the plugins the worker loaded, to find
    /// their frames. `rerun`: the command to repeat under the AddressSanitizer preload
    /// ("cellhost run --in-process …"). `executable`: the worker's, to tell its frames.
    public init(_ result: WorkerResult, phase: String?, pluginFiles: [String], rerun: String,
                executable: String = WorkerProcess.currentExecutablePath) {
        let output = Self.ownOutput(result.standardError)
        if case .exited = result.termination, let hint = Self.addressSanitizerHint(output, rerun: rerun) {
            sentence = hint
            evidence = []
            return
        }
        sentence = "the worker \(result.termination)" + (phase.map { " " + $0 } ?? "")
        if let frame = Self.hostTrapFrame(result, executable: executable) {
            isHostFailure = true
            sentence = "cellhost failed in its own code (a bug in cellhost, not in the plugin): \(sentence) in \(frame)"
        }
        if case .channelFault(let fault) = result.termination { sentence += ": \(fault)" }
        let images = Set(pluginFiles.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        evidence = output.suffix(Self.outputLineLimit).map(Self.bounded)
            + Self.pluginFrames(result.standardError, images: images).prefix(Self.frameLimit).map { "in the plugin: " + Self.bounded($0) }
    }

    /// The sentence, then each piece of evidence on its own indented line.
    public var text: String { ([sentence] + evidence).joined(separator: "\n  ") }

    /// The worker's stderr up to the Swift backtracer's first line, without blank lines.
    static func ownOutput(_ standardError: String) -> [Substring] {
        var lines: [Substring] = []
        for line in standardError.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("*** Signal ") || line.hasPrefix("*** Program crashed") || line.hasPrefix("💣 Program crashed") { break }
            if line.allSatisfy(\.isWhitespace) { continue }
            lines.append(line)
        }
        return lines
    }

    /// Frames of the backtrace whose image is one of `images`, as "symbol + offset in lib.so at
    /// file:line" (the frame number and address dropped).
    static func pluginFrames(_ standardError: String, images: Set<String>) -> [Substring] {
        guard !images.isEmpty else { return [] }
        return crashedThreadFrames(standardError).filter { images.contains(String($0.image)) }.map(\.text)
    }

    /// The crashed thread's frames in the Swift backtracer's report, innermost first: each as
    /// "symbol + offset in image at file:line" and its image's file name.
    static func crashedThreadFrames(_ standardError: String) -> [(text: Substring, image: Substring)] {
        guard let crashed = standardError.firstRange(of: " crashed:\n") else { return [] }
        var frames: [(text: Substring, image: Substring)] = []
        for line in standardError[crashed.upperBound...].split(separator: "\n") {
            if line.hasPrefix("Registers:") || line.hasPrefix("Images") || line.hasPrefix("Thread ") { break }
            guard let address = line.firstRange(of: " 0x") else { continue }
            let rest = line[address.upperBound...].drop { !$0.isWhitespace }.drop { $0.isWhitespace }
            guard let inRange = rest.firstRange(of: " in ") else { continue }
            frames.append((rest, rest[inRange.upperBound...].prefix { !$0.isWhitespace }))
        }
        return frames
    }

    /// The frame of host code a trap stopped the worker in, or nil. A Swift trap (a failed
    /// precondition, an overflow, a non-finite value converted to an integer: SIGILL, or SIGTRAP
    /// on arm64) whose innermost frame outside the Swift runtime and the system's libraries lies
    /// in the worker's own executable is a check that failed in cellhost's code: every value a
    /// plugin hands over is checked before host code uses it, so such a trap is the host's bug,
    /// whichever plugin ran, and is not blamed on the plugin. A trap inside a plugin, any other
    /// signal (a wild write by a plugin may surface anywhere), and a crash without the
    /// backtracer's report (it is off where nothing may be executed) stay the plugin's.
    public static func hostTrapFrame(_ result: WorkerResult, executable: String) -> String? {
        guard case .signaled(let signal) = result.termination, signal == SIGILL || signal == SIGTRAP else { return nil }
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        let first = crashedThreadFrames(result.standardError).first { !isSystemImage($0.image) }
        guard let first, first.image == name else { return nil }
        return bounded(first.text)
    }

    /// The Swift runtime, the C and C++ runtimes, the dynamic loader and libffi: code a trap
    /// passes through on its way from whoever made the failing call.
    static func isSystemImage(_ image: Substring) -> Bool {
        ["libswift", "libc.so", "libc-", "ld-linux", "libm.so", "libstdc++", "libgcc_s", "libpthread", "libFoundation",
         "libdispatch", "libBlocksRuntime", "libffi"].contains { image.hasPrefix($0) }
    }

    /// A plugin built with AddressSanitizer ends the worker at load time unless the sanitizer's
    /// runtime was loaded before everything else; the one useful thing to say is how to do that.
    static func addressSanitizerHint(_ output: [Substring], rerun: String) -> String? {
        guard output.contains(where: { $0.contains("ASan runtime does not come first") }) else { return nil }
        return "the plugin was built with AddressSanitizer, whose runtime must be loaded first: run "
            + "ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(cc -print-file-name=libasan.so) \(rerun)"
    }

    static func bounded(_ line: Substring) -> String {
        line.count <= lineLengthLimit ? String(line) : line.prefix(lineLengthLimit) + "…"
    }
}

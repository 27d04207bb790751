/// How far a snapshot's pixels may stray from its reference, set per stream in its scene line
/// (`"tolerance": {"channel": 2, "pixels": 0.001}`). A pixel differs when any channel differs by
/// more than `channel`; a capture matches when at most `pixels` (a fraction of its pixels) differ.
/// The default is exact: frames are the same bytes from run to run on one machine, and a
/// tolerance exists only for references recorded where fonts rasterise differently.
public struct ImageTolerance: Sendable, Equatable {
    public var channel: Int
    public var pixelFraction: Double

    public init(channel: Int = 0, pixelFraction: Double = 0) {
        self.channel = channel
        self.pixelFraction = pixelFraction
    }

    public static let exact = ImageTolerance()
}

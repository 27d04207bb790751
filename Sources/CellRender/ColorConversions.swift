import CellKit

/// The premultiplied ARGB32 of the last few colours a rasterizer converted, found by comparing
/// their light appearance (what `premultipliedARGB` reads): a redrawn row asks again for the
/// same few colours, and comparing four components costs less than clamping and rounding them.
struct ColorConversions {
    private var recent = RecentItems<(rgba: RGBA, argb: UInt32)>(limit: 8)

    mutating func argb(_ color: Color) -> UInt32 {
        let rgba = color.light
        for i in recent.entries.indices where recent.entries[i].rgba == rgba { return recent.entries[i].argb }
        let argb = color.premultipliedARGB
        recent.remember((rgba, argb))
        return argb
    }
}

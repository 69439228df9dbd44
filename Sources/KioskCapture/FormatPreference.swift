/// One entry of `VIDIOC_ENUM_FMT`: a pixel format the device (or libv4l2 on its behalf) offers.
struct OfferedFormat: Equatable, Sendable {
    var pixelFormat: FourCC
    /// `V4L2_FMT_FLAG_EMULATED`: libv4l2 converts to it in software.
    var isEmulated: Bool
}

/// Which offered format is cheapest to turn into 8-bit grey.
enum FormatPreference {
    /// Cheapest first: grey as is; packed 4:2:2 (pick every second byte); planar formats whose first plane is
    /// luma; RGB (three multiplies per pixel).
    static let order: [FourCC] = [.grey, .yuyv, .uyvy, .yuv420, .yvu420, .nv12, .nv21, .rgb24, .bgr24]

    /// The usable offered formats, best first: every native format before any emulated one (libv4l2's
    /// conversion costs a pass over the frame, for example decoding MJPEG), then by `order`.
    /// With `only` (the request's `pixelFormats`), just those of them that are offered and convertible, in
    /// that order.
    static func ranked(_ offered: [OfferedFormat], only: [FourCC]? = nil) -> [OfferedFormat] {
        var seen = Set<FourCC>()
        let usable = offered.filter { order.contains($0.pixelFormat) && seen.insert($0.pixelFormat).inserted }
        if let only {
            return only.compactMap { wanted in usable.first { $0.pixelFormat == wanted } }
        }
        return usable.sorted { a, b in
            if a.isEmulated != b.isEmulated { return !a.isEmulated }
            return order.firstIndex(of: a.pixelFormat)! < order.firstIndex(of: b.pixelFormat)!
        }
    }
}

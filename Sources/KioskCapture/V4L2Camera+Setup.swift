internal import CV4L2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension V4L2Camera {
    static let captureType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue

    /// `VIDIOC_QUERYCAP`: the device must capture video and stream. Returns the driver's and the card's names.
    static func checkCapabilities(_ handle: V4L2Handle) throws(CaptureError) -> (driver: String, card: String) {
        var capability = v4l2_capability()
        try handle.ioctl(.queryCapabilities, &capability)
        let all = capability.capabilities
        let capabilities = all & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : all
        let driver = cString(capability.driver)
        let card = cString(capability.card)
        let missing = [
            capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) == 0 ? "video capture" : nil,
            capabilities & UInt32(V4L2_CAP_STREAMING) == 0 ? "streaming" : nil,
        ].compactMap { $0 }
        guard missing.isEmpty else {
            throw CaptureError(
                call: V4L2Request.queryCapabilities.name, action: V4L2Request.queryCapabilities.action, errno: 0,
                devicePath: handle.path,
                detail: "\(card) (\(driver)) has no \(missing.joined(separator: " or ")) capability")
        }
        return (driver, card)
    }

    /// `VIDIOC_ENUM_FMT` until the driver says EINVAL: every format offered, libv4l2's emulated ones included.
    static func offeredFormats(_ handle: V4L2Handle) throws(CaptureError) -> [OfferedFormat] {
        var offered: [OfferedFormat] = []
        for index in 0..<UInt32(64) {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = captureType
            do throws(CaptureError) {
                try handle.ioctl(.enumerateFormats, &description)
            } catch  where error.errno == EINVAL {
                break
            }
            offered.append(
                OfferedFormat(
                    pixelFormat: FourCC(rawValue: description.pixelformat),
                    isEmulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0))
        }
        return offered
    }

    /// `VIDIOC_S_FMT` with the best offered format and the requested size; accepts the size the driver gives
    /// back. Falls back to the next format when the driver refuses one or substitutes one we cannot convert.
    static func setFormat(
        _ handle: V4L2Handle, offered: [OfferedFormat], width: Int, height: Int, only: [String]? = nil
    ) throws(CaptureError) -> (format: CaptureFormat, layout: LumaLayout) {
        let candidates = FormatPreference.ranked(offered, only: only?.compactMap { FourCC(name: $0) })
        var lastError: CaptureError?
        for candidate in candidates {
            var format = v4l2_format()
            format.type = captureType
            format.fmt.pix.width = UInt32(clamping: width)
            format.fmt.pix.height = UInt32(clamping: height)
            format.fmt.pix.pixelformat = candidate.pixelFormat.rawValue
            format.fmt.pix.field = V4L2_FIELD_ANY.rawValue
            do throws(CaptureError) {
                try handle.ioctl(.setFormat, &format)
            } catch  where error.errno == EINVAL {
                lastError = error
                continue
            }
            let pixelFormat = FourCC(rawValue: format.fmt.pix.pixelformat)
            guard let layout = LumaLayout(pixelFormat), format.fmt.pix.width > 0, format.fmt.pix.height > 0 else {
                continue
            }
            let gotWidth = Int(format.fmt.pix.width)
            let reportedStride = Int(format.fmt.pix.bytesperline)
            let emulated = offered.first { $0.pixelFormat == pixelFormat }?.isEmulated ?? candidate.isEmulated
            let captureFormat = CaptureFormat(
                pixelFormat: pixelFormat, width: gotWidth, height: Int(format.fmt.pix.height),
                bytesPerLine: max(reportedStride, layout.rowBytes(width: gotWidth)), isEmulated: emulated)
            return (captureFormat, layout)
        }
        if let lastError { throw lastError }
        let names = offered.map { "\($0.pixelFormat)\($0.isEmulated ? " (emulated)" : "")" }
        let wanted = only.map { " requested [\($0.joined(separator: ", "))]" } ?? ""
        throw CaptureError(
            call: V4L2Request.enumerateFormats.name, action: V4L2Request.enumerateFormats.action, errno: 0,
            devicePath: handle.path,
            detail: "no format convertible to grey\(wanted) among [\(names.joined(separator: ", "))]")
    }

    /// `VIDIOC_REQBUFS` for `count` memory-mapped buffers, then `VIDIOC_QUERYBUF` and `v4l2_mmap` for each.
    /// On failure unmaps what it mapped.
    static func mapBuffers(_ handle: V4L2Handle, count: Int) throws(CaptureError) -> [MappedBuffer] {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = captureType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try handle.ioctl(.requestBuffers, &request)
        guard request.count >= 2 else {
            throw CaptureError(
                call: V4L2Request.requestBuffers.name, action: V4L2Request.requestBuffers.action, errno: ENOMEM,
                devicePath: handle.path, detail: "driver granted \(request.count) buffers, need at least 2")
        }
        var mapped: [MappedBuffer] = []
        do throws(CaptureError) {
            for index in 0..<request.count {
                var buffer = v4l2_buffer()
                buffer.index = index
                buffer.type = captureType
                buffer.memory = V4L2_MEMORY_MMAP.rawValue
                try handle.ioctl(.queryBuffer, &buffer)
                let length = Int(buffer.length)
                let offset = Int64(buffer.m.offset)
                let fd = handle.fd
                let start = try systemCall(
                    "mmap", "mapping video buffer", device: handle.path, failed: { $0 == MAP_FAILED },
                    { v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset) })
                guard let start, let start else {
                    throw CaptureError(
                        call: "mmap", action: "mapping video buffer", errno: EAGAIN, devicePath: handle.path)
                }
                mapped.append(MappedBuffer(start: start, length: length))
            }
        } catch {
            unmap(mapped)
            throw error
        }
        return mapped
    }

    /// `v4l2_munmap` each buffer; errors ignored (nothing left to do about them).
    static func unmap(_ buffers: [MappedBuffer]) {
        for buffer in buffers { _ = v4l2_munmap(buffer.start, buffer.length) }
    }

    /// A fixed-size C char array (`__u8 driver[16]`) as a String.
    static func cString<Tuple>(_ tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

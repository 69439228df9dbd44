internal import CV4L2
import GrayImage
import KioskCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension V4L2Camera {
    /// Waits up to `timeout` for a frame, then takes every further frame that is ready and keeps only the newest:
    /// older ones go straight back to the driver unconverted, so the decoder never works on an older picture
    /// than it must. Call it continuously (from a capture thread handing frames on with "newest wins"): while
    /// nobody calls it, the driver fills all four buffers and then drops frames, so the first frame after a
    /// stall of the caller is the one that filled the last buffer, from the start of the stall.
    ///
    /// Returns nil when no frame came in time (or the only ones were corrupt). Throws a `CaptureError` naming
    /// the failing call; `isDisconnect` is true when the camera went away.
    ///
    /// The corresponding C calls are `poll`, then `v4l2_ioctl` with `VIDIOC_DQBUF` (non-blocking; EAGAIN means no
    /// frame) and `poll` with no timeout while more are ready, and `VIDIOC_QBUF`.
    public func nextFrame(timeout: Duration) throws(CaptureError) -> GrayFrame? {
        let events = try waitForFrame(timeout: timeout)
        guard events != 0 else { return nil }
        var newest: v4l2_buffer?
        var dequeued = 0
        // Take buffers while poll says more are done. Asking DQBUF until EAGAIN would do the same, but libv4l2
        // 1.22 prints "libv4l2: error dequeuing buf: Resource temporarily unavailable" to stderr on every EAGAIN.
        while dequeued < buffers.count * 2 {
            if dequeued > 0, try waitForFrame(timeout: .zero) == 0 { break }
            guard let buffer = try dequeueBuffer() else { break }
            dequeued += 1
            if !isUsable(buffer) {
                statistics.corruptFramesDropped += 1
                try Self.queueBuffer(handle, index: Int(buffer.index))
                continue
            }
            if let older = newest {
                statistics.staleFramesDropped += 1
                try Self.queueBuffer(handle, index: Int(older.index))
            }
            newest = buffer
        }
        guard let newest else {
            if dequeued == 0, events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                // poll says the device is in error but DQBUF has nothing to say: report poll's verdict.
                throw CaptureError(
                    call: "poll", action: "waiting for a video frame", errno: EIO, devicePath: handle.path,
                    detail: "poll revents 0x\(String(events, radix: 16))")
            }
            return nil
        }
        let frame = convert(newest)
        try Self.queueBuffer(handle, index: Int(newest.index))
        guard let frame else {
            statistics.corruptFramesDropped += 1
            return nil
        }
        statistics.framesDelivered += 1
        statistics.lastSequence = newest.sequence
        return frame
    }

    /// `poll` for readability until `timeout`; returns the events (0 on timeout). Retries EINTR with the time left.
    func waitForFrame(timeout: Duration) throws(CaptureError) -> Int16 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(timeout, .zero))
        var descriptor = pollfd(fd: handle.fd, events: Int16(POLLIN), revents: 0)
        let ready = try systemCall("poll", "waiting for a video frame", device: handle.path) {
            let left = clock.now.duration(to: deadline)
            let milliseconds = max(
                0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            return poll(&descriptor, 1, Int32(clamping: milliseconds))
        }
        guard let ready, ready > 0 else { return 0 }
        return descriptor.revents
    }

    /// Non-blocking `VIDIOC_DQBUF`; nil when no buffer is ready (EAGAIN).
    func dequeueBuffer() throws(CaptureError) -> v4l2_buffer? {
        var buffer = v4l2_buffer()
        buffer.type = Self.captureType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        guard try handle.ioctl(.dequeueBuffer, &buffer) else { return nil }
        return buffer
    }

    /// Not flagged corrupt by the driver and long enough for the format.
    func isUsable(_ buffer: v4l2_buffer) -> Bool {
        guard buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) == 0, Int(buffer.index) < buffers.count else { return false }
        return filledBytes(buffer)
            >= GrayConversion.requiredBytes(
                layout: layout, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine)
    }

    /// `bytesused`, or the whole buffer for old drivers that leave it 0.
    func filledBytes(_ buffer: v4l2_buffer) -> Int {
        let length = buffers[Int(buffer.index)].length
        return buffer.bytesused == 0 ? length : min(Int(buffer.bytesused), length)
    }

    func convert(_ buffer: v4l2_buffer) -> GrayFrame? {
        let mapped = buffers[Int(buffer.index)]
        return GrayConversion.grayFrame(
            from: UnsafeRawBufferPointer(start: mapped.start, count: filledBytes(buffer)), layout: layout,
            width: format.width, height: format.height, bytesPerLine: format.bytesPerLine)
    }

    /// `VIDIOC_QBUF`: hand buffer `index` back to the driver to fill.
    static func queueBuffer(_ handle: V4L2Handle, index: Int) throws(CaptureError) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = captureType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try handle.ioctl(.queueBuffer, &buffer)
    }

    /// `VIDIOC_STREAMON`.
    static func startStreaming(_ handle: V4L2Handle) throws(CaptureError) {
        var type = Int32(captureType)
        try handle.ioctl(.streamOn, &type)
    }

    /// `VIDIOC_STREAMOFF`: stops capture and returns every buffer to us (none stays queued).
    static func stopStreaming(_ handle: V4L2Handle) throws(CaptureError) {
        var type = Int32(captureType)
        try handle.ioctl(.streamOff, &type)
    }

    static func stopStreamingIgnoringErrors(_ handle: V4L2Handle) {
        _ = try? stopStreaming(handle)
    }

    /// `VIDIOC_STREAMOFF`, `body`, then `VIDIOC_QBUF` for every buffer and `VIDIOC_STREAMON`: for settings the
    /// driver refuses to change while streaming (EBUSY).
    func withStreamStopped<T>(_ body: () throws(CaptureError) -> T) throws(CaptureError) -> T {
        try Self.stopStreaming(handle)
        isStreaming = false
        statistics.streamRestarts += 1
        let result: T
        do throws(CaptureError) {
            result = try body()
        } catch {
            try restartStreaming()
            throw error
        }
        try restartStreaming()
        return result
    }

    private func restartStreaming() throws(CaptureError) {
        for index in buffers.indices { try Self.queueBuffer(handle, index: index) }
        try Self.startStreaming(handle)
        isStreaming = true
    }
}

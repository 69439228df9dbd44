internal import CV4L2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `VIDIOC_G_PARM`/`VIDIOC_S_PARM` said about the frame interval.
struct FrameRateState: Equatable {
    /// `V4L2_CAP_TIMEPERFRAME`: the driver lets us set the interval.
    var supported: Bool
    /// 1 / timeperframe; nil when the driver reports no interval.
    var framesPerSecond: Double?
}

extension V4L2Camera {
    /// Asks the driver to deliver `fps` frames per second (`VIDIOC_S_PARM`, timeperframe = 1/fps) and reads
    /// back the rate it chose into `frameRate`.
    ///
    /// Returns true when the driver now paces the stream at no more than `fps` (within 5%), false when the
    /// driver cannot set the rate (no `V4L2_CAP_TIMEPERFRAME`, or it refused or ignored the request): the caller
    /// then drops frames in software to reach its rate. If the driver refuses while streaming (EBUSY, as
    /// uvcvideo does), the stream is stopped, the rate set and the stream restarted. Throws only when the camera
    /// fails (for example it was unplugged).
    @discardableResult
    public func setFrameRate(_ fps: Double) throws(CaptureError) -> Bool {
        guard fps.isFinite, fps > 0 else { return false }
        let current = try Self.readFrameRate(handle)
        supportsFrameRate = current.supported
        frameRate = current.framesPerSecond
        guard current.supported else { return false }
        let state: FrameRateState?
        do throws(CaptureError) {
            state = try Self.writeFrameRate(handle, fps)
        } catch  where error.errno == EBUSY && isStreaming {
            state = try withStreamStopped { () throws(CaptureError) in try Self.writeFrameRate(handle, fps) }
        }
        guard let state else { return false }
        frameRate = state.framesPerSecond
        guard let rate = state.framesPerSecond else { return false }
        return rate <= fps * 1.05
    }

    /// `VIDIOC_G_PARM`. A driver without it (ENOTTY, EINVAL) supports no frame interval.
    static func readFrameRate(_ handle: V4L2Handle) throws(CaptureError) -> FrameRateState {
        var parameters = v4l2_streamparm()
        parameters.type = captureType
        do throws(CaptureError) {
            try handle.ioctl(.getParameters, &parameters)
        } catch  where error.errno == ENOTTY || error.errno == EINVAL {
            return FrameRateState(supported: false, framesPerSecond: nil)
        }
        let capture = parameters.parm.capture
        return FrameRateState(
            supported: capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0,
            framesPerSecond: framesPerSecond(
                numerator: capture.timeperframe.numerator,
                denominator: capture.timeperframe.denominator))
    }

    /// `VIDIOC_S_PARM` with timeperframe = 1000 / (fps * 1000); returns what the driver set, nil when it refused
    /// (ENOTTY, EINVAL). EBUSY and other errors are thrown.
    static func writeFrameRate(_ handle: V4L2Handle, _ fps: Double) throws(CaptureError) -> FrameRateState? {
        var parameters = v4l2_streamparm()
        parameters.type = captureType
        parameters.parm.capture.timeperframe = v4l2_fract(
            numerator: 1000, denominator: UInt32(clamping: Int((fps * 1000).rounded())))
        do throws(CaptureError) {
            try handle.ioctl(.setParameters, &parameters)
        } catch  where error.errno == ENOTTY || error.errno == EINVAL {
            return nil
        }
        // Only called when G_PARM said V4L2_CAP_TIMEPERFRAME; some drivers leave `capability` 0 in S_PARM's answer.
        let interval = parameters.parm.capture.timeperframe
        return FrameRateState(
            supported: true,
            framesPerSecond: framesPerSecond(numerator: interval.numerator, denominator: interval.denominator))
    }

    static func framesPerSecond(numerator: UInt32, denominator: UInt32) -> Double? {
        numerator == 0 || denominator == 0 ? nil : Double(denominator) / Double(numerator)
    }
}

internal import CV4L2

/// A V4L2 ioctl with its name and what it does, for error messages (zbar's wording where zbar has one).
struct V4L2Request: Sendable {
    let name: String
    let action: String
    let code: UInt

    static let queryCapabilities = V4L2Request(
        name: "VIDIOC_QUERYCAP", action: "querying device capabilities", code: CV4L2_VIDIOC_QUERYCAP())
    static let enumerateFormats = V4L2Request(
        name: "VIDIOC_ENUM_FMT", action: "enumerating video formats", code: CV4L2_VIDIOC_ENUM_FMT())
    static let getFormat = V4L2Request(name: "VIDIOC_G_FMT", action: "querying format", code: CV4L2_VIDIOC_G_FMT())
    static let setFormat = V4L2Request(name: "VIDIOC_S_FMT", action: "setting format", code: CV4L2_VIDIOC_S_FMT())
    static let requestBuffers = V4L2Request(
        name: "VIDIOC_REQBUFS", action: "requesting video frame buffers", code: CV4L2_VIDIOC_REQBUFS())
    static let queryBuffer = V4L2Request(
        name: "VIDIOC_QUERYBUF", action: "querying video buffer", code: CV4L2_VIDIOC_QUERYBUF())
    static let queueBuffer = V4L2Request(
        name: "VIDIOC_QBUF", action: "queuing video buffer", code: CV4L2_VIDIOC_QBUF())
    static let dequeueBuffer = V4L2Request(
        name: "VIDIOC_DQBUF", action: "dequeuing video buffer", code: CV4L2_VIDIOC_DQBUF())
    static let streamOn = V4L2Request(
        name: "VIDIOC_STREAMON", action: "starting video stream", code: CV4L2_VIDIOC_STREAMON())
    static let streamOff = V4L2Request(
        name: "VIDIOC_STREAMOFF", action: "stopping video stream", code: CV4L2_VIDIOC_STREAMOFF())
    static let getParameters = V4L2Request(
        name: "VIDIOC_G_PARM", action: "querying frame interval", code: CV4L2_VIDIOC_G_PARM())
    static let setParameters = V4L2Request(
        name: "VIDIOC_S_PARM", action: "setting frame interval", code: CV4L2_VIDIOC_S_PARM())
}

/// A libv4l2 file descriptor and its path; does not own the descriptor (`V4L2Camera` does).
struct V4L2Handle {
    let fd: Int32
    let path: String

    /// `v4l2_ioctl(fd, request, &argument)`. Returns false when the device answered EAGAIN (no buffer ready).
    @discardableResult
    func ioctl<Argument>(_ request: V4L2Request, _ argument: inout Argument) throws(CaptureError) -> Bool {
        let fd = self.fd
        return try systemCall(request.name, request.action, device: path) {
            withUnsafeMutablePointer(to: &argument) { CV4L2_ioctl(fd, request.code, $0) }
        } != nil
    }
}

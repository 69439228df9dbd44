import Glibc
import Testing

@testable import KioskCapture

struct CaptureErrorTests {
    @Test func descriptionNamesTheIoctlTheDeviceAndTheErrno() {
        let error = CaptureError(
            call: V4L2Request.queueBuffer.name, action: V4L2Request.queueBuffer.action, errno: ENODEV,
            devicePath: "/dev/video0")
        #expect(
            error.description.hasPrefix(
                "/dev/video0: queuing video buffer (VIDIOC_QBUF) failed: No such device (errno 19)."))
        #expect(error.description.contains("Camera disconnected"))
        #expect(error.isDisconnect)
    }

    @Test(arguments: [
        (ENODEV, "VIDIOC_DQBUF", true), (ENXIO, "open", true), (EIO, "VIDIOC_DQBUF", true),
        (ENOENT, "open", true), (ENOENT, "VIDIOC_S_FMT", false), (EBUSY, "VIDIOC_S_FMT", false),
        (EACCES, "open", false), (EINVAL, "VIDIOC_S_FMT", false), (0, "VIDIOC_QUERYCAP", false),
    ])
    func disconnectErrnos(errno: Int32, call: String, disconnect: Bool) {
        let error = CaptureError(call: call, action: "x", errno: errno, devicePath: "/dev/video0")
        #expect(error.isDisconnect == disconnect)
    }

    @Test func adviceForTheUsualOperatorProblems() {
        func advice(_ errno: Int32, _ call: String = "VIDIOC_S_FMT") -> String {
            CaptureError(call: call, action: "x", errno: errno, devicePath: "/dev/video0").advice
        }
        #expect(advice(EACCES, "open").contains("'video' group"))
        #expect(advice(EBUSY).contains("in use by another program"))
        #expect(advice(ENOENT, "open").contains("plug in the webcam"))
    }

    @Test func errorWithoutErrnoSaysWhatWasWrong() {
        let error = CaptureError(
            call: "VIDIOC_ENUM_FMT", action: "enumerating video formats", errno: 0, devicePath: "/dev/video2",
            detail: "no format convertible to grey among [MJPG]")
        #expect(
            error.description.hasPrefix(
                "/dev/video2: enumerating video formats (VIDIOC_ENUM_FMT) failed: no format convertible to grey among [MJPG]."
            ))
        #expect(!error.description.contains("errno"))
    }

    @Test func everyRequestIsNamedAfterItsIoctl() {
        let requests: [V4L2Request] = [
            .queryCapabilities, .enumerateFormats, .getFormat, .setFormat, .requestBuffers, .queryBuffer,
            .queueBuffer, .dequeueBuffer, .streamOn, .streamOff, .getParameters, .setParameters,
        ]
        #expect(Set(requests.map(\.code)).count == requests.count)
        #expect(requests.allSatisfy { $0.name.hasPrefix("VIDIOC_") && !$0.action.isEmpty })
        // Codes from linux/videodev2.h on x86_64 (_IOR('V', 0, struct v4l2_capability) etc.).
        #expect(V4L2Request.queryCapabilities.code == 0x8068_5600)
        #expect(V4L2Request.queueBuffer.code == 0xC058_560F)
        #expect(V4L2Request.streamOn.code == 0x4004_5612)
    }

    @Test func openingAMissingDeviceIsADisconnect() {
        #expect {
            _ = try V4L2Camera(CameraRequest(devicePath: "/nonexistent/video9"))
        } throws: { error in
            let error = error as! CaptureError
            return error.call == "open" && error.errno == ENOENT && error.isDisconnect
        }
    }

    /// libv4l2's `v4l2_open` itself queries the capabilities and fails with ENOTTY on a non-V4L2 file.
    @Test func openingSomethingThatIsNotACameraSaysSo() {
        #expect {
            _ = try V4L2Camera(CameraRequest(devicePath: "/dev/null"))
        } throws: { error in
            let error = error as! CaptureError
            return error.call == "open" && error.errno == ENOTTY && !error.isDisconnect
                && error.description.contains("probably not a camera")
        }
    }

    @Test func frameIntervalToRate() {
        #expect(V4L2Camera.framesPerSecond(numerator: 1001, denominator: 60000)! > 59.94)
        #expect(V4L2Camera.framesPerSecond(numerator: 1, denominator: 30) == 30)
        #expect(V4L2Camera.framesPerSecond(numerator: 0, denominator: 30) == nil)
    }
}

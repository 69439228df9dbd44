import Testing

@testable import KioskCapture

struct FourCCTests {
    @Test func packsLittleEndianLikeV4L2Fourcc() {
        #expect(FourCC("GREY").rawValue == 0x5945_5247)
        #expect(FourCC.yuyv.rawValue == 0x5659_5559)
        #expect(FourCC.yuv420.rawValue == 0x3231_5559)
        #expect(FourCC.rgb24.rawValue == 0x3342_4752)
    }

    @Test func namesAsV4l2CtlPrintsThem() {
        #expect(FourCC.grey.description == "GREY")
        #expect(FourCC.rgb24.description == "RGB3")
        #expect(FourCC.bgr24.description == "BGR3")
        #expect(FourCC(rawValue: 0x5945_5247).description == "GREY")
        #expect(FourCC(rawValue: 0x2036_3159).description == "Y16 ")
        #expect(FourCC(rawValue: 0x0001_4241).description == "AB..")
    }

    @Test func captureFormatReportsItsFourCC() {
        let format = CaptureFormat(pixelFormat: .yuv420, width: 640, height: 480, bytesPerLine: 640, isEmulated: true)
        #expect(format.fourCC == "YU12")
        #expect(format.description == "YU12 640x480 bytesperline=640 emulated by libv4l2")
    }

    @Test func everyPreferredFormatHasALumaLayout() {
        for pixelFormat in FormatPreference.order { #expect(LumaLayout(pixelFormat) != nil, "\(pixelFormat)") }
        #expect(LumaLayout(.mjpeg) == nil)
    }
}

struct FormatPreferenceTests {
    func names(_ offered: [(String, Bool)]) -> [String] {
        FormatPreference.ranked(
            offered.map { name, emulated in
                OfferedFormat(pixelFormat: FourCC(rawValue: fourcc(name)), isEmulated: emulated)
            }
        ).map(\.pixelFormat.description)
    }

    func fourcc(_ name: String) -> UInt32 {
        name.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    @Test func greyBeatsYuyv() {
        #expect(names([("YUYV", false), ("GREY", false)]) == ["GREY", "YUYV"])
    }

    @Test func yuyvBeatsUyvyAndWhatLibv4l2Emulates() {
        #expect(
            names([("MJPG", false), ("RGB3", true), ("UYVY", false), ("YU12", true), ("YUYV", false)])
                == ["YUYV", "UYVY", "YU12", "RGB3"])
    }

    @Test func mjpegOnlyCameraGetsLibv4l2sPlanarYuv() {
        // What libv4l2 offers for a typical MJPEG-only webcam.
        #expect(
            names([("MJPG", false), ("RGB3", true), ("BGR3", true), ("YU12", true), ("YV12", true)])
                == ["YU12", "YV12", "RGB3", "BGR3"])
    }

    @Test func nativeRgbBeatsEmulatedPlanar() {
        #expect(names([("RGB3", false), ("YU12", true)]) == ["RGB3", "YU12"])
    }

    @Test func nothingUsable() {
        #expect(names([("MJPG", false), ("H264", false)]).isEmpty)
        #expect(names([]).isEmpty)
    }

    @Test func requestedFormatsRestrictAndOrder() {
        let offered = [("GREY", false), ("YUYV", false), ("MJPG", false)].map {
            OfferedFormat(pixelFormat: FourCC(name: $0.0)!, isEmulated: $0.1)
        }
        let ranked = FormatPreference.ranked(offered, only: [FourCC(name: "MJPG")!, .uyvy, .yuyv])
        #expect(ranked.map(\.pixelFormat) == [.yuyv])
    }

    @Test func fourCCFromName() {
        #expect(FourCC(name: "YUYV") == .yuyv)
        #expect(FourCC(name: "Y16")?.description == "Y16 ")
        #expect(FourCC(name: "") == nil)
        #expect(FourCC(name: "TOOLONG") == nil)
    }

    @Test func duplicatesCountOnce() {
        #expect(names([("YUYV", false), ("YUYV", false)]) == ["YUYV"])
    }
}

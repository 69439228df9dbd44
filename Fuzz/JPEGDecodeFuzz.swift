// libFuzzer entry point for the JPEG loader (TurboJPEG). See ImageDecodeFuzz.swift.

import ImageFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func jpegDecodeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // JPEG is lossy: the decoded frame must encode, but need not come back the same.
    fuzzImageDecode(data, size) { frame in
        _ = try ImageFile.encodeJPEG(frame)
        return nil
    }
    return 0
}

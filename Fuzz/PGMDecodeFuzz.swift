// libFuzzer entry point for the binary PGM loader (Swift). See ImageDecodeFuzz.swift.

import KioskImageIO

@_cdecl("LLVMFuzzerTestOneInput")
public func pgmDecodeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImageDecode(data, size) { ImageFile.encodePGM($0) }
    return 0
}

// libFuzzer entry point for the binary PGM loader (Swift). See ImageDecodeFuzz.swift.

import ImageFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func pgmDecodeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImageDecode(data, size) { ImageFile.encodePGM($0) }
    return 0
}

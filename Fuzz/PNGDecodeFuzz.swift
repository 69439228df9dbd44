// libFuzzer entry point for the PNG loader (libpng's simplified API). See ImageDecodeFuzz.swift.

import ImageFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func pngDecodeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImageDecode(data, size) { try ImageFile.encodePNG($0) }
    return 0
}

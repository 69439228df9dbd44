internal import CFreeType

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension FramebufferError {
    /// `strerror`'s text for an errno.
    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// FreeType's text for an error code, when the library was built with error strings.
    /// The corresponding C function is `FT_Error_String`.
    static func freeTypeText(_ code: Int32) -> String? {
        FT_Error_String(code).map { String(cString: $0) }
    }
}

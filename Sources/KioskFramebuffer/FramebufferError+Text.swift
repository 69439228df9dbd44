internal import CFreeType
import SystemCalls
import SystemPackage

extension FramebufferError {
    /// `strerror`'s text for an errno, through swift-system's `Errno`.
    static func errnoText(_ code: Int32) -> String {
        Errno.text(code)
    }

    /// FreeType's text for an error code, when the library was built with error strings.
    /// The corresponding C function is `FT_Error_String`.
    static func freeTypeText(_ code: Int32) -> String? {
        FT_Error_String(code).map { String(cString: $0) }
    }
}

import SystemPackage

extension ImageError {
    /// What the operator should do when `open`, `fstat`, `read` or `write` failed with `errno`.
    static func advice(errno code: Int32) -> String {
        switch Errno(rawValue: code) {
        case .noSuchFileOrDirectory: "Check the path: the file (or the folder it is in) does not exist."
        case .permissionDenied, .notPermitted: "Make the file readable (and its folder searchable) by the kiosk's user."
        case .tooManySymbolicLinkLevels: "A symbolic link loop: fix or remove the link."
        case .isDirectory: "This is a folder: give an image file."
        case .noSpace, .diskQuotaExceeded: "The disk is full: free some space."
        case .readOnlyFileSystem: "The file system is read-only: write somewhere else."
        default: "Check the file and the disk."
        }
    }
}

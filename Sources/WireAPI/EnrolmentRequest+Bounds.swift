extension EnrolmentRequest {
    /// What is wrong with a request before its code is looked at (anyone may send one): nil when each field is
    /// within the size of what a kiosk sends. The peer key's form is the server's to check.
    public var boundsProblem: String? {
        guard (1...64).contains(door.count) else { return "door must be 1 to 64 characters" }
        guard (1...64).contains(code.utf8.count) else { return "code must be 1 to 64 characters" }
        guard (1...64).contains(kioskVersion.utf8.count) else { return "kioskVersion must be 1 to 64 characters" }
        if let nonce, !(16...128).contains(nonce.utf8.count) { return "nonce must be 16 to 128 characters" }
        if let replacesToken, !(1...200).contains(replacesToken.utf8.count) {
            return "replacesToken must be 1 to 200 characters"
        }
        return nil
    }
}

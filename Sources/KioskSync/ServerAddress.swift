import struct Foundation.URL

/// The check-in server's address as the kiosk accepts it: HTTPS, or plain HTTP only to this machine (a
/// server or a test proxy on loopback). A plain address elsewhere would send the device token and every guest
/// in the clear.
public enum ServerAddress {
    public static func check(_ text: String) throws(SyncError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            throw refusal(text, "is not a URL such as https://checkin.example:8443")
        }
        switch scheme {
        case "https":
            return
        case "http" where isLoopback(host):
            return
        case "http":
            throw refusal(
                text, "is plain HTTP to another machine: the token and the guests would cross the network unencrypted")
        default:
            throw refusal(text, "has the scheme '\(scheme)'; use https://")
        }
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func refusal(_ text: String, _ problem: String) -> SyncError {
        SyncError(
            kind: .badAddress, operation: "checking the server address \(text)", message: "it \(problem)",
            advice: "set 'server' in kiosk.conf (or --server) to the server's https:// address")
    }
}

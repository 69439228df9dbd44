import ArgumentParser
import Cryptography
import Foundation
import ImageFiles
import KioskCore
import PassFormat
import QREncoding

struct Issue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a signed pass for a guest: print its URL and write its QR code as PNG (level H).",
        discussion: """
            Every option is checked against what a kiosk accepts (docs/PASS-FORMAT.md), so a pass this \
            command makes is never refused at the door for its form: ids in range, a URL base of printable \
            ASCII (a kiosk reads nothing else).
            """)

    @Option(help: "The issuer's private key (PEM), from 'kioskctl keygen'.")
    var key: String

    @Option(help: "The key id of that key (0-65535, as in the kiosk's trusted_key line).")
    var keyId = 1

    @Option(help: "Tenant id (1-4294967295, as 'tenant' in kiosk.conf).")
    var tenant: Int

    @Option(help: "Event id (1-4294967295, as 'event' in kiosk.conf).")
    var event: Int

    @Option(help: "The guest's 16-character code (default: a new random guest).")
    var guest: String?

    @Option(
        help:
            "Where the QR code's URL points; the token is appended. Printable ASCII only (punycode for an international domain)."
    )
    var urlBase = "https://pass.example.org/p"

    @Option(help: "Write the QR code to this PNG file.")
    var png: String?

    @Option(help: "Pixels per QR module in the PNG (\(Issue.moduleSizes.lowerBound)-\(Issue.moduleSizes.upperBound)).")
    var moduleSize = 8

    static let moduleSizes = 1...64
    /// The longest URL base that leaves room for '/' and the token within what a kiosk reads.
    static let maximumURLBaseLength = PassToken.maximumPayloadLength - 1 - PassToken.textLength

    func validate() throws {
        let ids = KioskConfiguration.Limits.identifier
        guard KioskConfiguration.Limits.keyID.contains(keyId) else {
            throw ValidationError("--key-id must be from 0 to 65535 (a pass carries 16 bits), found \(keyId)")
        }
        guard ids.contains(tenant) else {
            throw ValidationError(
                "--tenant must be from 1 to \(ids.upperBound), as 'tenant' in kiosk.conf (a kiosk accepts no other), found \(tenant)"
            )
        }
        guard ids.contains(event) else {
            throw ValidationError(
                "--event must be from 1 to \(ids.upperBound), as 'event' in kiosk.conf (a kiosk accepts no other), found \(event)"
            )
        }
        try Self.checkURLBase(urlBase)
        guard Self.moduleSizes.contains(moduleSize) else {
            throw ValidationError(
                "--module-size must be from \(Self.moduleSizes.lowerBound) to \(Self.moduleSizes.upperBound) pixels, found \(moduleSize)"
            )
        }
        if let guest, GuestID(text: guest) == nil {
            throw ValidationError(
                "--guest '\(guest)' is not a 16-character guest code (base32 A-Z 2-7, dashes allowed)")
        }
    }

    /// A kiosk reads only printable ASCII of at most `PassToken.maximumPayloadLength` bytes (`PassToken(payload:)`).
    static func checkURLBase(_ base: String) throws {
        guard !base.isEmpty else {
            throw ValidationError("--url-base is empty: give the URL the pass's QR code points to")
        }
        if let bad = base.unicodeScalars.first(where: { !($0.isASCII && $0.value > 0x20 && $0.value < 0x7F) }) {
            let what =
                bad.isASCII
                ? "a space or control character (U+\(String(format: "%04X", bad.value)))"
                : "'\(bad)', which is not ASCII"
            throw ValidationError(
                """
                --url-base holds \(what): kiosks read only printable ASCII and would refuse every such pass. \
                Write an international domain in punycode (the 'xn--' form that 'idn2 DOMAIN' prints) and \
                percent-encode any other character of the path
                """)
        }
        guard base.utf8.count <= maximumURLBaseLength else {
            throw ValidationError(
                "--url-base is \(base.utf8.count) characters; with the \(PassToken.textLength)-character token a pass may have at most \(maximumURLBaseLength)"
            )
        }
    }

    func run() throws {
        guard let pem = FileManager.default.contents(atPath: key) else {
            throw ValidationError(
                "cannot read the private key \(key): check the path (from 'kioskctl keygen --out PREFIX': PREFIX.key.pem)"
            )
        }
        let privateKey = try Ed25519PrivateKey(pem: String(decoding: pem, as: UTF8.self), name: key)
        let guestID = guest.flatMap { GuestID(text: $0) } ?? GuestID.random()
        let token = try PassIssuer(
            keyID: KeyID(keyId), tenant: TenantID(UInt32(tenant)), event: EventID(UInt32(event)),
            privateKey: privateKey
        )
        .issue(for: guestID)
        let url = token.url(base: urlBase)
        // The last word: the kiosk's own parser must read this URL back to this token.
        guard (try? PassToken(payload: Array(url.utf8))) == token else {
            throw ValidationError(
                "the pass URL \(url) would not read at a kiosk: change --url-base (it must not end in a token-like part)"
            )
        }
        print(url)
        if let png {
            let qr = try QRCodeRenderer.render(url, moduleSize: moduleSize)
            try ImageFile.writePNG(qr.image, to: png)
            FileHandle.standardError.write(
                Data("guest \(guestID.displayCode): QR version \(qr.version), level H, written to \(png)\n".utf8))
        }
    }
}

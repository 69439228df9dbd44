import ArgumentParser
import Foundation
import KioskCore
import KioskCrypto
import KioskImageIO
import KioskQRCode

struct Issue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a signed pass for a guest: print its URL and write its QR code as PNG (level H).")

    @Option(help: "The issuer's private key (PEM), from 'kioskctl keygen'.")
    var key: String

    @Option(help: "The key id of that key.")
    var keyId: UInt16 = 1

    @Option(help: "Tenant id.")
    var tenant: UInt32

    @Option(help: "Event id.")
    var event: UInt32

    @Option(help: "The guest's 16-character code (default: a new random guest).")
    var guest: String?

    @Option(help: "Where the QR code's URL points; the token is appended.")
    var urlBase = "https://pass.example.org/p"

    @Option(help: "Write the QR code to this PNG file.")
    var png: String?

    @Option(help: "Pixels per QR module in the PNG.")
    var moduleSize = 8

    func run() throws {
        guard let pem = FileManager.default.contents(atPath: key) else {
            throw ValidationError("cannot read the private key \(key)")
        }
        let privateKey = try Ed25519PrivateKey(pem: String(decoding: pem, as: UTF8.self), name: key)
        let guestID: GuestID
        if let guest {
            guard let id = GuestID(text: guest) else { throw ValidationError("'\(guest)' is not a 16-character guest code") }
            guestID = id
        } else {
            guestID = GuestID.random()
        }
        let token = try PassIssuer(keyID: keyId, tenant: TenantID(tenant), event: EventID(event), privateKey: privateKey)
            .issue(for: guestID)
        let url = token.url(base: urlBase)
        print(url)
        if let png {
            let qr = try QRCodeRenderer.render(url, moduleSize: moduleSize)
            try ImageFile.writePNG(qr.image, to: png)
            FileHandle.standardError.write(Data("guest \(guestID.displayCode): QR version \(qr.version), level H, written to \(png)\n".utf8))
        }
    }
}

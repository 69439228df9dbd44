import ArgumentParser
import Cryptography
import Foundation
import KioskCore

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a new Ed25519 issuer key pair: PREFIX.key.pem (private, mode 600) and PREFIX.pub.pem.")

    @Option(help: "Path prefix of the two files.")
    var out: String

    @Option(help: "The key id passes signed with this key carry (0-65535).")
    var keyId = 1

    @Flag(help: "Overwrite existing files.")
    var force = false

    func validate() throws {
        guard KioskConfiguration.Limits.keyID.contains(keyId) else {
            throw ValidationError("--key-id must be from 0 to 65535 (a pass carries 16 bits), found \(keyId)")
        }
        guard !out.isEmpty else { throw ValidationError("--out needs a path prefix, such as keys/issuer-1") }
    }

    func run() throws {
        let privatePath = out + ".key.pem"
        let publicPath = out + ".pub.pem"
        for path in [privatePath, publicPath] where !force && FileManager.default.fileExists(atPath: path) {
            throw ValidationError(
                "\(path) exists; pass --force to overwrite it (passes signed with the old key stop verifying)")
        }
        let key = try Ed25519PrivateKey.generate()
        try key.writePEMFiles(privatePath: privatePath, publicPath: publicPath)
        print("private key: \(privatePath) (keep it on the issuer only)")
        print("public key:  \(publicPath)")
        print("kiosk.conf:  trusted_key = \(keyId) \(publicPath)")
        print("         or: trusted_key = \(keyId) ed25519:\(try key.publicKey.base64)")
    }
}

import Foundation
import SystemCalls

extension Ed25519PrivateKey {
    /// Writes the key pair as PEM: the private key 0600 (and its folder 0700 if it is made), the public key
    /// beside it readable by all. `kioskctl keygen` and the demo's keys.
    public func writePEMFiles(privatePath: String, publicPath: String) throws {
        let folder = (privatePath as NSString).deletingLastPathComponent
        if !folder.isEmpty { try PrivateFile.createDirectory(folder) }
        try PrivateFile.replace(Array(try pem().utf8), path: privatePath)
        try Data(try publicKey.pem().utf8).write(to: URL(fileURLWithPath: publicPath))
    }
}

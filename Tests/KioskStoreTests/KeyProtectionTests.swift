import Foundation
import KioskCore
import Testing

@testable import KioskStore

/// What `kioskctl status` says keeps the database key from a copy of the card: on a board without a TPM2 the
/// systemd credential is sealed to the host key alone, on the same card, and the status must say so.
struct KeyProtectionTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aCredentialSealedToTheHostKeyAloneIsSaidToOpenFromACopyOfTheCard() throws {
        let folder = try Self.folder()
        let credentials = folder + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data(count: 32).write(to: URL(fileURLWithPath: credentials + "/kiosk-db-key"))
        let record = folder + "/database-key.sealing"
        let configuration = KioskConfiguration()
        let environment = ["CREDENTIALS_DIRECTORY": credentials]
        func protection() -> DatabaseKey.Protection {
            DatabaseKey.protection(for: configuration, sealingRecord: record, environment: environment)
        }
        #expect(protection() == .unknown)
        try "host\n".write(toFile: record, atomically: true, encoding: .utf8)
        #expect(protection() == .hostKeyOnly)
        #expect(protection().statusLine.contains("a copy of the card opens it"))
        try "tpm2\n".write(toFile: record, atomically: true, encoding: .utf8)
        #expect(protection() == .tpm2)
        #expect(protection().statusLine.contains("does not open"))
        // No credential: the key file, which a copy of the card holds.
        var keyed = configuration
        keyed.databaseKeyFile = "/var/lib/kiosk-key/kiosk-db.key"
        let file = DatabaseKey.protection(for: keyed, sealingRecord: record, environment: [:])
        #expect(file == .keyFile("/var/lib/kiosk-key/kiosk-db.key"))
        #expect(file.statusLine.contains("a copy of the card"))
    }
}

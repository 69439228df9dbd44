import Foundation
import KioskCore
import KioskScenes

extension FixtureEvent {
    /// A kiosk.conf for a bench door of this event in `folder`: its tenant and event, its issuer's public key
    /// trusted (written there), the database `database` in the folder and its key file in a folder of its own.
    func benchConfiguration(folder: String, database: String = "kiosk.db") throws -> KioskConfiguration {
        var c = KioskConfiguration()
        c.tenant = tenant
        c.event = event
        try issuerKey.publicKey.pem().write(toFile: folder + "/issuer.pub.pem", atomically: true, encoding: .utf8)
        c.trustedKeys = [.init(id: keyID, source: folder + "/issuer.pub.pem", line: 1)]
        c.database = folder + "/" + database
        c.databaseKeyFile = folder + "/key/kiosk-db.key"  // made with the database, outside its folder
        return c
    }
}

import Testing

@testable import KioskCore

@Suite("kiosk.conf: the sync keys")
struct ConfigurationSyncTests {
    let key = "trusted_key = 1 keys/a.pem\n"

    @Test("without 'server' the door is standalone")
    func standalone() throws {
        let c = try KioskConfiguration.parse(key, file: "k.conf")
        #expect(c.server == nil && c.serverCA == nil && c.syncInterval == 10)
    }

    @Test("server, sync_interval and server_ca are read; the CA path resolves against the file's folder")
    func keys() throws {
        let text = key + "server = https://checkin.example:8443/\nsync_interval = 30s\nserver_ca = ca.pem\n"
        let c = try KioskConfiguration.parse(text, file: "k.conf", baseDirectory: "/etc/kiosk")
        #expect(c.server == "https://checkin.example:8443")
        #expect(c.syncInterval == 30)
        #expect(c.serverCA.map(c.resolve) == "/etc/kiosk/ca.pem")
    }

    @Test(
        "a bad sync key names the line and what is expected",
        arguments: [
            ("server = checkin.example", "'server' must be the check-in server's URL"),
            ("sync_interval = 0", "'sync_interval' must be a number from 1.0 to 3600.0s"),
            ("server_ca = ", "'server_ca' needs a PEM file path"),
        ])
    func refused(line: String, message: String) {
        #expect {
            _ = try KioskConfiguration.parse(key + line + "\n", file: "k.conf")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == 2 && error.message.contains(message)
        }
    }
}

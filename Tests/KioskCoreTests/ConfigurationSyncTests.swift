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
        expectRefusedOnLine2(key + line + "\n", message)
    }
}

@Suite("kiosk.conf: the sound keys")
struct ConfigurationSoundTests {
    let key = "trusted_key = 1 keys/a.pem\n"

    @Test("sound is auto on the default device at 60 unless set")
    func keys() throws {
        let plain = try KioskConfiguration.parse(key, file: "k.conf")
        #expect(plain.sound == .auto && plain.soundDevice == "default" && plain.soundVolume == 60)
        let set = try KioskConfiguration.parse(
            key + "sound = OFF\nsound_device = plughw:1,0\nsound_volume = 0\n", file: "k.conf")
        #expect(set.sound == .off && set.soundDevice == "plughw:1,0" && set.soundVolume == 0)
    }

    @Test(
        "a bad sound key names the line and what is expected",
        arguments: [
            ("sound = loud", "'sound' must be 'auto' or 'off'"),
            ("sound_volume = 101", "'sound_volume' must be a whole number from 0 to 100"),
            ("sound_device = ", "'sound_device' needs an ALSA device name"),
        ])
    func refused(line: String, message: String) {
        expectRefusedOnLine2(key + line + "\n", message)
    }
}

/// The file is refused at its line 2 with a message holding `message`.
func expectRefusedOnLine2(_ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(sourceLocation: sourceLocation) {
        _ = try KioskConfiguration.parse(text, file: "k.conf")
    } throws: { error in
        guard let error = error as? ConfigurationError else { return false }
        return error.line == 2 && error.message.contains(message)
    }
}

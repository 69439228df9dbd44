import PassFormat

/// A broken `kiosk.conf`: the file, the line and what is wrong.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message` for the file as a whole (line 0).
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

extension KioskConfiguration {
    /// Parses `key = value` lines; `#` starts a comment; keys may repeat only where documented
    /// (`trusted_key`). Unknown keys are errors, so a typo never silently keeps a default.
    /// Lines end in LF, CRLF or a lone CR (see `lines(of:file:)`).
    public static func parse(_ text: String, file: String, baseDirectory: String = ".") throws(ConfigurationError)
        -> KioskConfiguration
    {
        try parse(bytes: Array(text.utf8), file: file, baseDirectory: baseDirectory)
    }

    /// Parses the file's bytes as read from disk: a line that is not UTF-8 or holds a NUL byte is refused
    /// with its number, before any key is looked at.
    public static func parse(bytes: [UInt8], file: String, baseDirectory: String = ".") throws(ConfigurationError)
        -> KioskConfiguration
    {
        var c = KioskConfiguration()
        c.baseDirectory = baseDirectory
        c.file = file
        var seen: [String: Int] = [:]
        for (index, rawLine) in try lines(of: bytes, file: file).enumerated() {
            let lineNumber = index + 1
            func fail(_ message: String) -> ConfigurationError {
                ConfigurationError(file: file, line: lineNumber, message: message)
            }
            // '#' and '=' are found among the scalars: followed by a combining mark they are one Character
            // with it, and a Character search would miss them.
            var line = Substring(rawLine).unicodeScalars
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = Substring(line).trimmingCharacters(in: " \t").unicodeScalars
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw fail("expected 'key = value', found '\(String(trimmed))'")
            }
            let key = Substring(trimmed[..<eq]).trimmingCharacters(in: " \t").lowercased()
            var value = Substring(trimmed[trimmed.index(after: eq)...]).trimmingCharacters(in: " \t")
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = String(value.dropFirst().dropLast())
            }
            if key != "trusted_key", let earlier = seen[key] {
                throw fail("'\(key)' is set twice (first on line \(earlier))")
            }
            seen[key] = lineNumber
            func number(_ range: ClosedRange<Double>, unit: String = "") throws(ConfigurationError) -> Double {
                let digits = unit.isEmpty ? value : (value.hasSuffix(unit) ? String(value.dropLast(unit.count)) : value)
                let trimmedDigits = digits.trimmingCharacters(in: " ")
                // Decimal only: Double(_:) would also take "nan", "inf" and hexadecimal such as "0x1p4".
                guard trimmedDigits.allSatisfy({ "0123456789.+-eE".contains($0) }), let v = Double(trimmedDigits),
                    v.isFinite, range.contains(v)
                else {
                    throw fail(
                        "'\(key)' must be a number from \(range.lowerBound) to \(range.upperBound)\(unit), found '\(value)'"
                    )
                }
                return v
            }
            func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                guard let v = Int(value), range.contains(v) else {
                    throw fail(
                        "'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), found '\(value)'"
                    )
                }
                return v
            }
            switch key {
            case "door":
                guard !value.isEmpty, value.count <= 64 else {
                    throw fail("'door' must be a name of 1 to 64 characters")
                }
                c.door = value
            case "tenant":
                c.tenant = TenantID(UInt32(try integer(Limits.identifier)))
            case "event":
                c.event = EventID(UInt32(try integer(Limits.identifier)))
            case "trusted_key":
                let parts = value.split(separator: " ", maxSplits: 1).map { String($0).trimmingCharacters(in: " \t") }
                guard parts.count == 2, let id = KeyID(parts[0]) else {
                    throw fail(
                        "'trusted_key' must be '<key id 0-65535> <public key PEM file>' or '<key id> ed25519:<base64 of the raw key>' (kioskctl keygen prints the line), found '\(value)'"
                    )
                }
                if c.trustedKeys.contains(where: { $0.id == id }) { throw fail("key id \(id) is trusted twice") }
                c.trustedKeys.append(TrustedKey(id: id, source: parts[1], line: lineNumber))
            case "database":
                guard !value.isEmpty else { throw fail("'database' needs a file path") }
                c.database = value
            case "database_key_credential":
                guard !value.isEmpty, !value.contains("/") else {
                    throw fail("'database_key_credential' needs a credential name (no '/')")
                }
                c.databaseKeyCredential = value
            case "database_key_file":
                guard !value.isEmpty else { throw fail("'database_key_file' needs a file path") }
                c.databaseKeyFile = value
            case "mode":
                guard let m = CheckInMode(rawValue: value.lowercased()) else {
                    throw fail("'mode' must be 'auto' or 'confirm', found '\(value)'")
                }
                c.mode = m
            case "source":
                if value.hasPrefix("replay:") {
                    c.source = .replay(directory: String(value.dropFirst(7)))
                } else if value.hasPrefix("camera:") {
                    c.source = .camera(device: String(value.dropFirst(7)))
                } else {
                    throw fail("'source' must be 'replay:<folder>' or 'camera:<device>', found '\(value)'")
                }
            case "display":
                guard let d = Display(rawValue: value.lowercased()) else {
                    throw fail("'display' must be 'text', 'framebuffer' or 'auto', found '\(value)'")
                }
                c.display = d
            case "framebuffer_device": c.framebufferDevice = value
            case "sound":
                guard let sound = Sound(rawValue: value.lowercased()) else {
                    throw fail("'sound' must be 'auto' or 'off', found '\(value)'")
                }
                c.sound = sound
            case "sound_device":
                guard !value.isEmpty else { throw fail("'sound_device' needs an ALSA device name, such as 'default'") }
                c.soundDevice = value
            case "sound_volume": c.soundVolume = try integer(0...100)
            case "repeat_window": c.repeatWindow = try number(0...3600, unit: "s")
            case "replay_fps": c.replayFPS = try number(Limits.replayFPS)
            case "idle_fps": c.idleFPS = try number(Limits.captureFPS)
            case "active_fps": c.activeFPS = try number(Limits.captureFPS)
            case "motion_threshold": c.motionThreshold = try number(0...255)
            case "quiet_time": c.quietTime = try number(0...3600, unit: "s")
            case "capture_size":
                let wh = value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard wh.count == 2, let w = Int(wh[0].trimmingCharacters(in: " ")),
                    let h = Int(wh[1].trimmingCharacters(in: " ")),
                    (160...3840).contains(w), (120...2160).contains(h)
                else {
                    throw fail(
                        "'capture_size' must be WIDTHxHEIGHT such as 640x480, width 160 to 3840, height 120 to 2160, found '\(value)'"
                    )
                }
                c.captureWidth = w
                c.captureHeight = h
            case "decoder_passes":
                switch DecoderSettings.parseCascade(value) {
                case .success(let cascade):
                    c.decoder.passes = cascade.passes
                    c.decoder.gatedFrom = cascade.gatedFrom
                case .failure(let error):
                    throw fail(error.description)
                }
            case "verdict_seconds": c.verdictSeconds = try number(0.5...60, unit: "s")
            case "font": c.fontRegular = value
            case "font_bold": c.fontBold = value
            case "decoder_max_side": c.decoder.maxSide = try integer(160...10000)
            case "log_level":
                let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
                guard levels.contains(value.lowercased()) else {
                    throw fail("'log_level' must be one of \(levels.joined(separator: ", ")), found '\(value)'")
                }
                c.logLevel = value.lowercased()
            case "server":
                let lower = value.lowercased()
                guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), value.count > 8,
                    !value.contains(" ")
                else {
                    throw fail(
                        "'server' must be the check-in server's URL such as https://checkin.example:8443, found '\(value)'"
                    )
                }
                c.server = value.hasSuffix("/") ? String(value.dropLast()) : value
            case "sync_interval": c.syncInterval = try number(Limits.syncInterval, unit: "s")
            case "lan_sync":
                switch value.lowercased() {
                case "on": c.lanSync = true
                case "off": c.lanSync = false
                default: throw fail("'lan_sync' must be 'on' or 'off', found '\(value)'")
                }
            case "lan_port": c.lanPort = try integer(0...65535)
            case "lan_discovery_port": c.lanDiscoveryPort = try integer(1...65535)
            case "lan_interface":
                let parts = value.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else {
                    throw fail("'lan_interface' must be the IPv4 address of a network interface, found '\(value)'")
                }
                c.lanInterface = value
            case "server_ca":
                guard !value.isEmpty else { throw fail("'server_ca' needs a PEM file path") }
                c.serverCA = value
            default:
                throw fail("unknown key '\(key)' (see the comments in the shipped kiosk.conf for every key)")
            }
        }
        guard !c.trustedKeys.isEmpty else {
            throw ConfigurationError(
                file: file, line: 0, message: "no 'trusted_key' set: the kiosk could not verify any pass")
        }
        guard c.activeFPS >= c.idleFPS else {
            throw ConfigurationError(
                file: file, line: seen["active_fps"] ?? seen["idle_fps"] ?? 0,
                message: "'active_fps' (\(c.activeFPS)) must not be lower than 'idle_fps' (\(c.idleFPS))")
        }
        return c
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

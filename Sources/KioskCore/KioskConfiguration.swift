import PassFormat

/// Everything `kiosk.conf` sets. Every key is documented in the shipped `kiosk.conf`.
public struct KioskConfiguration: Equatable, Sendable {
    /// A trusted issuer key: its id and where its public key is (a PEM file path or base64 of the raw key).
    public struct TrustedKey: Equatable, Sendable {
        public var id: KeyID
        public var source: String
        public var line: Int

        public init(id: KeyID, source: String, line: Int) {
            self.id = id
            self.source = source
            self.line = line
        }
    }

    public enum Source: Equatable, Sendable {
        case replay(directory: String)
        case camera(device: String)
    }

    /// Whether verdicts sound: `auto` plays through the ALSA device when it can be opened (and says once that the
    /// door is silent when it cannot), `off` never.
    public enum Sound: String, Equatable, Sendable {
        case auto
        case off
    }

    public enum Display: String, Equatable, Sendable {
        case text
        case framebuffer
        case auto
    }

    public var door = "Door 1"
    public var tenant = TenantID(1)
    public var event = EventID(1)
    public var trustedKeys: [TrustedKey] = []
    public var database = "kiosk.db"
    /// The systemd credential that holds the database key (`$CREDENTIALS_DIRECTORY/<name>`).
    public var databaseKeyCredential = "kiosk-db-key"
    /// A key file (32 bytes, mode 0600, outside the database's folder) for a machine without the credential.
    public var databaseKeyFile: String?
    public var mode = CheckInMode.auto
    public var source = Source.replay(directory: "test-images")
    public var display = Display.auto
    public var framebufferDevice = "/dev/fb0"
    public var sound = Sound.auto
    /// The ALSA device the tones play on (an ALSA PCM name).
    public var soundDevice = "default"
    /// 0 to 100: the tones' loudness, a share of full scale.
    public var soundVolume = 60
    public var repeatWindow = 3.0
    public var replayFPS: Double?
    public var idleFPS = 15.0
    public var activeFPS = 30.0
    public var motionThreshold = 8.0
    public var quietTime = 2.0
    public var captureWidth = 640
    public var captureHeight = 480
    public var decoder = DecoderSettings()
    public var logLevel = "info"
    /// The check-in server's base URL (`http://` or `https://`); nil for a standalone door.
    public var server: String?
    /// Seconds between uploads of the queue while the server answers (heartbeats go every 60 s regardless).
    public var syncInterval = 10.0
    /// The PEM file of the CA that signed the server's certificate; nil trusts the system's CAs.
    public var serverCA: String?
    /// Whether an enrolled door exchanges its check-ins with the event's other doors on the LAN (docs/SYNC.md,
    /// "Between doors"): `on` by default, `off` keeps the door to itself and the server.
    public var lanSync = true
    /// The TCP port this door accepts its peers' links on (0: any free port, announced).
    public var lanPort = 7447
    /// The UDP multicast port the doors announce themselves on; all doors of a venue must agree.
    public var lanDiscoveryPort = 7448
    /// The IPv4 address of the interface the doors' multicast runs on; nil lets the routing table choose.
    public var lanInterface: String?
    /// Seconds a verdict stays on screen before the live picture returns.
    public var verdictSeconds = 3.0
    /// Font files of the framebuffer display.
    public var fontRegular = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public var fontBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    /// The folder relative paths are resolved against: the configuration file's folder, made absolute by
    /// `ConfigurationFile.load` (so a relative `--config` works from any working directory).
    public var baseDirectory = "."
    /// The file this configuration was read from, for messages that point at a line of it.
    public var file = "kiosk.conf"

    public init() {}

    /// The ranges `kiosk.conf` accepts, shared with the command-line options that set the same things.
    public enum Limits {
        /// `replay_fps` and `kiosk --fps`: frames per second of the replay's virtual clock.
        public static let replayFPS: ClosedRange<Double> = 0.1...1000
        /// `idle_fps`, `active_fps`.
        public static let captureFPS: ClosedRange<Double> = 1...120
        /// `tenant`, `event`: 0 is never an id, and a pass carries 32 bits.
        public static let identifier: ClosedRange<Int> = 1...Int(UInt32.max)
        /// A `trusted_key` id: a pass carries 16 bits.
        public static let keyID: ClosedRange<Int> = Int(KeyID.min)...Int(KeyID.max)
        /// `sync_interval`: seconds between uploads.
        public static let syncInterval: ClosedRange<Double> = 1...3600
    }

    /// The replay rate: `replay_fps` if set, else the idle rate.
    public var effectiveReplayFPS: Double { replayFPS ?? idleFPS }

    /// A path from the file, resolved against the file's folder.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || baseDirectory == "." { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }
}

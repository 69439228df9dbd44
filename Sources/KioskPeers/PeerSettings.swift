/// How a door takes part in the LAN between doors (kiosk.conf's `lan_*` keys).
public struct PeerSettings: Equatable, Sendable {
    /// The TCP port the door accepts its peers' links on (0: any free port, announced).
    public var port: Int
    /// The UDP multicast group and port doors announce themselves on.
    public var group: String
    public var discoveryPort: Int
    /// The IPv4 address of the interface to announce and listen on; nil lets the routing table choose.
    public var interface: String?
    /// Between two announcements of this door.
    public var announceEvery: Duration
    /// Between two looks for items this door made (they are committed by the door loop or by `kioskctl`).
    public var pollEvery: Duration
    /// A link silent this long is closed (a door unplugged, a cable cut): three of `PeerExchange.keepAliveEvery`.
    public var silentLinkLimit: Duration
    /// How long a connection may take to prove who it is (its TLS handshake) before it is closed: an
    /// unauthenticated peer holds nothing for longer.
    public var handshakeLimit: Duration

    public static let defaultPort = 7447
    public static let defaultGroup = "239.255.77.77"
    public static let defaultDiscoveryPort = 7448

    public init(
        port: Int = PeerSettings.defaultPort, group: String = PeerSettings.defaultGroup,
        discoveryPort: Int = PeerSettings.defaultDiscoveryPort, interface: String? = nil,
        announceEvery: Duration = .seconds(2), pollEvery: Duration = .milliseconds(20),
        silentLinkLimit: Duration = .seconds(15), handshakeLimit: Duration = .seconds(5)
    ) {
        self.port = port
        self.group = group
        self.discoveryPort = discoveryPort
        self.interface = interface
        self.announceEvery = announceEvery
        self.pollEvery = pollEvery
        self.silentLinkLimit = silentLinkLimit
        self.handshakeLimit = handshakeLimit
    }
}

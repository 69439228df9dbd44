/// The kiosk software's version, as the server's version gate and heartbeat see it.
public enum KioskSoftware {
    public static let version = "1.0.0"
}

import KioskCore
import KioskCrypto
import KioskImageIO
import KioskStore

/// Why the kiosk cannot start or go on, said so an operator knows what to fix.
public enum KioskError: Error, CustomStringConvertible {
    case configuration(ConfigurationError)
    case trustedKey(file: String, line: Int, CryptoError)
    case store(StoreError)
    case replay(ReplayError)
    /// The database's folder could not be made.
    case stateFolder(path: String, reason: String)
    /// The configured screen could not be opened.
    case display(String)

    public var description: String {
        switch self {
        case .configuration(let e): "configuration error: \(e)"
        case .trustedKey(let file, let line, let e): "configuration error: \(file):\(line): trusted key cannot be loaded: \(e)"
        case .store(let e): "database error: \(e)"
        case .replay(let e): "replay error: \(e)"
        case .stateFolder(let path, let reason):
            "database error: cannot create the folder of \(path) (\(reason)): create it, writable by the kiosk's user, or point 'database' in kiosk.conf elsewhere"
        case .display(let what): "display error: \(what) (set display = text in kiosk.conf for a headless kiosk)"
        }
    }
}

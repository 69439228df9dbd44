import Cryptography
import ImageFiles
import KioskCore
import KioskStore

/// Why the kiosk cannot start or go on, said so an operator knows what to fix.
public enum KioskError: Error, CustomStringConvertible {
    case configuration(ConfigurationError)
    case trustedKey(file: String, line: Int, CryptoError)
    case store(StoreError)
    /// The configured database does not exist (and the kiosk does not create one).
    case databaseMissing(path: String, configurationFile: String)
    case replay(ReplayError)
    /// The database's folder could not be made.
    case stateFolder(path: String, reason: String)
    /// The configured screen could not be opened.
    case display(String)

    public var description: String {
        switch self {
        case .configuration(let e): "configuration error: \(e)"
        case .trustedKey(let file, let line, let e):
            "configuration error: \(file):\(line): trusted key cannot be loaded: \(e)"
        case .store(let e): "database error: \(e)"
        case .databaseMissing(let path, let file):
            "database error: \(path) does not exist: check 'database' in \(file) (or --database) for a typo, or "
                + "create it with `kioskctl roster import --config \(file) --csv ROSTER.csv` (the kiosk does not "
                + "create an empty database: it would turn every guest away as not_in_roster)"
        case .replay(let e): "replay error: \(e)"
        case .stateFolder(let path, let reason):
            "database error: cannot create the folder of \(path) (\(reason)): create it, writable by the kiosk's user, or point 'database' in kiosk.conf elsewhere"
        case .display(let what): "display error: \(what) (set display = text in kiosk.conf for a headless kiosk)"
        }
    }
}

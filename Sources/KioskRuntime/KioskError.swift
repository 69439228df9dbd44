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
    case unsupported(String)

    public var description: String {
        switch self {
        case .configuration(let e): "configuration error: \(e)"
        case .trustedKey(let file, let line, let e): "configuration error: \(file):\(line): trusted key cannot be loaded: \(e)"
        case .store(let e): "database error: \(e)"
        case .replay(let e): "replay error: \(e)"
        case .unsupported(let what): what
        }
    }
}

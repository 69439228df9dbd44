import Foundation
import KioskCore

extension DatabaseKey {
    /// What keeps the database key from a copy of the card, as the kiosk package sealed it.
    public enum Protection: Equatable, Sendable {
        /// The systemd credential is sealed to this board's TPM2 (and its host key): a copy of the card alone
        /// does not open the database.
        case tpm2
        /// The systemd credential is sealed to the host key alone (a board without a TPM2), which lies on the same
        /// card: a copy of the card opens the database.
        case hostKeyOnly
        /// A key file on the card (`database_key_file`): whoever reads it opens the database.
        case keyFile(String)
        /// A systemd credential sealed by a package that did not record how (before December 2026).
        case unknown

        /// One line for `kioskctl status`: what holds, and what to do when a copy of the card opens the database.
        public var statusLine: String {
            switch self {
            case .tpm2: "database key: sealed to this board's TPM2; a copy of the card alone does not open the database"
            case .hostKeyOnly:
                "database key: sealed to this card's host key only: a copy of the card opens it (no TPM2 on this "
                    + "board; use a board with a TPM2: \"Database key\" in /usr/share/doc/kiosk/KEYS.md.gz)"
            case .keyFile(let path):
                "database key: the key file \(path): whoever can read it (or a copy of the card) opens the database"
            case .unknown:
                "database key: a systemd credential; how it is sealed was not recorded (reinstall the package, or "
                    + "systemd-creds has-tpm2: without a TPM2 a copy of the card opens it)"
            }
        }
    }

    /// Where the kiosk package writes how it sealed the key (`tpm2` or `host`).
    public static let sealingRecord = "/etc/kiosk/database-key.sealing"

    /// How the key `configuration` names is protected: a credential by what `sealingRecord` says, else its file.
    public static func protection(
        for configuration: KioskConfiguration, sealingRecord: String = sealingRecord,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Protection {
        if let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty,
            FileManager.default.fileExists(atPath: folder + "/" + configuration.databaseKeyCredential)
        {
            let recorded = (try? String(contentsOfFile: sealingRecord, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            switch recorded {
            case "tpm2": return .tpm2
            case "host": return .hostKeyOnly
            default: return .unknown
            }
        }
        return .keyFile(configuration.databaseKeyFile.map { configuration.resolve($0) } ?? "(none)")
    }
}

import Foundation
import KioskCore

extension DatabaseKey {
    /// The key for the database at `databasePath`: the systemd credential `credential` when the service has
    /// one (`$CREDENTIALS_DIRECTORY/<credential>`), else the key file `file`. Neither: `.keyMissing`, saying how
    /// to provide one.
    public static func load(
        credential: String = credentialName, file: String?, databasePath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreError) -> DatabaseKey {
        if let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty {
            let path = folder + "/" + credential
            if FileManager.default.fileExists(atPath: path) {
                return try read(path, checkMode: false, databasePath: databasePath)
            }
        }
        guard let file, !file.isEmpty else {
            throw StoreError(
                kind: .keyMissing, resultCode: 0,
                message: "no database key: no systemd credential '\(credential)' and no database_key_file",
                operation: "reading the database key", path: databasePath)
        }
        return try read(file, checkMode: true, databasePath: databasePath)
    }

    /// The key `configuration` names for its database (`database_key_credential`, `database_key_file`).
    public static func load(
        for configuration: KioskConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreError) -> DatabaseKey {
        try load(
            credential: configuration.databaseKeyCredential,
            file: configuration.databaseKeyFile.map { configuration.resolve($0) },
            databasePath: configuration.resolve(configuration.database), environment: environment)
    }

    /// For a new database: writes a new random key to the configured `database_key_file` when there is no
    /// systemd credential and no such file yet (its folder made 0700, the file 0600, never replaced).
    static func createFileIfMissing(
        for configuration: KioskConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreError) {
        if let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty,
            FileManager.default.fileExists(atPath: folder + "/" + configuration.databaseKeyCredential)
        {
            return
        }
        guard let file = configuration.databaseKeyFile.map({ configuration.resolve($0) }),
            !FileManager.default.fileExists(atPath: file)
        else { return }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let key = random()
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let descriptor = Glibc.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { Glibc.close(descriptor) }
            let written = key.bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == key.bytes.count, fsync(descriptor) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            throw StoreError(
                kind: .keyMissing, resultCode: 0, message: "cannot create the key file \(file): \(error)",
                operation: "creating the database key", path: file)
        }
    }

    /// Reads a key file: a regular file of 32 bytes; with `checkMode`, readable by its owner only and not in
    /// the database's own folder (a copy of that folder would carry the key with the data).
    static func read(_ path: String, checkMode: Bool, databasePath: String) throws(StoreError) -> DatabaseKey {
        func refuse(_ kind: StoreError.Kind, _ message: String) -> StoreError {
            StoreError(kind: kind, resultCode: 0, message: message, operation: "reading the database key", path: path)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw refuse(.keyMissing, "the key file \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refuse(.keyRefused, "\(path) is not a regular file") }
        if checkMode {
            guard status.st_mode & 0o077 == 0 else {
                throw refuse(
                    .keyRefused,
                    "the key file \(path) is readable by others (mode \(String(status.st_mode & 0o777, radix: 8))): "
                        + "run `chmod 600 \(path)`")
            }
            let keyFolder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            let databaseFolder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().standardizedFileURL.path
            guard keyFolder != databaseFolder else {
                throw refuse(
                    .keyRefused,
                    "the key file \(path) lies beside the database: move it to a folder of its own (e.g. /etc/kiosk)")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw refuse(.keyMissing, "the key file \(path) cannot be read")
        }
        do {
            return try DatabaseKey(bytes: Array(data))
        } catch {
            throw refuse(.keyRefused, "\(path) holds \(data.count) bytes, not \(byteCount) (a database key)")
        }
    }
}

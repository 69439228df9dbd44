import CheckinCore
import CheckinSQLite
import CheckinServer
import Foundation
import PostgresTestSupport
import SystemCalls
import TestSupport
import Testing

@testable import CheckinAdmin

/// The server's files at rest are its own user's only: 0600 files, 0700 folders, whatever the umask.
@Suite("Server files at rest", .dropsTestDatabases)
struct PrivateFilesTests {
    static func mode(_ path: String) -> String {
        PrivateFile.permissions(path).map { String($0, radix: 8) } ?? "missing"
    }

    /// `checkin-server create-tenant` under umask 022 (the finding: checkin.db was 0644).
    @Test func theCommandWritesItsDatabaseAndKey0600UnderUmask022() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        let db = folder + "/checkin.db"
        let r = try await ChildProcess.shell(
            "umask 022 && '\(ChildProcess.productsFolder)/checkin-server' create-tenant --name Acme", in: folder)
        #expect(r.status == 0, "\(r.out)")
        #expect(Self.mode(db) == "600")
        #expect(Self.mode(folder + "/" + SecretsKeySource.defaultFileName) == "600")
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: db + suffix) {
            #expect(Self.mode(db + suffix) == "600", "\(suffix)")
        }
    }

    /// In process, while the database is open (its WAL and shared memory exist), and a database an older
    /// version left 0644 is tightened when opened.
    @Test func theDatabaseItsWALAndSharedMemoryAre0600() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let folder = RepositoryFactory.temporaryFolder()
        let path = folder + "/checkin.db"
        let repository = try RepositoryFactory.sqlite(path: path)
        _ = try await repository.createTenant(name: "Acme", at: Date())
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(Self.mode(file) == "600", "\(file)")
        }
        let older = folder + "/older.db"
        FileManager.default.createFile(atPath: older, contents: nil, attributes: [.posixPermissions: 0o644])
        #expect(Self.mode(older) == "644")
        _ = try SQLiteCheckinRepository(path: older, secrets: SecretsKey.random())
        #expect(Self.mode(older) == "600")
    }

    @Test func passImagesAre0600InA0700Folder() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let folder = RepositoryFactory.temporaryFolder() + "/var/passes"
        let store = PassImageStore(directory: folder)
        let name = try store.store(pass: "pass-1", png: [1, 2, 3])
        #expect(Self.mode(folder) == "700")
        #expect(Self.mode(folder + "/" + name) == "600")
        #expect(store.read(name: name) == [1, 2, 3])
        // Images an older version wrote 0644 are tightened at start.
        FileManager.default.createFile(
            atPath: folder + "/old.png", contents: Data([4]), attributes: [.posixPermissions: 0o644])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try store.restrictExisting()
        #expect(Self.mode(folder + "/old.png") == "600")
        #expect(Self.mode(folder) == "700")
    }

    /// A key file others can read is refused, as ssh refuses such a key; a key made on the first start is 0600.
    @Test func aSecretsKeyFileOthersCanReadIsRefused() throws {
        let folder = RepositoryFactory.temporaryFolder()
        let made = try SecretsKeySource.file(folder + "/keys/secrets.key").load()
        #expect(made.created)
        #expect(Self.mode(folder + "/keys/secrets.key") == "600" && Self.mode(folder + "/keys") == "700")
        #expect(try SecretsKeySource.file(folder + "/keys/secrets.key").load().key.keyID == made.key.keyID)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/keys/secrets.key")
        #expect(throws: SecretsKeyError.readableByOthers(folder + "/keys/secrets.key", mode: 0o644)) {
            try SecretsKeySource.file(folder + "/keys/secrets.key").load()
        }
        // A systemd credential is found in $CREDENTIALS_DIRECTORY; the option comes first.
        let credentials = RepositoryFactory.temporaryFolder()
        FileManager.default.createFile(
            atPath: credentials + "/" + SecretsKeySource.credentialName,
            contents: Data((Data(repeating: 7, count: 32).base64EncodedString() + "\n").utf8))
        let environment = ["CREDENTIALS_DIRECTORY": credentials]
        #expect(
            SecretsKeySource.choose(explicit: nil, defaultFile: "x.key", environment: environment)
                == .credential(credentials + "/" + SecretsKeySource.credentialName))
        #expect(
            SecretsKeySource.choose(explicit: "a.key", defaultFile: "x.key", environment: environment) == .file("a.key")
        )
        #expect(SecretsKeySource.choose(explicit: nil, defaultFile: "x.key", environment: [:]) == .file("x.key"))
        #expect(
            try SecretsKeySource.credential(credentials + "/" + SecretsKeySource.credentialName).load().key.keyID
                == SecretsKey(bytes: [UInt8](repeating: 7, count: 32)).keyID)
    }
}

import Cryptography
import Foundation
import KioskCore
import KioskDecoding
import KioskStore

/// A door assembled from its configuration: store, keys, decoder, pipeline and controller.
public final class Door {
    public let configuration: KioskConfiguration
    public let store: SQLiteDoorStore
    public let pipeline: DoorPipeline
    public let controller: DoorController

    /// Opens the door's database: it must exist (`kioskctl roster import` creates it), unless `databaseMode`
    /// is `.createIfMissing` (benchmarks and tests that fill a fresh database themselves).
    public init(
        configuration c: KioskConfiguration, display: any StatusDisplay, camera: CameraState,
        databaseMode: SQLiteDoorStore.OpenMode = .openExisting
    ) throws(KioskError) {
        configuration = c
        let keys = try Self.trustedKeys(c)
        let databasePath = c.resolve(c.database)
        do {
            if databaseMode == .createIfMissing { try Self.makeFolder(of: databasePath) }
            store = try SQLiteDoorStore(configuration: c, mode: databaseMode)
        } catch let error as StoreError where error.kind == .missing {
            throw .databaseMissing(path: databasePath, configurationFile: c.file)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .stateFolder(path: databasePath, reason: error.localizedDescription)
        }
        let validator = PassValidator(tenant: c.tenant, event: c.event, verifier: keys)
        pipeline = DoorPipeline(
            settings: .init(door: c.door, mode: c.mode, repeatWindow: c.repeatWindow),
            decoder: KioskDecoder(settings: c.decoder), validator: validator, store: store)
        let pending = (try? store.pendingCount()) ?? 0
        controller = DoorController(
            pipeline: pipeline, display: display,
            status: DoorStatus(
                door: c.door, mode: c.mode, connection: c.server == nil ? .standalone : .offline,
                pendingCheckIns: pending, camera: camera))
        controller.status.roster = (try? store.rosterSyncState(event: c.event))?.freshness ?? .local
    }

    /// Loads every `trusted_key` of the configuration.
    public static func trustedKeys(_ c: KioskConfiguration) throws(KioskError) -> TrustedKeys {
        var keys = TrustedKeys()
        for k in c.trustedKeys {
            do {
                keys.trust(try TrustedKeys.loadKey(k.source, relativeTo: c.baseDirectory), as: k.id)
            } catch {
                throw .trustedKey(file: c.file, line: k.line, error)
            }
        }
        return keys
    }

    /// Creates the database's folder (the kiosk's state folder) if it is missing.
    static func makeFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, path != SQLiteDoorStore.inMemory else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
}

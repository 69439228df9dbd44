import ArgumentParser
import Cryptography
import Foundation
import KioskCore
import KioskScenes
import KioskStore
import PassFormat

struct MakeDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Make a demo event on the spot: fresh keys, a roster of a few hundred guests in SQLite, "
            + "passes rendered as door images, and a kiosk.conf that replays them.",
        discussion: """
            Then run: kiosk --config DIR/kiosk.conf --replay DIR/images

            DIR must not exist, be empty, or be a demo folder an earlier 'kiosk-demo' made (it holds the \
            file \(DemoFolder.markerName)); such a folder is replaced. Any other folder is refused, never \
            deleted. The new demo is built in a temporary folder beside DIR and moved into place only when \
            it is complete, so a failure leaves DIR as it was.
            """)

    @Option(help: "The demo folder (replaced if an earlier demo made it; see below).")
    var dir = ".demo"

    @Option(help: "Guests on the roster (\(MakeDemo.guestRange.lowerBound) to \(MakeDemo.guestRange.upperBound)).")
    var guests = 300

    @Option(help: "Seed of the door scenes (default: a new random one; the keys are always fresh).")
    var seed: UInt64?

    @Option(help: "The passes' tenant id (as the check-in server numbers it, for a demo with a server).")
    var tenant: UInt32 = 7

    @Option(help: "The passes' event id (as the check-in server numbers it, for a demo with a server).")
    var event: UInt32 = 4711

    /// The test set takes 29 guests; more than this makes the roster import slow for no benefit.
    static let guestRange = 40...100_000

    func validate() throws {
        guard Self.guestRange.contains(guests) else {
            throw ValidationError(
                "--guests must be from \(Self.guestRange.lowerBound) to \(Self.guestRange.upperBound), found \(guests)")
        }
        guard !dir.isEmpty else { throw ValidationError("--dir needs a folder path") }
        guard tenant > 0, event > 0 else { throw ValidationError("--tenant and --event must be from 1 to 4294967295") }
        do {
            try DemoFolder.checkReplaceable(dir)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let folder = DemoFolder(dir)
        let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
        let (summary, omitted): ((event: UInt32, guests: Int, images: Int), [TestManifest.Omission])
        do {
            (summary, omitted) = try folder.build { staging in
                try Self.make(
                    in: staging, seed: seed, guests: guests, tenant: TenantID(tenant), event: EventID(event))
            }
        } catch let error as DemoFolderError {
            throw ValidationError(error.description)
        }
        for o in omitted {
            FileHandle.standardError.write(
                Data("kiosk-demo: left out \(o.file): \(o.reason) (see omitted in \(dir)/manifest.json)\n".utf8))
        }
        print(
            "demo event \(summary.event) in \(dir): \(summary.guests) guests in \(dir)/kiosk.db, \(summary.images) door images in \(dir)/images"
        )
    }

    /// Writes a complete demo into `dir` (an empty folder).
    static func make(in dir: String, seed: UInt64, guests: Int, tenant: TenantID, event: EventID) throws -> (
        (event: UInt32, guests: Int, images: Int), [TestManifest.Omission]
    ) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
        var fixture = try FixtureEvent(seed: seed, guestCount: guests, randomKeys: true)
        fixture.tenant = tenant
        fixture.event = event
        for i in fixture.guests.indices {
            fixture.guests[i].tenant = tenant
            fixture.guests[i].event = event
        }
        var generator = TestSetGenerator(fixture: fixture, seed: seed)
        let manifest = try generator.write(to: dir + "/images")
        // The key and roster files live beside the images; move them up so the folder holds only frames.
        try fm.moveItem(atPath: dir + "/images/keys", toPath: dir + "/keys")
        try fm.moveItem(atPath: dir + "/images/roster.csv", toPath: dir + "/roster.csv")
        try fm.moveItem(atPath: dir + "/images/manifest.json", toPath: dir + "/manifest.json")
        try fixture.issuerKey.writePEMFiles(
            privatePath: dir + "/keys/issuer-1.key.pem", publicPath: dir + "/keys/issuer-1.pub.pem")
        let conf = """
            # Demo kiosk made by 'kiosk-demo' (seed \(seed)).
            door = Demo door
            tenant = \(fixture.tenant)
            event = \(fixture.event)
            trusted_key = \(fixture.keyID) keys/issuer-\(fixture.keyID).pub.pem
            database = kiosk.db
            database_key_file = keys/kiosk-db.key
            mode = auto
            source = replay:images
            replay_fps = \(manifest.replayFPS)
            display = text

            """
        try conf.write(toFile: dir + "/kiosk.conf", atomically: true, encoding: .utf8)
        let n: Int
        do {
            let settings = try KioskConfiguration.parse(conf, file: dir + "/kiosk.conf", baseDirectory: dir)
            let store = try SQLiteDoorStore(configuration: settings, mode: .createIfMissing)
            let roster = try Data(contentsOf: URL(fileURLWithPath: dir + "/roster.csv"))
            n = try store.importRoster(csvBytes: [UInt8](roster), tenant: fixture.tenant, event: fixture.event)
        }
        return ((fixture.event.rawValue, n, manifest.entries.count), manifest.omitted ?? [])
    }
}

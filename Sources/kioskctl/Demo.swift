import ArgumentParser
import Foundation
import KioskStore
import KioskTesting

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a demo event on the spot: fresh keys, a roster of a few hundred guests in SQLite, "
            + "passes rendered as door images, and a kiosk.conf that replays them.",
        discussion: "Then run: kiosk --config DIR/kiosk.conf --replay DIR/images")

    @Option(help: "The demo folder (replaced).")
    var dir = ".demo"

    @Option(help: "Guests on the roster.")
    var guests = 300

    func run() throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: dir)
        try fm.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
        let seed = UInt64.random(in: 1...UInt64.max)
        let fixture = try FixtureEvent(seed: seed, guestCount: guests, randomKeys: true)
        var generator = TestSetGenerator(fixture: fixture, seed: seed)
        let manifest = try generator.write(to: dir + "/images")
        // The key and roster files live beside the images; move them up so the folder holds only frames.
        try fm.moveItem(atPath: dir + "/images/keys", toPath: dir + "/keys")
        try fm.moveItem(atPath: dir + "/images/roster.csv", toPath: dir + "/roster.csv")
        try fm.moveItem(atPath: dir + "/images/manifest.json", toPath: dir + "/manifest.json")
        try writeKeyFiles(fixture.issuerKey, privatePath: dir + "/keys/issuer-1.key.pem", publicPath: dir + "/keys/issuer-1.pub.pem")
        let conf = """
            # Demo kiosk made by 'kioskctl demo' (seed \(seed)).
            door = Demo door
            tenant = \(fixture.tenant)
            event = \(fixture.event)
            trusted_key = \(fixture.keyID) keys/issuer-\(fixture.keyID).pub.pem
            database = kiosk.db
            mode = auto
            source = replay:images
            replay_fps = \(manifest.replayFPS)
            display = text

            """
        try conf.write(toFile: dir + "/kiosk.conf", atomically: true, encoding: .utf8)
        let store = try SQLiteDoorStore(path: dir + "/kiosk.db", mode: .createIfMissing)
        let roster = try Data(contentsOf: URL(fileURLWithPath: dir + "/roster.csv"))
        let n = try store.importRoster(csvBytes: [UInt8](roster), tenant: fixture.tenant, event: fixture.event)
        print("demo event \(fixture.event) in \(dir): \(n) guests in \(dir)/kiosk.db, \(manifest.entries.count) door images in \(dir)/images")
    }
}

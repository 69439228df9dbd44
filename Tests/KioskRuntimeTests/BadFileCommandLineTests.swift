import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files named like images that are not images, through the real binaries: `kioskctl decode` exits 2 naming the
/// file and what it is; `kiosk --replay` reports each one and replays the real image beside them.
@Suite struct BadFileCommandLineTests {
    /// A folder holding a FIFO, a link to /dev/zero, a folder, a symbolic link loop and a sparse 30 GB file, each
    /// named like an image, with what each must be called in the error.
    private func badFolder() throws -> (path: String, cases: [(file: String, words: String)]) {
        let folder = Fixtures.temporaryFolder()
        let files = FileManager.default
        #expect(mkfifo(folder + "/f.png", 0o644) == 0)
        try files.createSymbolicLink(atPath: folder + "/z.png", withDestinationPath: "/dev/zero")
        try files.createDirectory(atPath: folder + "/d.png", withIntermediateDirectories: false)
        try files.createSymbolicLink(atPath: folder + "/loop.png", withDestinationPath: "loop.png")
        #expect(files.createFile(atPath: folder + "/h.png", contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/h.png"))
        try handle.truncate(atOffset: 30 << 30)
        try handle.close()
        return (
            folder,
            [
                ("f.png", "is a FIFO, not an image file"), ("z.png", "is a character device, not an image file"),
                ("d.png", "is a directory, not an image file"), ("loop.png", "Too many levels of symbolic links"),
                ("h.png", "more than the 64 MiB limit"),
            ]
        )
    }

    @Test func decodeRefusesEachBadFileWithExitTwoAndItsName() async throws {
        let (folder, cases) = try badFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, words) in cases {
            let (code, out, err) = try await Fixtures.run("kioskctl", ["decode", folder + "/" + file])
            #expect(code == 2, "\(file): \(err)")
            #expect(out.isEmpty)
            #expect(err.contains("\(folder)/\(file): ") && err.contains(words), "\(err)")
        }
    }

    @Test func replayReportsEachBadFileAndReplaysTheRealImage() async throws {
        let (folder, cases) = try badFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Fixtures.testImages + "/001-valid.png", toPath: folder + "/good.png")
        let db = folder + "/kiosk.db"
        let conf = try String(contentsOfFile: Fixtures.configPath, encoding: .utf8)
            .replacingOccurrences(of: "database = .kiosk/kiosk.db", with: "database = \(db)")
            .replacingOccurrences(of: "test-images/", with: Fixtures.testImages + "/")
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let imported = try await Fixtures.run(
            "kioskctl",
            ["roster", "import", "--config", folder + "/kiosk.conf", "--csv", Fixtures.testImages + "/roster.csv"])
        #expect(imported.0 == 0, "\(imported.2)")

        let (code, out, err) = try await Fixtures.run(
            "kiosk", ["--config", folder + "/kiosk.conf", "--replay", folder])
        #expect(code == 0, "\(err)")
        let objects = try out.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0?["file"] as? String == "good.png" && $0?["verdict"] is String })
        for (file, words) in cases {
            #expect(err.contains("replay image skipped: \(folder)/\(file): ") && err.contains(words), "\(file): \(err)")
        }
    }
}

import Foundation
import KioskCore
import KioskRuntime
import Testing

/// Reading kiosk.conf from disk: only a regular file of sane size is read, so a wrong path never hangs the
/// kiosk or fills its memory.
@Suite struct ConfigurationFileTests {
    func loadError(_ path: String) -> String? {
        do {
            _ = try ConfigurationFile.load(path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = Fixtures.temporaryFolder() + "/kiosk.conf"
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(loadError(path))
        #expect(error.contains(path) && error.contains("a FIFO, not a regular file"), "\(error)")
    }

    @Test func aDeviceAFolderAndAMissingFileAreNamed() throws {
        #expect(loadError("/dev/zero")?.contains("/dev/zero: the configuration file is a device") == true)
        let folder = Fixtures.temporaryFolder()
        #expect(loadError(folder)?.contains("is a folder") == true)
        #expect(loadError(folder + "/nope.conf")?.contains("does not exist") == true)
    }

    @Test func aHugeFileIsRefusedBeforeItIsRead() throws {
        let path = Fixtures.temporaryFolder() + "/kiosk.conf"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 3 << 30)  // 3 GiB, sparse
        try handle.close()
        let error = try #require(loadError(path))
        #expect(error.contains("3221225472 bytes") && error.contains("check the path"), "\(error)")
    }
}

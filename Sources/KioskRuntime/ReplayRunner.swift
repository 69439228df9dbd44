import Foundation
import ImageFiles
import KioskCore
import Logging

/// `kiosk --replay DIR`: feeds a folder of images through the whole door as frames on a virtual clock and
/// prints one JSON line per verdict.
///
/// Standard output carries verdict lines only. An entry that cannot be replayed (a broken image, a FIFO or folder
/// named like an image, a file over the size limit) is logged as an error naming the file and why, and still
/// counts as a frame: the `frame` numbers of the verdict lines keep the gap, and the replay goes on.
public struct ReplayRunner {
    public var door: Door
    public var logger: Logger

    public init(door: Door, logger: Logger) {
        self.door = door
        self.logger = logger
    }

    /// Replays `directory` at `fps` frames per (virtual) second; returns every verdict record.
    @discardableResult
    public func run(directory: String, fps: Double, start: Date = Date(), output: (String) -> Void)
        async throws(KioskError) -> [VerdictRecord]
    {
        let source: ReplayFrameSource
        do {
            source = try ReplayFrameSource(directory: directory, framesPerSecond: fps, start: start)
        } catch {
            throw .replay(error)
        }
        logger.info("replaying \(source.fileNames.count) images from \(directory) at \(fps) fps (virtual clock)")
        door.controller.start()
        var records: [VerdictRecord] = []
        var index = 0
        while true {
            let frame: Frame
            do {
                guard let next = try await source.nextFrame() else { break }
                frame = next
            } catch {
                // A bad image is one bad frame at the door: say which, and go on with the next.
                logger.error("\(error)")
                index += 1
                continue
            }
            for result in door.controller.handle(frame: frame.image, at: frame.time) {
                let record = VerdictRecord(result, file: frame.label, frame: index)
                records.append(record)
                output(record.jsonLine)
            }
            index += 1
        }
        return records
    }
}

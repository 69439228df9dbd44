import Foundation
import ImageFiles
import KioskCore
import Logging
import ServiceLifecycle

/// A folder of images as the door's frame source (live mode without a camera): one image per `1 / fps`
/// seconds, then `sourceEnded`. An unreadable image is logged and skipped.
final class ReplaySourceService: Service {
    private let directory: String
    private let framesPerSecond: Double
    private let inbox: DoorInbox
    private let logger: Logger

    init(directory: String, framesPerSecond: Double, inbox: DoorInbox, logger: Logger) {
        self.directory = directory
        self.framesPerSecond = framesPerSecond
        self.inbox = inbox
        self.logger = logger
    }

    func run() async {
        await cancelWhenGracefulShutdown { [directory, framesPerSecond, inbox, logger] in
            do {
                let source = try ReplayFrameSource(directory: directory, framesPerSecond: framesPerSecond)
                var motion = MotionDetector()
                while !Task.isCancelled {
                    let frame: Frame?
                    do { frame = try await source.nextFrame() } catch {
                        logger.error("\(error)")
                        continue
                    }
                    guard let frame else { break }
                    inbox.post(
                        .frame(
                            CapturedFrame(
                                image: frame.image, time: Date(), motion: motion.measure(frame.image),
                                label: frame.label)))
                    try? await Task.sleep(for: .seconds(1 / framesPerSecond))
                }
            } catch {
                logger.error("replay source: \(error)")
            }
            inbox.post(.sourceEnded)
        }
        await stayUntilShutdown()
    }
}

import AsyncAlgorithms
import Foundation
import KioskCore
import KioskImageIO
import Logging
import ServiceLifecycle

/// The door running live: frames from the configured source at its frame rate, keys from the keyboard,
/// verdicts on the display. Stops on SIGTERM/SIGINT (graceful shutdown of the service group).
public final class DoorService: Service {
    enum Event: Sendable {
        case frame(Frame)
        case key(KeyEvent)
        case sourceEnded
    }

    private let makeDoor: @Sendable () throws -> Door
    private let configuration: KioskConfiguration
    private let logger: Logger
    private let keyboard: KeyboardInput?

    /// - Parameter makeDoor: builds the door inside the service's task, which then owns it alone.
    public init(configuration: KioskConfiguration, keyboard: KeyboardInput?, logger: Logger,
                makeDoor: @escaping @Sendable () throws -> Door) {
        self.configuration = configuration
        self.keyboard = keyboard
        self.logger = logger
        self.makeDoor = makeDoor
    }

    public func run() async throws {
        let door = try makeDoor()
        door.controller.start()
        let frames = frameEvents()
        let keys = (keyboard?.keys() ?? AsyncStream { $0.finish() }).map { Event.key($0) }
        defer { keyboard?.restore() }
        for await event in merge(frames, keys).cancelOnGracefulShutdown() {
            switch event {
            case .frame(let frame):
                if !door.controller.handle(frame: frame.image, at: Date()).isEmpty { door.refreshStatus() }
            case .key(let key):
                if door.controller.handle(key: key, at: Date()) != nil { door.refreshStatus() }
            case .sourceEnded:
                logger.info("frame source ended; manual entry stays available (Ctrl-C to stop)")
            }
        }
    }

    /// Frames from the configured source, newest only: a slow decoder never works through a backlog.
    private func frameEvents() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        let configuration = self.configuration
        let logger = self.logger
        let task = Task {
            switch configuration.source {
            case .camera(let device):
                logger.error("camera source \(device) is not available in this build; use source = replay:<folder>")
                continuation.yield(.sourceEnded)
            case .replay(let folder):
                let fps = configuration.effectiveReplayFPS
                do {
                    let source = try ReplayFrameSource(directory: configuration.resolve(folder), framesPerSecond: fps)
                    while !Task.isCancelled {
                        let frame: Frame?
                        do { frame = try await source.nextFrame() } catch { logger.error("\(error)"); continue }
                        guard let frame else { break }
                        continuation.yield(.frame(frame))
                        try? await Task.sleep(for: .seconds(1 / fps))
                    }
                } catch {
                    logger.error("replay source: \(error)")
                }
                continuation.yield(.sourceEnded)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

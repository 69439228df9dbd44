import ArgumentParser
import Foundation
import KioskCore
import KioskDisplay
import KioskRuntime
import Logging
import ServiceLifecycle

@main
struct Kiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "The door daemon: QR passes in front of the camera, verdicts on the screen.",
        discussion: """
            Without --replay the kiosk runs live: frames from the configured source, staff's keyboard for \
            manual entry and confirmation. With --replay DIR it feeds the images of DIR through the whole \
            pipeline on a virtual clock, prints one JSON line per verdict and exits.
            """)

    @Option(help: "The configuration file.")
    var config = "kiosk.conf"

    @Option(help: "Replay the images of this folder as frames (in name order), print verdicts as JSON lines, exit.")
    var replay: String?

    @Option(
        help:
            "Frames per second of the replay's virtual clock, \(KioskConfiguration.Limits.replayFPS.lowerBound) to \(KioskConfiguration.Limits.replayFPS.upperBound) (default: replay_fps, else idle_fps)."
    )
    var fps: Double?

    @Option(help: "Use this database file instead of the configuration's.")
    var database: String?

    func validate() throws {
        let range = KioskConfiguration.Limits.replayFPS
        if let fps, !(fps.isFinite && range.contains(fps)) {
            throw ValidationError(
                "--fps must be a number from \(range.lowerBound) to \(range.upperBound) (frames per second of the replay's virtual clock), found \(fps)"
            )
        }
        if replay == nil, fps != nil {
            throw ValidationError("--fps applies to a replay only: add --replay DIR, or drop --fps")
        }
        if let database, database.isEmpty { throw ValidationError("--database needs a file path") }
    }

    func run() async throws {
        var settings: KioskConfiguration
        do {
            settings = try ConfigurationFile.load(config)
        } catch {
            throw ValidationError("\(error)")
        }
        if let database {
            settings.database =
                database.hasPrefix("/") ? database : FileManager.default.currentDirectoryPath + "/" + database
        }
        let level = Logger.Level(configured: settings.logLevel)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "kiosk")
        do {
            if let replay {
                let door = try Door(
                    configuration: settings, display: TextStatusDisplay(colours: isatty(STDERR_FILENO) == 1),
                    camera: .replay)
                let fps = self.fps ?? settings.effectiveReplayFPS
                try await ReplayRunner(door: door, logger: logger).run(directory: replay, fps: fps) { line in
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                }
            } else {
                let display = try DisplayFactory.make(settings, logger: logger)
                nonisolated(unsafe) let handOver = display  // used only by the service's task from here on
                let camera: CameraState =
                    if case .camera(let device) = settings.source { .opening(device) } else { .replay }
                let group = LiveKiosk.serviceGroup(
                    configuration: settings, configurationPath: config,
                    keyboard: KeyboardInput(), logger: logger
                ) { conf in
                    try Door(configuration: conf, display: handOver, camera: camera)
                }
                try await group.run()
            }
        } catch let error as KioskError {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
    }
}

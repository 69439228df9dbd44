import KioskCore
import KioskPeers
import KioskStore
import KioskSync
import Logging
import ServiceLifecycle

/// The live kiosk as a service group: the door loop, the watchdog, the frame source (camera or replayed
/// folder), the keyboard and SIGHUP, started in that order and stopped gracefully in the reverse order on
/// SIGTERM or SIGINT (so the door loop is the last to stop), within `shutdownLimit`.
public enum LiveKiosk {
    /// How long a graceful stop may take before the remaining services are cancelled.
    public static let shutdownLimit: Duration = .seconds(5)

    /// - Parameter makeDoor: builds the door inside the door loop's task, which then owns it alone.
    public static func serviceGroup(
        configuration: KioskConfiguration, configurationPath: String, keyboard: KeyboardInput?, logger: Logger,
        notifier: SystemdNotifier = SystemdNotifier(),
        makeDoor: @escaping @Sendable (KioskConfiguration) throws -> Door
    ) -> ServiceGroup {
        let inbox = DoorInbox()
        let heartbeat = DoorHeartbeat()
        let control = CaptureControl(
            device: "", width: configuration.captureWidth,
            height: configuration.captureHeight, fps: configuration.idleFPS)
        let requests = configuration.server == nil ? nil : SyncRequests()
        let door = DoorService(
            configuration: configuration, configurationPath: configurationPath, inbox: inbox,
            control: control, heartbeat: heartbeat, logger: logger, notifier: notifier, requests: requests,
            makeDoor: makeDoor)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: door, serviceName: "door loop"),
            .init(
                service: WatchdogService(notifier: notifier, heartbeat: heartbeat, inbox: inbox, logger: logger),
                serviceName: "watchdog"),
        ]
        // A source that ends (the end of a replay, the end of standard input) leaves the door running.
        switch configuration.source {
        case .camera(let device):
            control.request(device: device, width: configuration.captureWidth, height: configuration.captureHeight)
            services.append(
                .init(
                    service: CaptureService(control: control, inbox: inbox, heartbeat: heartbeat, logger: logger),
                    successTerminationBehavior: .ignore, serviceName: "capture"))
        case .replay(let folder):
            services.append(
                .init(
                    service: ReplaySourceService(
                        directory: configuration.resolve(folder),
                        framesPerSecond: configuration.effectiveReplayFPS,
                        inbox: inbox, logger: logger),
                    successTerminationBehavior: .ignore, serviceName: "replay source"))
        }
        if let keyboard {
            services.append(
                .init(
                    service: KeyboardService(keyboard: keyboard, inbox: inbox),
                    successTerminationBehavior: .ignore, serviceName: "keyboard"))
        }
        // With a server configured, the sync worker uploads the queue and tells the door online/OFFLINE.
        if let requests {
            services.append(
                .init(
                    service: SyncWorker(
                        configuration: configuration, requests: requests, logger: logger,
                        openStore: { try SQLiteDoorStore(configuration: configuration, mode: .openExisting) }
                    ) { inbox.post(.sync($0)) },
                    serviceName: "sync worker"))
        }
        // With a server and `lan_sync` on, the door exchanges check-ins with the event's other doors on the LAN.
        if requests != nil, configuration.lanSync, let verifier = try? Door.trustedKeys(configuration) {
            services.append(
                .init(
                    service: PeerService(
                        event: configuration.event,
                        settings: PeerSettings(
                            port: configuration.lanPort, discoveryPort: configuration.lanDiscoveryPort,
                            interface: configuration.lanInterface),
                        verifier: verifier, logger: logger,
                        openStore: { try SQLiteDoorStore(configuration: configuration, mode: .openExisting) },
                        linksChanged: { inbox.post(.lan(doors: $0)) }),
                    serviceName: "LAN between doors"))
        }
        services.append(.init(service: ReloadSignalService(inbox: inbox), serviceName: "SIGHUP reload"))
        var group = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        group.maximumGracefulShutdownDuration = shutdownLimit
        return ServiceGroup(configuration: group)
    }
}

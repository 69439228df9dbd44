import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload kiosk`) as a service: each signal asks the door loop to read kiosk.conf again.
final class ReloadSignalService: Service {
    private let inbox: DoorInbox

    init(inbox: DoorInbox) { self.inbox = inbox }

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            inbox.post(.reload)
        }
    }
}

import KioskCore
import KioskSync

/// What reaches the door loop: frames, keys, camera news, a reload, the end of a replay, the watchdog's tick.
enum DoorEvent: Sendable {
    case frame(CapturedFrame)
    case key(KeyEvent)
    case camera(CameraEvent)
    case reload
    case sourceEnded
    /// The watchdog asks the door loop to show it is alive.
    case tick
    /// The sync worker's news: online or OFFLINE, and how many check-ins wait for the server.
    case sync(SyncStatus)
    /// The LAN between doors: how many doors this one is linked with now.
    case lan(doors: Int)
}

/// The door loop's inbox: frames keep only the newest (a slow decode drops frames, never queues them); every
/// other event is kept in order.
final class DoorInbox: Sendable {
    let frames: AsyncStream<DoorEvent>
    let others: AsyncStream<DoorEvent>
    private let frameInput: AsyncStream<DoorEvent>.Continuation
    private let otherInput: AsyncStream<DoorEvent>.Continuation

    init() {
        (frames, frameInput) = AsyncStream.makeStream(of: DoorEvent.self, bufferingPolicy: .bufferingNewest(1))
        (others, otherInput) = AsyncStream.makeStream(of: DoorEvent.self)
    }

    func post(_ event: DoorEvent) {
        if case .frame = event { frameInput.yield(event) } else { otherInput.yield(event) }
    }
}

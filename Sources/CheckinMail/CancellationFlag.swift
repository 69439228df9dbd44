import Synchronization

/// Set by the task that is cancelled, read by libcurl's callbacks on the transfer's thread.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func cancel() { value.store(true, ordering: .relaxed) }

    var isCancelled: Bool { value.load(ordering: .relaxed) }
}

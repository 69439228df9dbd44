import Foundation

/// How a step's result moves an issuance on: the one rule both repositories store.
public enum IssuanceProgress {
    public static func apply(_ result: IssuanceStepResult, to issuance: PassIssuance, now: Date) -> PassIssuance {
        var next = issuance
        next.updatedAt = now
        func advance(to step: IssuanceStep) {
            next.step = step
            next.attempts = 0
            next.lastError = nil
            next.nextAttemptAt = now
        }
        switch result {
        case .signed(let pass):
            next.pass = pass
            advance(to: .render)
        case .rendered(let png):
            next.image = png
            advance(to: .store)
        case .stored(let name):
            next.storedName = name
            advance(to: issuance.recipient == nil ? .done : .email)
        case .sent(let at):
            next.sentAt = at
            advance(to: .done)
        case .nothingToSend:
            advance(to: .done)
        case .cancelled(let reason):
            next.step = .cancelled
            next.lastError = reason
        case .retry(let error):
            next.attempts += 1
            next.lastError = error
            if next.attempts >= IssuanceBackoff.maximumAttempts {
                next.failedStep = issuance.step
                next.step = .failed
            } else {
                next.nextAttemptAt = now.addingTimeInterval(IssuanceBackoff.delay(afterAttempt: next.attempts))
            }
        case .fail(let error):
            next.attempts += 1
            next.lastError = error
            next.failedStep = issuance.step
            next.step = .failed
        }
        return next
    }

    /// The organizer's "retry": the failed step runs again now, its attempts counted from zero.
    public static func retryByHand(_ issuance: PassIssuance, step: IssuanceStep, now: Date) -> PassIssuance {
        var next = issuance
        next.step = step
        next.failedStep = nil
        next.attempts = 0
        next.nextAttemptAt = now
        next.updatedAt = now
        return next
    }
}

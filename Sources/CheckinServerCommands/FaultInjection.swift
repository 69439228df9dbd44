import ArgumentParser
import CheckinCore
import Foundation

/// The crash runs of the tests (`PassIssuanceLiveTests`): `CHECKIN_FAULT_CRASH_AFTER_STEP=sign|render|store|email`
/// makes the issuance worker kill its own process right after committing that step. Compiled into debug builds
/// only (`CHECKIN_FAULT_INJECTION`, set in Package.swift for the debug configuration): a release binary has no
/// such seam and never reads the variable.
enum FaultInjection {
    static let variable = "CHECKIN_FAULT_CRASH_AFTER_STEP"

    /// The step to crash after, if the variable names one; a value that names none is refused.
    static func crashAfterStep() throws -> IssuanceStep? {
        #if CHECKIN_FAULT_INJECTION
            guard let step = ProcessInfo.processInfo.environment[variable] else { return nil }
            guard let parsed = IssuanceStep(rawValue: step) else {
                throw ValidationError("\(variable) '\(step)' is not one of sign, render, store, email")
            }
            return parsed
        #else
            return nil
        #endif
    }
}

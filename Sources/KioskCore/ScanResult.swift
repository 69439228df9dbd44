import PassFormat

import struct Foundation.Date

/// One decision of the door: the verdict shown, and what the audit log recorded.
public struct ScanResult: Equatable, Sendable {
    public var verdict: Verdict
    public var at: Date
    public var source: ScanSource
    /// The reason written to the audit log (more than the screen says).
    public var auditReason: String
    /// The pass, when the code was one and verified.
    public var token: PassToken?

    public init(verdict: Verdict, at: Date, source: ScanSource, auditReason: String, token: PassToken? = nil) {
        self.verdict = verdict
        self.at = at
        self.source = source
        self.auditReason = auditReason
        self.token = token
    }
}

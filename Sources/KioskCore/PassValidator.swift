import PassFormat

/// Why a pass is not valid at this door. The door shows one identical "not valid here" for all of
/// them; the audit log records which.
public enum PassRejection: Equatable, Sendable, CustomStringConvertible {
    case malformed(PassFormatError)
    case unknownKey(KeyID)
    case badSignature
    case otherTenant(TenantID)
    case otherEvent(EventID)

    public var description: String {
        switch self {
        case .malformed(let e): "malformed: \(e)"
        case .unknownKey(let k): "unknown key id \(k)"
        case .badSignature: "signature does not verify (forged or altered)"
        case .otherTenant(let t): "pass of another tenant (\(t))"
        case .otherEvent(let e): "pass of another event (\(e))"
        }
    }
}

public enum PassCheck: Equatable, Sendable {
    case valid(PassToken)
    case rejected(PassRejection)
}

/// Validates a scanned code against the door's tenant, event and trusted keys.
public struct PassValidator: Sendable {
    public let tenant: TenantID
    public let event: EventID
    public let verifier: any PassSignatureVerifier

    public init(tenant: TenantID, event: EventID, verifier: any PassSignatureVerifier) {
        self.tenant = tenant
        self.event = event
        self.verifier = verifier
    }

    /// The signature is checked before tenant and event, so a forged pass naming another event is
    /// recorded as forged, not as a guest at the wrong door.
    public func check(payload: some Collection<UInt8>) -> PassCheck {
        let token: PassToken
        do {
            token = try PassToken(payload: payload)
        } catch {
            return .rejected(.malformed(error))
        }
        guard verifier.trustsKey(token.keyID) else { return .rejected(.unknownKey(token.keyID)) }
        guard verifier.isValidSignature(token.signature, of: token.signedMessage, keyID: token.keyID) else {
            return .rejected(.badSignature)
        }
        guard token.tenant == tenant else { return .rejected(.otherTenant(token.tenant)) }
        guard token.event == event else { return .rejected(.otherEvent(token.event)) }
        return .valid(token)
    }
}

// libFuzzer entry point for the pass parser. Built by `Fuzz/run.sh pass-parser` (swiftc
// -sanitize=fuzzer,address) against the fuzz build of KioskCore, not by SwiftPM.

@testable import KioskCore
@testable import PassFormat

/// A verifier that trusts key 1 and accepts a signature whose first byte is 0x5A, so the fuzzer can reach
/// every branch of the validator without real cryptography.
struct FuzzVerifier: PassSignatureVerifier {
    func trustsKey(_ keyID: KeyID) -> Bool { keyID == 1 }
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], keyID: KeyID) -> Bool {
        signature.first == 0x5A && message.starts(with: PassToken.domainTag)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func passParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let token = try? PassToken(payload: bytes) {
        // Whatever parses must re-encode to the same token, in both spellings.
        guard let again = try? PassToken(payload: Array(token.url(base: "https://x/p").utf8)), again == token,
            (try? PassToken(bytes: token.bytes)) == token
        else {
            fatalError("round trip changed the token")
        }
    }
    let validator = PassValidator(tenant: TenantID(7), event: EventID(4711), verifier: FuzzVerifier())
    if case .valid(let token) = validator.check(payload: bytes) {
        guard token.keyID == 1, token.tenant == TenantID(7), token.event == EventID(4711) else {
            fatalError("validator accepted a pass of another key, tenant or event")
        }
    }
    _ = GuestID(text: String(decoding: bytes, as: UTF8.self))
    var parser = KeyEvent.Parser()
    _ = parser.parse(bytes)
    return 0
}

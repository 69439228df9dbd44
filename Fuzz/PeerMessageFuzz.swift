// libFuzzer entry point for what a door reads from other doors: a linked door's message (`PeerMessage.decoded`,
// whose hello of -2^63 killed the doors it reached) and a multicast announcement from anyone on the LAN
// (`PeerAnnouncement.read`: the datagram's length, its JSON, the credential's checks, the time and the port).
// Built by `Fuzz/run.sh peer-message`, compiled together with the NIO-free files of Sources/KioskPeers. The first
// byte chooses: even a message, odd a datagram. The harness's verifier trusts every key id and signature, so
// the fuzzer reaches the checks after the server's signature.

import BoundedNumbers
import Foundation
import KioskCore
import PassFormat

struct TrustingVerifier: PassSignatureVerifier {
    func trustsKey(_ keyID: KeyID) -> Bool { true }
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], keyID: KeyID) -> Bool { true }
}

let now = Date(timeIntervalSince1970: 1_795_431_795)

@_cdecl("LLVMFuzzerTestOneInput")
public func peerMessageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        guard let message = try? PeerMessage.decoded(Data(bytes)) else { return 0 }
        if case .hello(_, let sentAt, _) = message, !ClockDistance.milliseconds.contains(sentAt) {
            fatalError("a hello sent at \(sentAt) was accepted")
        }
        guard let encoded = try? JSONEncoder().encode(message),
            let again = try? PeerMessage.decoded(encoded), again == message
        else { fatalError("a message changed when written and read back") }
    } else {
        guard
            let (announcement, _, _) = try? PeerAnnouncement.read(
                datagram: bytes, tenant: 7, event: 42, now: now, verifier: TrustingVerifier())
        else { return 0 }
        let clock = Int64(now.timeIntervalSince1970 * 1000)
        guard ClockDistance.isWithin(300_000, of: clock, time: announcement.sentAt),
            (1...65535).contains(announcement.port), announcement.credential.tenant == 7,
            announcement.credential.event == 42
        else { fatalError("an announcement outside its checks was accepted: \(announcement)") }
    }
    return 0
}

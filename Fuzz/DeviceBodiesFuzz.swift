// libFuzzer entry point for the bodies a device sends besides its uploads: the enrolment request (anyone may send
// one) and the heartbeat, decoded as the server decodes them and checked against their bounds
// (`boundsProblem`). Built by `Fuzz/run.sh device-bodies`, linked against WireAPI. The first
// byte chooses the body: even an enrolment request, odd a heartbeat.

import Foundation
import WireAPI

@_cdecl("LLVMFuzzerTestOneInput")
public func deviceBodiesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] & 1 == 0 {
        guard let request = try? APICoding.decoder().decode(EnrolmentRequest.self, from: body) else { return 0 }
        guard request.boundsProblem == nil else { return 0 }
        guard (1...64).contains(request.door.count), (1...64).contains(request.code.utf8.count) else {
            fatalError("an enrolment request past its bounds was accepted")
        }
        roundTrip(request)
    } else {
        guard let report = try? APICoding.decoder().decode(Heartbeat.self, from: body) else { return 0 }
        guard report.boundsProblem == nil else { return 0 }
        guard Heartbeat.pendingCounts.contains(report.pending), (report.rosterCursor?.utf8.count ?? 0) <= 4096,
            (report.lanPeers?.count ?? 0) <= Heartbeat.maximumLANPeers
        else { fatalError("a heartbeat past its bounds was accepted") }
        roundTrip(report)
    }
    return 0
}

/// A body accepted is written by the API's encoder and read back unchanged (times to the millisecond).
func roundTrip<T: Codable & Equatable>(_ value: T) {
    guard let encoded = try? APICoding.encoder().encode(value),
        let again = try? APICoding.decoder().decode(T.self, from: encoded)
    else { fatalError("an accepted \(T.self) cannot be written and read back") }
    guard let twice = try? APICoding.encoder().encode(again), twice == encoded else {
        fatalError("an accepted \(T.self) changed when written and read back")
    }
}

import Foundation
import KioskCore
import Testing

@Suite struct DoorLivenessTests {
    let start = Date(timeIntervalSince1970: 1_000)

    @Test func aDoorWhosePartsAnsweredLatelyIsAlive() {
        let live = DoorLiveness(doorLoop: start + 9, capture: start + 9.5, captureRunning: true)
        #expect(live.stall(now: start + 10, since: start, limit: 5) == nil)
    }

    @Test func aStalledDoorLoopIsNamedEvenWhileTheCameraDeliversFrames() {
        let live = DoorLiveness(doorLoop: start + 2, capture: start + 19, captureRunning: true)
        #expect(live.stall(now: start + 20, since: start, limit: 5) == .doorLoop(seconds: 18))
    }

    @Test func aCaptureThreadStuckInTheDriverIsNamed() {
        let live = DoorLiveness(doorLoop: start + 19, capture: start + 3, captureRunning: true)
        #expect(live.stall(now: start + 20, since: start, limit: 5) == .capture(seconds: 17))
    }

    @Test func aReplayHasNoCaptureThreadToWaitFor() {
        let live = DoorLiveness(doorLoop: start + 19, capture: nil, captureRunning: false)
        #expect(live.stall(now: start + 20, since: start, limit: 5) == nil)
    }

    @Test func partsThatNeverAnsweredCountFromTheStart() {
        #expect(DoorLiveness().stall(now: start + 4, since: start, limit: 5) == nil)
        #expect(DoorLiveness().stall(now: start + 6, since: start, limit: 5) == .doorLoop(seconds: 6))
    }
}

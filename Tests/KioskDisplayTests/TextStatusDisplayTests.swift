import Foundation
import KioskCore
import KioskDisplay
import PassFormat
import SignedRecords
import Testing

/// The text display shows the same colours and words as the framebuffer: both come from the core.
@Suite struct TextStatusDisplayTests {
    let ada = GuestSummary(
        guest: GuestID(text: "AAAAAAAAAAAAAAAA")!, name: "Ada Lovelace", partySize: 2,
        notes: "Wheelchair access")
    let display = TextStatusDisplay()

    func status(_ connection: SyncConnection, camera: CameraState = .streaming("640x480 YUYV")) -> DoorStatus {
        DoorStatus(door: "North door", mode: .auto, connection: connection, pendingCheckIns: 3, camera: camera)
    }

    @Test(arguments: [
        (
            Verdict.admitted(
                GuestSummary(guest: GuestID(text: "AAAAAAAAAAAAAAAA")!, name: "A", partySize: 1, notes: ""), arrived: 1),
            "GREEN ▌ WELCOME"
        ),
        (Verdict.notValidHere, "RED ▌ NOT VALID HERE"),
        (Verdict.notInRoster, "BLUE ▌ NOT IN ROSTER"),
        (Verdict.recordFailed("disk full"), "RED ▌ CANNOT RECORD"),
    ])
    func theHeadlineCarriesTheVerdictsColour(verdict: Verdict, headline: String) {
        let text = display.render(
            .verdict(ScanResult(verdict: verdict, at: Date(), source: .camera, auditReason: ""), status(.standalone)))
        #expect(text.hasPrefix(headline), "\(text)")
    }

    @Test func aDoorWithoutServerSaysStandaloneNotOffline() {
        let text = display.render(.ready(status(.standalone)))
        #expect(text.contains("| standalone |") && !text.lowercased().contains("offline"), "\(text)")
        #expect(display.render(.ready(status(.offline))).contains("| OFFLINE |"))
        #expect(display.render(.ready(status(.online))).contains("| online |"))
    }

    @Test func aDisconnectedCameraIsSaidOnTheReadyScreen() {
        let text = display.render(.ready(status(.standalone, camera: .disconnected("VIDIOC_DQBUF: No such device"))))
        #expect(text.hasPrefix("Camera disconnected: type a code"), "\(text)")
        #expect(text.contains("camera: Camera disconnected"))
    }

    @Test func theConfirmScreenUsesTheSharedWords() {
        let text = display.render(.confirm(ada, arrived: ""))
        #expect(text.contains(ScreenText.confirmHeadline) && text.contains(ScreenText.confirmKeys))
        #expect(text.contains("Arrived: 2") && text.contains("Party of 2") && text.contains("Notes: Wheelchair access"))
        #expect(display.render(.confirm(ada, arrived: "1")).contains("Arrived: 1"))
    }
}

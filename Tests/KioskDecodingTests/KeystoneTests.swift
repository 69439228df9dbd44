import Foundation
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// A pass tilted far away from the camera (a guest holding a printed pass at 45 degrees to the lens): the code's
/// near finder pattern has modules over twice its far one's, which no triple of the gate's (modules within 2:1)
/// pairs, in a frame with dozens of finder-like marks inside the code itself.
@Suite struct KeystoneTests {
    static let text = "HTTPS://PASS.EXAMPLE.ORG/P/KEYSTONE-TILTED-FAR-AWAY-FROM-THE-CAMERA-0042"
    static let code = try! QRCodeRenderer.render(text, moduleSize: 1, quietZone: 0, minimumVersion: 10)

    /// The code's corners (top left, top right, bottom left, bottom right) as a 640×480 camera with a wide lens
    /// (focal length 0.7 of the width) sees a square card tilted 45 degrees about an axis at 35 degrees to the rows,
    /// turned 15 degrees.
    static let corners: [SIMD2<Double>] = {
        let (tilt, axis, roll) = (45.0 * .pi / 180, 35.0 * .pi / 180, 15.0 * .pi / 180)
        let k = SIMD3(cos(axis), sin(axis), 0)
        func rotated(_ p: SIMD3<Double>) -> SIMD3<Double> {
            // Rodrigues: about k by `tilt`, after turning in the card's plane by `roll`.
            let q = SIMD3(p.x * cos(roll) - p.y * sin(roll), p.x * sin(roll) + p.y * cos(roll), p.z)
            let kq = SIMD3(k.y * q.z - k.z * q.y, k.z * q.x - k.x * q.z, k.x * q.y - k.y * q.x)
            return q * cos(tilt) + kq * sin(tilt) + k * ((k * q).sum() * (1 - cos(tilt)))
        }
        return [SIMD2(-0.5, -0.5), SIMD2(0.5, -0.5), SIMD2(-0.5, 0.5), SIMD2(0.5, 0.5)].map { corner in
            let p = rotated(SIMD3(corner.x, corner.y, 0)) + SIMD3(0, 0, 1.25)
            return SIMD2(320 + 448 * p.x / p.z, 240 + 448 * p.y / p.z)
        }
    }()

    static let scene = TestScenes.drawn(code.image, at: corners, width: 640, height: 480)

    /// The three finder patterns' centres in the frame.
    static var centres: [SIMD2<Double>] {
        let n = Double(code.moduleCount)
        let toFrame = Homography(from: [.zero, SIMD2(n, 0), SIMD2(0, n), SIMD2(n, n)], to: corners)!
        return [SIMD2(3.5, 3.5), SIMD2(n - 3.5, 3.5), SIMD2(3.5, n - 3.5)].map { toFrame($0) }
    }

    @Test func theCodeIsTiltedFarAway() throws {
        #expect(Self.code.version == 10)
        let marks = FinderPatternGate().finders(Self.scene, stopAt: KioskDecoder.findersLooked, aslant: true)
        // The code's own finder patterns are among the gate's marks, with many more, and the near one's modules are
        // over twice the far one's as the gate measures them: no triple of the gate's pairs them.
        let three = try Self.centres.map { centre in
            try #require(
                marks.min {
                    (($0.centre - centre) * ($0.centre - centre)).sum()
                        < (($1.centre - centre) * ($1.centre - centre)).sum()
                })
        }
        for (mark, centre) in zip(three, Self.centres) {
            #expect(((mark.centre - centre) * (mark.centre - centre)).sum() < 25)
        }
        #expect(marks.count > KioskDecoder.findersForSteepTriples)
        let modules = three.map(\.module)
        #expect(modules.max()! > 2 * modules.min()!, "\(modules)")
    }

    @Test func aCodeTiltedFarAwayIsReadFromItsKeystoneTriple() throws {
        let marks = FinderPatternGate().finders(Self.scene, stopAt: KioskDecoder.findersLooked, aslant: true)
        let triples = CodeGrid.keystoneTriples(marks, in: Self.scene, limit: KioskDecoder.keystoneTriplesTried)
        // The code's three, as top left, top right and bottom left, are among the first tried.
        #expect(
            triples.contains { triple in
                zip([triple.0, triple.1, triple.2], Self.centres).allSatisfy { mark, centre in
                    ((mark.centre - centre) * (mark.centre - centre)).sum() < 25
                }
            })
        let read = KioskDecoder().decode(Self.scene)
        #expect(read.map(\.payload) == [Array(Self.text.utf8)])
        #expect(read.first?.foundBy.hasSuffix(":resampled") == true)
    }
}

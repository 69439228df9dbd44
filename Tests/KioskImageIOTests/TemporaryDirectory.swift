import Foundation

/// A fresh folder under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-imageio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A deterministic test picture: a diagonal gradient with a few hard edges.
func testPattern(width: Int, height: Int) -> [UInt8] {
    (0..<(width * height)).map { i in
        let x = i % width
        let y = i / width
        return UInt8((x * 3 + y * 2) % 256 / (x % 16 < 8 ? 1 : 2))
    }
}

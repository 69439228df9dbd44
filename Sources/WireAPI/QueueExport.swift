import Foundation

/// A kiosk's queue written to a file (`kioskctl queue export`) for a box that cannot reach the server: the items
/// exactly as the kiosk would upload them, under its own idempotency keys, so the server applies each once whether
/// it comes from this file (`checkin-server import-queue`), from the kiosk's own upload later, or both.
public struct QueueExport: Codable, Equatable, Sendable {
    /// `checkin-queue-export/1`; a reader refuses another.
    public var format: String
    public var tenant: UInt32
    public var event: UInt32
    public var deviceId: String
    public var door: String
    public var exportedAt: Date
    /// Check-ins and reverts not yet acknowledged by the server, in scan (sequence) order.
    public var items: [CheckInItem]

    public static let currentFormat = "checkin-queue-export/1"

    public init(tenant: UInt32, event: UInt32, deviceId: String, door: String, exportedAt: Date, items: [CheckInItem]) {
        self.format = Self.currentFormat
        self.tenant = tenant
        self.event = event
        self.deviceId = deviceId
        self.door = door
        self.exportedAt = exportedAt
        self.items = items
    }

    /// Reads an export, refusing a file of another format or with items under another device's keys.
    public static func decode(_ data: Data) throws(QueueExportError) -> QueueExport {
        let export: QueueExport
        do {
            export = try APICoding.decoder().decode(QueueExport.self, from: data)
        } catch {
            throw .unreadable("\(error)")
        }
        guard export.format == currentFormat else { throw .unknownFormat(export.format) }
        if let stranger = export.items.first(where: { $0.key.deviceId != export.deviceId }) {
            throw .foreignKey(stranger.key.deviceId, expected: export.deviceId)
        }
        return export
    }
}

/// Why a queue export cannot be read.
public enum QueueExportError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case unknownFormat(String)
    case foreignKey(String, expected: String)

    public var description: String {
        switch self {
        case .unreadable(let reason):
            "not a kiosk's queue export (\(reason)): give a file that `kioskctl queue export` wrote"
        case .unknownFormat(let format):
            "a queue export of format '\(format)', which this version does not read (it reads "
                + "\(QueueExport.currentFormat)): import it with the server version of the kiosk that wrote it"
        case .foreignKey(let device, let expected):
            "the export of device \(expected) holds an item of device \(device): the file was edited or put "
                + "together by hand; export the kiosk's queue again"
        }
    }
}

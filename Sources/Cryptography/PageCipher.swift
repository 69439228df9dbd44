internal import Crypto
import Foundation

/// AES-256-GCM over fixed-size pages whose last bytes are kept for it: the rest of the page is encrypted in place,
/// and the tail holds what opening it needs, ending with a 4-byte mark that names the page's format.
///
/// Format 2 ("KG2\0", `reservedBytes` = 48): a 16-byte database id, the 96-bit nonce, the 128-bit tag and the mark.
/// The mark, the database id and the caller's binding (where the page belongs: for the kiosk's VFS the file, the
/// page number and the WAL frame) are authenticated as additional data, so a page opens only in the database and
/// at the place it was sealed for. Format 1 ("KG1\0", `unboundReservedBytes` = 32: nonce, tag, mark) authenticated
/// the mark alone, so a page opened wherever it was put; it is kept to read databases from before page binding
/// once, while they are rewritten.
///
/// The kiosk's encrypted SQLite pages use it; SQLite leaves the tail alone because the database is created with
/// that many reserved bytes per page.
///
/// Nonces: each cipher draws a random 96-bit start and counts up from it, one per page sealed, so no two seals of
/// one cipher share a nonce, and two ciphers under one key (each connection, each process) collide only if their
/// runs of nonces overlap: with a million ciphers sealing a billion pages each, about 10⁻⁸. A random nonce per
/// page (from the system's generator) cost 1.4 µs of a 2.4 µs seal, and an admit seals some 16 pages with its
/// checkpoint share.
///
/// swift-crypto's AES-GCM (BoringSSL) does the sealing (decision 0004); it works on copies, so each page is copied
/// out and back. One owner uses a cipher from one thread at a time (the nonce counter).
public final class PageCipher {
    /// The formats of a sealed page, told apart by its last 4 bytes.
    public enum Format: Sendable {
        /// Format 1: nonce, tag and mark; the page is not bound to its place.
        case unbound
        /// Format 2: database id, nonce, tag and mark; the page is bound to its database and place.
        case bound

        /// The bytes at the end of each page that belong to the cipher.
        public var reservedBytes: Int {
            switch self {
            case .unbound: PageCipher.unboundReservedBytes
            case .bound: PageCipher.reservedBytes
            }
        }

        var mark: [UInt8] {
            switch self {
            case .unbound: PageCipher.unboundMark
            case .bound: PageCipher.boundMark
            }
        }
    }

    /// Bytes at the end of each format-2 page that belong to the cipher: database id 16, nonce 12, tag 16, mark 4.
    public static let reservedBytes = 48
    /// Bytes at the end of each format-1 page: nonce 12, tag 16, mark 4.
    public static let unboundReservedBytes = 32
    /// The length of the database id a format-2 page carries.
    public static let databaseIDBytes = 16
    static let nonceBytes = 12
    /// "KG2" and a zero: AES-256-GCM page format 2.
    static let boundMark: [UInt8] = [0x4B, 0x47, 0x32, 0x00]
    /// "KG1" and a zero: AES-256-GCM page format 1.
    static let unboundMark: [UInt8] = [0x4B, 0x47, 0x31, 0x00]
    static let tagBytes = 16

    private let key: SymmetricKey
    /// The next seal's nonce (little-endian counter).
    private let nextNonce = UnsafeMutablePointer<UInt8>.allocate(capacity: nonceBytes)

    /// A cipher under a 32-byte AES-256 key.
    public init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 32 else {
            throw CryptoError(operation: "AES-256-GCM key", detail: "the key is \(key.count) bytes, not 32")
        }
        self.key = SymmetricKey(data: key)
        var random = SystemRandomNumberGenerator()
        for index in 0..<Self.nonceBytes { nextNonce[index] = random.next() }
    }

    deinit { nextNonce.deallocate() }

    /// The format whose mark `page` ends with (a page sealed by a `PageCipher`, under some key), or nil for a
    /// page of anything else.
    public static func format(of page: UnsafeRawBufferPointer) -> Format? {
        guard page.count > reservedBytes else { return nil }
        let last = page.suffix(4)
        if last.elementsEqual(Format.bound.mark) { return .bound }
        if last.elementsEqual(Format.unbound.mark) { return .unbound }
        return nil
    }

    /// The database id in the tail of a format-2 `page` (plain, as sealed; `open` checks it), or nil for a page
    /// of another format.
    public static func databaseID(of page: UnsafeRawBufferPointer) -> [UInt8]? {
        guard format(of: page) == .bound else { return nil }
        let start = page.count - reservedBytes
        return Array(page[start..<(start + databaseIDBytes)])
    }

    // MARK: Format 2

    /// Encrypts `page` in place in format 2: all but its last `reservedBytes`, which receive `databaseID`, the
    /// nonce, the tag and the mark. `binding` (where the page belongs) is authenticated and not stored: the page
    /// opens only with the same bytes.
    public func seal(
        _ page: UnsafeMutableRawBufferPointer, databaseID: UnsafeRawBufferPointer, binding: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        precondition(page.count > Self.reservedBytes, "a page is larger than its reserved tail")
        precondition(databaseID.count == Self.databaseIDBytes, "a database id is 16 bytes")
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.reservedBytes
        let id = base + payload
        id.update(from: databaseID.baseAddress!.assumingMemoryBound(to: UInt8.self), count: Self.databaseIDBytes)
        try seal(
            base, payload: payload, tail: id + Self.databaseIDBytes, mark: Self.boundMark, id: id, binding: binding)
    }

    /// Checks the tag of a format-2 `page` sealed for `databaseID` and `binding`, and decrypts it in place. False
    /// (the page unchanged or garbled, never to be used) when the page was sealed under another key, for another
    /// database or place, was changed, or is not a format-2 page.
    public func open(
        _ page: UnsafeMutableRawBufferPointer, databaseID: UnsafeRawBufferPointer, binding: UnsafeRawBufferPointer
    ) -> Bool {
        guard page.count > Self.reservedBytes, databaseID.count == Self.databaseIDBytes else { return false }
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.reservedBytes
        let id = base + payload
        guard UnsafeRawBufferPointer(start: id, count: Self.databaseIDBytes).elementsEqual(databaseID) else {
            return false
        }
        return open(
            base, payload: payload, tail: id + Self.databaseIDBytes, mark: Self.boundMark, id: id, binding: binding)
    }

    // MARK: Format 1

    /// Encrypts `page` in place in format 1 (unbound: only the mark is authenticated): all but its last
    /// `unboundReservedBytes`, which receive the nonce, tag and mark. The kiosk writes it only while it rewrites a
    /// database of that format.
    public func seal(_ page: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        precondition(page.count > Self.unboundReservedBytes, "a page is larger than its reserved tail")
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.unboundReservedBytes
        try seal(
            base, payload: payload, tail: base + payload, mark: Self.unboundMark, id: nil,
            binding: .init(start: nil, count: 0))
    }

    /// Checks the tag of a format-1 `page` and decrypts it in place; false as for format 2.
    public func open(_ page: UnsafeMutableRawBufferPointer) -> Bool {
        guard page.count > Self.unboundReservedBytes else { return false }
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.unboundReservedBytes
        return open(
            base, payload: payload, tail: base + payload, mark: Self.unboundMark, id: nil,
            binding: .init(start: nil, count: 0))
    }

    // MARK: Both

    /// Takes the next nonce into `nonce` and counts on (wrapping after 2⁹⁶ seals, which no kiosk reaches).
    private func takeNonce(into nonce: UnsafeMutablePointer<UInt8>) {
        nonce.update(from: nextNonce, count: Self.nonceBytes)
        for index in 0..<Self.nonceBytes {
            nextNonce[index] &+= 1
            if nextNonce[index] != 0 { break }
        }
    }

    /// The additional data of a page: the mark, then the database id at `id` (format 2), then `binding`.
    private static func additionalData(
        mark: UnsafePointer<UInt8>, id: UnsafePointer<UInt8>?, binding: UnsafeRawBufferPointer
    ) -> Data {
        var data = Data(bytes: mark, count: 4)
        if let id { data.append(id, count: databaseIDBytes) }
        if let place = binding.baseAddress, !binding.isEmpty {
            data.append(place.assumingMemoryBound(to: UInt8.self), count: binding.count)
        }
        return data
    }

    /// Seals the `payload` bytes at `base`; the nonce, tag and `mark` go to `tail`. The additional data is the
    /// mark, then the database id at `id` (format 2), then `binding`.
    private func seal(
        _ base: UnsafeMutablePointer<UInt8>, payload: Int, tail nonce: UnsafeMutablePointer<UInt8>, mark: [UInt8],
        id: UnsafePointer<UInt8>?, binding: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        let tag = nonce + Self.nonceBytes
        let markBytes = tag + Self.tagBytes
        for (index, byte) in mark.enumerated() { markBytes[index] = byte }
        takeNonce(into: nonce)
        do {
            let sealed = try AES.GCM.seal(
                UnsafeRawBufferPointer(start: base, count: payload), using: key,
                nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(start: nonce, count: Self.nonceBytes)),
                authenticating: Self.additionalData(mark: markBytes, id: id, binding: binding))
            guard sealed.ciphertext.count == payload, sealed.tag.count == Self.tagBytes else {
                throw CryptoError(operation: "AES-256-GCM page seal", detail: "unexpected lengths")
            }
            sealed.ciphertext.copyBytes(to: base, count: payload)
            sealed.tag.copyBytes(to: tag, count: Self.tagBytes)
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError.wrapping(error, "AES-256-GCM page seal")
        }
    }

    /// Opens the `payload` bytes at `base` whose nonce, tag and mark are at `tail`, if the mark is `mark`; the
    /// additional data as for `seal`.
    private func open(
        _ base: UnsafeMutablePointer<UInt8>, payload: Int, tail nonce: UnsafeMutablePointer<UInt8>, mark: [UInt8],
        id: UnsafePointer<UInt8>?, binding: UnsafeRawBufferPointer
    ) -> Bool {
        let tag = nonce + Self.nonceBytes
        let markBytes = tag + Self.tagBytes
        guard (0..<4).allSatisfy({ markBytes[$0] == mark[$0] }) else { return false }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(start: nonce, count: Self.nonceBytes)),
                ciphertext: UnsafeRawBufferPointer(start: base, count: payload),
                tag: UnsafeRawBufferPointer(start: tag, count: Self.tagBytes))
            let plain = try AES.GCM.open(
                box, using: key, authenticating: Self.additionalData(mark: markBytes, id: id, binding: binding))
            guard plain.count == payload else { return false }
            plain.copyBytes(to: base, count: payload)
            return true
        } catch {
            return false
        }
    }
}

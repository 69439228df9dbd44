import Testing

@testable import Cryptography

@Suite("PageCipher: AES-256-GCM pages with a reserved tail")
struct PageCipherTests {
    static let key = [UInt8](repeating: 0x5A, count: 32)
    static let database = [UInt8](repeating: 0xD1, count: PageCipher.databaseIDBytes)
    /// Where a page belongs, as the kiosk's VFS binds it (any bytes will do here).
    static let place: [UInt8] = [1, 0, 0, 0, 7] + [UInt8](repeating: 0, count: 8)

    /// A 4 KiB page of recognisable bytes, its tail left for the cipher.
    func page(_ fill: UInt8 = 7, reserved: Int = PageCipher.reservedBytes) -> [UInt8] {
        [UInt8](repeating: fill, count: 4096 - reserved) + [UInt8](repeating: 0, count: reserved)
    }

    func sealed(
        _ cipher: PageCipher, _ plain: [UInt8], database: [UInt8] = database, place: [UInt8] = place
    ) throws -> [UInt8] {
        var bytes = plain
        try bytes.withUnsafeMutableBytes { page in
            try database.withUnsafeBytes { id in
                try place.withUnsafeBytes { try cipher.seal(page, databaseID: id, binding: $0) }
            }
        }
        return bytes
    }

    func opened(
        _ cipher: PageCipher, _ sealed: [UInt8], database: [UInt8] = database, place: [UInt8] = place
    ) -> [UInt8]? {
        var bytes = sealed
        let opens = bytes.withUnsafeMutableBytes { page in
            database.withUnsafeBytes { id in place.withUnsafeBytes { cipher.open(page, databaseID: id, binding: $0) } }
        }
        return opens ? bytes : nil
    }

    /// The nonce in a sealed format-2 page's tail, as the little-endian number the cipher counts with.
    func nonce(_ sealed: [UInt8]) -> [UInt8] {
        let start = sealed.count - PageCipher.reservedBytes + PageCipher.databaseIDBytes
        return Array(sealed[start..<start + PageCipher.nonceBytes])
    }

    @Test("a sealed page opens to the same bytes, under the same key only, and not once changed")
    func roundTrip() throws {
        let cipher = try PageCipher(key: Self.key)
        let plain = page()
        let box = try sealed(cipher, plain)
        #expect(box.prefix(100) != plain.prefix(100))
        #expect(box.withUnsafeBytes { PageCipher.format(of: $0) } == .bound)
        #expect(box.withUnsafeBytes { PageCipher.databaseID(of: $0) } == Self.database)
        let reopened = try #require(opened(cipher, box))
        #expect(
            reopened.prefix(plain.count - PageCipher.reservedBytes)
                == plain.prefix(plain.count - PageCipher.reservedBytes))
        #expect(opened(try PageCipher(key: [UInt8](repeating: 1, count: 32)), box) == nil)
        var changed = box
        changed[10] ^= 1
        #expect(opened(cipher, changed) == nil)
        var changedTag = box
        changedTag[box.count - 10] ^= 1
        #expect(opened(cipher, changedTag) == nil)
    }

    @Test("a page opens only for the database and the place it was sealed for")
    func boundToItsPlace() throws {
        let cipher = try PageCipher(key: Self.key)
        let box = try sealed(cipher, page())
        #expect(opened(cipher, box) != nil)
        // Another database's id, asked for or written into the tail (where it is plain).
        let other = [UInt8](repeating: 0xD2, count: PageCipher.databaseIDBytes)
        #expect(opened(cipher, box, database: other) == nil)
        var relabelled = box
        relabelled.replaceSubrange(
            (box.count - PageCipher.reservedBytes)..<(box.count - PageCipher.reservedBytes + 16), with: other)
        #expect(opened(cipher, relabelled, database: other) == nil)
        // Any byte of the place changed: another page number, file or frame.
        for index in Self.place.indices {
            var place = Self.place
            place[index] ^= 0x01
            #expect(opened(cipher, box, place: place) == nil)
        }
        #expect(opened(cipher, box, place: []) == nil)
    }

    @Test("a format-1 page still opens, unbound; the formats are told apart by their marks and never mixed")
    func formatOne() throws {
        let cipher = try PageCipher(key: Self.key)
        var old = page(3, reserved: PageCipher.unboundReservedBytes)
        try old.withUnsafeMutableBytes { try cipher.seal($0) }
        #expect(old.suffix(4) == [0x4B, 0x47, 0x31, 0x00])
        #expect(old.withUnsafeBytes { PageCipher.format(of: $0) } == .unbound)
        #expect(old.withUnsafeBytes { PageCipher.databaseID(of: $0) } == nil)
        #expect(opened(cipher, old) == nil)
        var reopened = old
        #expect(reopened.withUnsafeMutableBytes { cipher.open($0) })
        #expect(reopened.prefix(4096 - 32) == page(3, reserved: 32).prefix(4096 - 32))

        var bound = try sealed(cipher, page())
        #expect(bound.suffix(4) == [0x4B, 0x47, 0x32, 0x00])
        #expect(!bound.withUnsafeMutableBytes { cipher.open($0) })
        #expect([UInt8](repeating: 0, count: 4096).withUnsafeBytes { PageCipher.format(of: $0) } == nil)
    }

    @Test("each seal takes the next nonce: 10,000 seals of one page, 10,000 nonces and ciphertexts, counting by one")
    func noncesCountUp() throws {
        let cipher = try PageCipher(key: Self.key)
        let plain = page()
        var nonces = Set<[UInt8]>()
        var texts = Set<[UInt8]>()
        var previous: [UInt8]?
        for _ in 0..<10_000 {
            let box = try sealed(cipher, plain)
            let current = nonce(box)
            nonces.insert(current)
            texts.insert(Array(box.prefix(64)))
            if let previous {
                // previous + 1, little-endian, with carries.
                var next = previous
                for index in next.indices {
                    next[index] &+= 1
                    if next[index] != 0 { break }
                }
                #expect(current == next)
            }
            previous = current
        }
        #expect(nonces.count == 10_000 && texts.count == 10_000)
    }

    @Test("two ciphers under one key start at different random nonces and open each other's pages")
    func twoCiphersOneKey() throws {
        let first = try PageCipher(key: Self.key)
        let second = try PageCipher(key: Self.key)
        let a = try sealed(first, page(1))
        let b = try sealed(second, page(1))
        #expect(nonce(a) != nonce(b))
        #expect(opened(second, a) != nil && opened(first, b) != nil)
    }
}

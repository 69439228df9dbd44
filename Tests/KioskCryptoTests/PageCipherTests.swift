import Testing

@testable import KioskCrypto

@Suite("PageCipher: AES-256-GCM pages with a reserved tail")
struct PageCipherTests {
    static let key = [UInt8](repeating: 0x5A, count: 32)

    /// A 4 KiB page of recognisable bytes, its tail left for the cipher.
    func page(_ fill: UInt8 = 7) -> [UInt8] {
        [UInt8](repeating: fill, count: 4096 - PageCipher.reservedBytes)
            + [UInt8](repeating: 0, count: PageCipher.reservedBytes)
    }

    func sealed(_ cipher: PageCipher, _ plain: [UInt8]) throws -> [UInt8] {
        var bytes = plain
        try bytes.withUnsafeMutableBytes { try cipher.seal($0) }
        return bytes
    }

    func opened(_ cipher: PageCipher, _ sealed: [UInt8]) -> [UInt8]? {
        var bytes = sealed
        return bytes.withUnsafeMutableBytes { cipher.open($0) } ? bytes : nil
    }

    /// The nonce in a sealed page's tail, as the little-endian number the cipher counts with.
    func nonce(_ sealed: [UInt8]) -> [UInt8] {
        let start = sealed.count - PageCipher.reservedBytes
        return Array(sealed[start..<start + PageCipher.nonceBytes])
    }

    @Test("a sealed page opens to the same bytes, under the same key only, and not once changed")
    func roundTrip() throws {
        let cipher = try PageCipher(key: Self.key)
        let plain = page()
        let box = try sealed(cipher, plain)
        #expect(box.prefix(100) != plain.prefix(100))
        #expect(box.withUnsafeBytes { PageCipher.isSealed($0) })
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

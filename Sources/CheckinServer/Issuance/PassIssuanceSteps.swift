import CheckinCore
import Cryptography
import Foundation
import ImageFiles
import PassFormat
import QREncoding

/// What each step of the pass workflow does. Each returns its result as a value; the repository stores it
/// before the next step starts.
public struct PassIssuanceSteps: Sendable {
    public let repository: any CheckinRepository
    public let images: PassImageStore
    /// Where guests open their pass: `https://checkin.example` (the pass page is `/p/<pass>` under it).
    public let address: PublicAddress
    public let mailer: (any Mailer)?
    public let timeZone: TimeZone

    public init(
        repository: any CheckinRepository, images: PassImageStore, address: PublicAddress, mailer: (any Mailer)?,
        timeZone: TimeZone = .current
    ) {
        self.repository = repository
        self.images = images
        self.address = address
        self.mailer = mailer
        self.timeZone = timeZone
    }

    public init(
        repository: any CheckinRepository, images: PassImageStore, publicURL: String, mailer: (any Mailer)?,
        timeZone: TimeZone = .current
    ) {
        self.init(
            repository: repository, images: images, address: PublicAddress(publicURL), mailer: mailer,
            timeZone: timeZone)
    }

    /// The public address now.
    public var publicURL: String { address.value }

    /// The URL a pass's QR code holds: upper case, so the code fits QR alphanumeric mode; the kiosk reads the
    /// token after the last '/'.
    public func passURL(_ pass: String) -> String { (publicURL + "/p/").uppercased() + pass }

    /// The host part of the public URL, for Message-IDs.
    var domain: String { URL(string: publicURL)?.host ?? "checkin.invalid" }

    public func run(_ issuance: PassIssuance, guest: Guest?, now: Date) async -> IssuanceStepResult {
        guard let guest, guest.status == .active else { return .cancelled(reason: "the guest was cancelled") }
        do {
            switch issuance.step {
            case .sign: return try await sign(issuance, guest: guest, now: now)
            case .render: return try render(issuance)
            case .store: return try store(issuance)
            case .email: return await email(issuance, guest: guest)
            case .done, .cancelled, .failed: return .cancelled(reason: "nothing left to do")
            }
        } catch {
            return .retry(error: "\(error)")
        }
    }

    func sign(_ issuance: PassIssuance, guest: Guest, now: Date) async throws -> IssuanceStepResult {
        let candidate = try Ed25519PrivateKey.generate()
        let key = try await repository.signingKey(
            tenant: issuance.tenant,
            orAdd: NewSigningKey(privateKeyPEM: try candidate.pem(), publicKey: candidate.publicKey.raw), at: now)
        let issuer = PassIssuer(
            keyID: key.keyID, tenant: issuance.tenant, event: issuance.event,
            privateKey: try Ed25519PrivateKey(pem: key.privateKeyPEM, name: "signing key \(key.keyID)"))
        return .signed(pass: try issuer.issue(for: guest.id).text)
    }

    public func render(_ issuance: PassIssuance) throws -> IssuanceStepResult {
        guard let pass = issuance.pass else { return .fail(error: "the issuance has no signed pass to render") }
        let code = try QRCodeRenderer.render(passURL(pass), moduleSize: 8, quietZone: 4, correction: .high)
        return .rendered(png: try ImageFile.encodePNG(code.image))
    }

    func store(_ issuance: PassIssuance) throws -> IssuanceStepResult {
        guard let pass = issuance.pass, let png = issuance.image else {
            return .fail(error: "the issuance has no rendered image to store")
        }
        return .stored(name: try images.store(pass: pass, png: png))
    }

    func email(_ issuance: PassIssuance, guest: Guest) async -> IssuanceStepResult {
        guard let pass = issuance.pass, let png = issuance.image else {
            return .fail(error: "the issuance has no rendered image to send")
        }
        do {
            guard let event = try await repository.event(issuance.event) else {
                return .cancelled(reason: "the event is gone")
            }
            guard
                let message = PassEmail.make(
                    issuance: issuance, guest: guest, event: event, passURL: passURL(pass), png: png, domain: domain,
                    timeZone: event.zone(or: timeZone))
            else { return .nothingToSend }
            guard let mailer else { throw MailFailure.notConfigured }
            try await mailer.send(message)
            return .sent(at: Date())
        } catch MailFailure.permanent(let why) {
            return .fail(error: "the relay refused the message: \(why)")
        } catch {
            return .retry(error: "\(error)")
        }
    }
}

import CheckinCore

/// The rate-limit keys of sign-in attempts (`CheckinRepository.takeHits`): the server's throttle counts under them,
/// `checkin-server unlock-organizer` forgets them.
public enum SignInKeys {
    /// Forgets every count of `account`, from every client: an operator's unlock, or a sign-in that succeeded.
    public static func forgetAll(of account: String, in repository: any CheckinRepository) async throws {
        try await repository.forgetHits(key: Self.account(account))
        try await repository.forgetHits(keysStartingWith: Self.pair(account, ""))
    }

    /// An account's attempts from anywhere.
    public static func account(_ account: String) -> String { "sign-in:account:" + account }
    /// The account's attempts from one client: the account first, so an unlock finds every client's count.
    public static func pair(_ account: String, _ client: String) -> String {
        "sign-in:pair:" + account + "|" + client
    }
}

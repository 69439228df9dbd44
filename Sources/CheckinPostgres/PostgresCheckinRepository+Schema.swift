extension PostgresCheckinRepository {
    /// The last schema step this version knows.
    public static var latestSchemaStep: Int64 { migrations.last?.number ?? 0 }

    /// Names this version's schema: its last step and a hash (FNV-1a, 64 bits) of every step's name and SQL, so a
    /// database migrated by another version is told apart (the tests keep one migrated template per schema).
    public static var schemaFingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for step in migrations {
            for byte in "\(step.number)\u{0}\(step.name)\u{0}\(step.sql)\u{0}".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return "\(latestSchemaStep)_" + String(hash, radix: 16)
    }
}

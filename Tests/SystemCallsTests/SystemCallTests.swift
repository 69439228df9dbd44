import SystemCalls
import SystemPackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SystemCallTests {
    @Test func aFailureNamesTheCallAndCarriesErrno() {
        var info = stat()
        let error = #expect(throws: SystemCallError.self) { try SystemCall.run("fstat") { fstat(-1, &info) } }
        #expect(error == SystemCallError(call: "fstat", errno: .badFileDescriptor))
        #expect(error?.description == "fstat failed: Bad file descriptor (errno \(EBADF))")
    }

    @Test func anInterruptedCallIsRetried() throws {
        var calls = 0
        let result = try SystemCall.run("read") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
    }

    @Test func wouldBlockIsNilOnlyWhereAsked() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        #expect(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var byte: UInt8 = 0
        let none = try SystemCall.runUnlessWouldBlock("read") { read(fds[0], &byte, 1) }
        #expect(none == nil)
        let error = #expect(throws: SystemCallError.self) { try SystemCall.run("read") { read(fds[0], &byte, 1) } }
        #expect(error?.errno == .resourceTemporarilyUnavailable)
    }

    @Test func failureTestsOtherThanMinusOne() {
        let error = #expect(throws: SystemCallError.self) {
            try SystemCall.run(
                "mmap", failed: { $0 == MAP_FAILED }, { mmap(nil, 4096, PROT_READ, MAP_SHARED, -1, 0) })
        }
        #expect(error?.call == "mmap")
    }

    @Test func swiftSystemErrorsAreNamed() {
        let error = #expect(throws: SystemCallError.self) {
            try SystemCall.system("open") { try FileDescriptor.open("/nonexistent/x", .readOnly) }
        }
        #expect(error == SystemCallError(call: "open", errno: .noSuchFileOrDirectory))
    }
}

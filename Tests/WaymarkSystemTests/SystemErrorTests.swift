import Glibc
import Testing
import WaymarkSystem

struct SystemErrorTests {
    @Test func anErrorNamesTheCallItsArgumentAndTheErrno() throws {
        let error = #expect(throws: SystemError.self) {
            try FileDescriptor.open("/dev/waymark-no-such-tty", .readWrite)
        }
        #expect(error?.errno == ENOENT)
        #expect(error?.call == "open")
        #expect(error?.description == #"open("/dev/waymark-no-such-tty"): No such file or directory (errno 2)"#)
    }

    @Test func aNoteFollowsTheErrnoText() {
        let error = SystemError(errno: EEXIST, call: "bind", argument: "/run/x", note: "it is not a socket")
        #expect(error.description == #"bind("/run/x"): File exists (errno 17); it is not a socket"#)
    }
}

import CWaymarkChrony
import Glibc
import Testing
import WaymarkTime
@testable import WaymarkChrony

/// The writers against a socket and a segment read back here, without chronyd.
@Suite struct WriterTests {
    let sample = TimeSample(
        systemNanoseconds: 1_790_012_000_123_456_789, referenceNanoseconds: 1_790_012_000_120_456_789, source: .pulse,
        leap: .delete)!

    @Test func socketWriterSendsOneRecordPerSampleAndToleratesAnAbsentReader() throws {
        var template = Array("/tmp/waymark-sock.XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        let path = directory + "/chrony.sock"
        defer {
            unlink(path)
            rmdir(directory)
        }
        let writer = try ChronySocketWriter(path: path)
        defer { writer.close() }
        #expect(try writer.send(sample) == false)  // chrony not started: dropped, no error

        let reader = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(reader) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(reader, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(try writer.send(sample))
        var record = waymark_sock_sample()
        let received = withUnsafeMutableBytes(of: &record) { recv(reader, $0.baseAddress, $0.count + 8, Int32(MSG_DONTWAIT)) }
        #expect(received == MemoryLayout<waymark_sock_sample>.size)
        #expect(record.magic == 0x534f_434b && record.leap == 2 && record.pulse == 0)
        #expect(record.tv.tv_sec == 1_790_012_000 && record.tv.tv_usec == 123_456)
        #expect(record.offset == -0.003)  // the clock's error when it read tv, not shifted by the 789 ns tv leaves out
    }

    @Test func sharedMemoryWriterFollowsTheModeOneProtocol() throws {
        let unit = try #require((2...UInt8.max).first { shmget(key_t(0x4e54_5030) + key_t($0), 0, 0) == -1 })
        let writer = try NTPSharedMemoryWriter(unit: unit)
        let id = shmget(key_t(0x4e54_5030) + key_t(unit), 0, 0)
        defer {
            writer.close()
            _ = shmctl(id, IPC_RMID, nil)
        }
        let segment = try #require(shmat(id, nil, Int32(SHM_RDONLY))).assumingMemoryBound(to: waymark_shm_time.self)
        defer { _ = shmdt(segment) }
        #expect(segment.pointee.valid == 0)
        #expect(writer.put(sample))
        var copy = segment.pointee
        #expect(copy.mode == 1 && copy.valid == 1 && copy.count == 2)
        #expect(copy.clockTimeStampSec == 1_790_012_000 && copy.clockTimeStampNSec == 120_456_789)
        #expect(copy.clockTimeStampUSec == 120_456)
        #expect(copy.receiveTimeStampSec == 1_790_012_000 && copy.receiveTimeStampNSec == 123_456_789)
        #expect(copy.receiveTimeStampUSec == 123_456)
        #expect(copy.leap == 2 && copy.precision == -13)
        #expect(writer.put(sample))
        copy = segment.pointee
        #expect(copy.count == 4)
    }
}

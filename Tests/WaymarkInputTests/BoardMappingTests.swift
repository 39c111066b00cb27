import Glibc
import Testing
import WaymarkBoard
import WaymarkReceiver
import WaymarkSystem

@testable import WaymarkDaemon
@testable import WaymarkInput
import WaymarkProtocol
import WaymarkLocation

/// What the daemon makes of a board file: the receiver profile and powered-down state the
/// engine gets, the source, and how the port is opened.
struct BoardMappingTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func board(_ name: String) throws -> BoardDefinition {
        try BoardDefinition.load(path: "\(root)/Board/\(name).toml")
    }

    @Test func eachShippedBoardMapsToItsReceiverAndPowerDownState() throws {
        let quectel = try Self.board("quectel-l76-mpu6050")
        #expect(quectel.receiverProfile.name == "quectel-l76")
        #expect(quectel.receiverProfile.standbyCurrent == 0.6)
        #expect(quectel.receiverProfile.backupCurrent == 0.014)
        #expect(quectel.poweredDownState == .backup)  // PMTK225,4, woken by FORCE_ON
        let adafruit = try Self.board("adafruit-ultimate-gps-lis3dh")
        #expect(adafruit.receiverProfile.name == "mt3339")
        #expect(adafruit.receiverProfile.supplyVoltage == 3.3)
        #expect(adafruit.poweredDownState == .backup)
        let neo = try Self.board("rpi-neo-m8n-adxl345")
        #expect(neo.receiverProfile.name == "ublox-m8")
        #expect(neo.receiverProfile.backupCurrent == 0.02)
        #expect(neo.poweredDownState == .backup)
        #expect(try Self.board("simulated").hasAccelerometer)
    }

    @Test func theSimulatedBoardFileRunsTheSimulation() throws {
        let path = "\(Self.root)/Board/simulated.toml"
        let (source, profile) = try Daemon.makeSource(.board(path: path, scenario: "\(Self.root)/Scenarios/demo.scenario"))
        #expect(source is SimulatedSource)
        #expect(source.summary.isSimulated)
        #expect(profile.name == "ublox-m8")
        #expect(throws: DaemonError.self) { try Daemon.makeSource(.board(path: path)) }
    }

    @Test func aHardwareBoardFileMakesABoardSource() throws {
        let (source, profile) = try Daemon.makeSource(.board(path: "\(Self.root)/Board/qemu-vm.toml"))
        #expect(source is BoardSource)
        #expect(source.poweredDownState == .backup)
        #expect(source.hasAccelerometer)
        #expect(profile.trackingCurrent == 29)
        #expect(source.summary.description.hasPrefix("qemu VM harness"))
    }

    @Test func ptysAndFIFOsOpenWithTermiosEverythingElseWithLibserialport() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        #expect(ReceiverPortKind.forPath(pty.secondaryPath) == .terminal)
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.path + "/fifo", 0o600) == 0)
        #expect(ReceiverPortKind.forPath(directory.path + "/fifo") == .terminal)
        #expect(symlink(pty.secondaryPath, directory.path + "/gps") == 0)
        #expect(ReceiverPortKind.forPath(directory.path + "/gps") == .terminal)
        #expect(ReceiverPortKind.forPath("/dev/null") == .serial)
        #expect(ReceiverPortKind.forPath("/dev/ttyUSB-not-plugged-in") == .serial)
    }
}

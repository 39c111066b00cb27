import Foundation
import Synchronization
import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkHardware

/// The real `waymarkd --board` on the VM's devices (Board/qemu-vm.toml: ttyS1, an ADXL345 on
/// i2c-stub, gpio-sim lines): NMEA from the host becomes updates; a still pause powers the
/// receiver off (enable line low) and arms the chip; the INT line and moving data registers
/// wake it; a silent receiver becomes `locationUnavailable` and recovers. With board files
/// for PMTK standby and UBX backup, the host checks the exact bytes the daemon writes.
/// Runs from `Scripts/vm-test` after the driver suites (it needs `WAYMARK_DAEMON`).
@Suite(.serialized, .enabled(if: VM.isInside && VM.environment("WAYMARK_DAEMON") != nil, "runs in the VM (Scripts/vm-test)"))
struct DaemonVMTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    @Test func theBoardFileDrivesLocationsMotionAndRecovery() throws {
        let chip = try I2CDevice(bus: VM.i2cBus, address: 0x53)
        defer { try? chip.close() }
        try chip.writeRegister(0x00, 0xE5)  // DEVID
        try chip.writeRegister(0x30, 0x00)  // INT_SOURCE: nothing yet
        try ADXL345Data.write(x: 0, on: chip)
        VM.setPull(SimLine.accelInterrupt, up: false)
        HostGPS.send("still")
        try HostGPS.mark("BOARD")

        let daemon = try VMDaemon(board: "\(Self.root)/Board/qemu-vm.toml", name: "board")
        guard case .success(.subscription) = try daemon.client.request(.startLiveUpdates(.fitness)).outcome else {
            Issue.record("startLiveUpdates failed")
            return
        }

        // Locations flow with the receiver on.
        let first = daemon.nextUpdate(within: 60) { $0.location != nil }
        #expect(first?.isStationary == false)
        #expect(VM.lineValue(SimLine.gpsEnable) == 1)
        let status = try daemon.status()
        #expect(status?.source.kind == "board")
        #expect(status?.source.description.contains("at 9600 baud") == true)
        #expect(status?.source.description.contains("adxl345 on /dev/i2c-0 at 0x53") == true)

        // Still (GPS and accelerometer): one stationary update, then the receiver goes off
        // and the chip's activity interrupt is armed at 60 mg (one 62.5 mg step).
        let stationary = daemon.nextUpdate(within: 60) { $0.isStationary }
        #expect(stationary?.location != nil)
        #expect(HostGPS.waitFor(5) { VM.lineValue(SimLine.gpsEnable) == 0 })
        #expect(try chip.readRegister(0x2E) == 0x10)
        #expect(try chip.readRegister(0x24) == 0x01)
        #expect(daemon.staysQuiet(for: 2))

        // Moving: the chip raises INT (the test flips the line's pull) and its data registers
        // swing; the daemon powers the receiver, confirms movement and resumes.
        HostGPS.send("moving")
        let shaker = Shaker()
        let thread = Thread { shaker.run() }
        thread.start()
        defer { shaker.stop() }
        try chip.writeRegister(0x30, 0x10)  // INT_SOURCE: activity
        VM.setPull(SimLine.accelInterrupt, up: true)
        let resumed = daemon.nextUpdate(within: 60) { $0.location != nil && !$0.isStationary }
        #expect(resumed != nil)
        #expect(VM.lineValue(SimLine.gpsEnable) == 1)
        VM.setPull(SimLine.accelInterrupt, up: false)

        // The receiver goes silent: one update without a location saying why; then it talks
        // again and locations come back without anyone restarting anything.
        HostGPS.send("silent")
        let unavailable = daemon.nextUpdate(within: 30) { $0.location == nil }
        #expect(unavailable?.diagnostics.locationUnavailable == true)
        HostGPS.send("moving")
        #expect(daemon.nextUpdate(within: 60) { $0.location != nil } != nil)
        shaker.stop()

        daemon.client.shutdownWriting()
        #expect(daemon.stop() == 0)
        #expect(VM.lineValue(SimLine.gpsEnable) == 0 || VM.lineValue(SimLine.gpsEnable) == nil)
        let counts = daemon.updates.reduce(into: (located: 0, stationary: 0)) { counts, update in
            if update.location != nil { counts.located += 1 }
            if update.isStationary { counts.stationary += 1 }
        }
        print("daemon VM test: \(daemon.updates.count) updates, \(counts.located) with a location, \(counts.stationary) stationary")
    }

    @Test(arguments: [("PMTK", "mediatek", "pmtk-standby", "standby"), ("UBX", "ublox", "ubx-backup", "backup")])
    func vendorCommandsPowerTheReceiver(name: String, family: String, strategy: String, downState: String) throws {
        var text = try String(contentsOfFile: "\(Self.root)/Board/qemu-vm.toml", encoding: .utf8)
        text = text.replacingOccurrences(of: "family = \"ublox\"", with: "family = \"\(family)\"")
            .replacingOccurrences(of: "strategy = \"gpio-enable\"", with: "strategy = \"\(strategy)\"")
            .replacingOccurrences(of: "candidates = [9600, 115200]", with: "candidates = [9600, 115200]\nswitch_to = 115200")
        let out = VM.environment("WAYMARK_VM_OUT") ?? "/tmp"
        let board = "\(out)/board-\(name).toml"
        try text.write(toFile: board, atomically: false, encoding: .utf8)
        #expect(try BoardDefinition.load(path: board).power.rawValue == strategy)

        HostGPS.send("still")
        try HostGPS.mark(name)
        let daemon = try VMDaemon(board: board, name: name)
        // Found at 9600, switched to 115200 with the vendor command, then powered down.
        #expect(HostGPS.waitFor(60) { (try? daemon.status())?.source.description.contains("at 115200 baud") == true })
        #expect(try daemon.status()?.receiverPowerState == downState)
        // A request wakes it; the answer powers it down again.
        let reply = try daemon.client.request(.requestLocation(LocationRequest(desiredAccuracy: 100, timeout: .seconds(60))))
        guard case .success(.location) = reply.outcome else {
            Issue.record("requestLocation: \(reply.outcome)")
            return
        }
        #expect(try daemon.status()?.receiverPowerState == downState)
        #expect(daemon.stop() == 0)
        if name == "UBX" { try HostGPS.mark("END") }
    }
}

/// ADXL345 data registers on the stub: full resolution, 3.9 mg per count.
enum ADXL345Data {
    static func write(x milliG: Int, on chip: I2CDevice) throws {
        func bytes(_ value: Int) -> [UInt8] {
            let raw = UInt16(bitPattern: Int16(value * 10 / 39))
            return [UInt8(raw & 0xFF), UInt8(raw >> 8)]
        }
        try chip.writeRegisters(0x32, bytes(milliG) + bytes(0) + bytes(1000))
    }
}

/// Swings the stub's X axis by ±300 mg every 100 ms on its own thread: a walking device.
final class Shaker: Sendable {
    private let running = Atomic<Bool>(true)

    func run() {
        guard let chip = try? I2CDevice(bus: VM.i2cBus, address: 0x53) else { return }
        var sign = 1
        while running.load(ordering: .relaxed) {
            try? ADXL345Data.write(x: 300 * sign, on: chip)
            sign = -sign
            usleep(100_000)
        }
        try? ADXL345Data.write(x: 0, on: chip)
        try? chip.close()
    }

    func stop() {
        running.store(false, ordering: .relaxed)
    }
}

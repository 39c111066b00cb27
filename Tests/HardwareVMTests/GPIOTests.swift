import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem
import WaymarkHardware

/// libgpiod against gpio-sim: output levels read back from sysfs as the kernel sees them,
/// edge events delivered when the test flips a line's simulated pull.
@Suite(.serialized, .enabled(if: VM.isInside, "runs inside the qemu VM (Scripts/vm-test)"))
struct GPIOTests {
    @Test func findsTheChipByLabelAndPathAndLinesByName() throws {
        let chip = try GPIOChip.find(["pinctrl-rp1", VM.gpioLabel])
        defer { chip.close() }
        #expect(chip.label == VM.gpioLabel)
        #expect(chip.path == VM.gpioChip)
        #expect(try chip.offset(of: .name("pps")) == 2)
        #expect(try chip.offset(of: .offset(3)) == 3)
        #expect(throws: SystemError.self) { try chip.offset(of: .name("nonexistent")) }
        let byPath = try GPIOChip.find([VM.gpioChip])
        #expect(byPath.label == VM.gpioLabel)
        byPath.close()
        #expect(throws: SystemError.self) { try GPIOChip.find(["pinctrl-bcm2711"]) }
    }

    @Test func enableLineAndMarkerFollowThePowerControl() throws {
        let chip = try GPIOChip.find([VM.gpioLabel])
        defer { chip.close() }
        let enable = try GPIOOutput(chip: chip, line: .name("gps-enable"), activeLow: false, initiallyActive: true)
        let marker = try GPIOOutput(chip: chip, line: .name("marker"), activeLow: false, initiallyActive: false)
        defer {
            enable.release()
            marker.release()
        }
        #expect(VM.lineValue(SimLine.gpsEnable) == 1)
        let power = MarkedPowerControl(GPIOEnablePower(line: enable), marker: marker)
        try power.powerDown()
        #expect(VM.lineValue(SimLine.gpsEnable) == 0)
        #expect(VM.lineValue(SimLine.marker) == 1)
        try power.powerUp()
        #expect(VM.lineValue(SimLine.gpsEnable) == 1)
        #expect(VM.lineValue(SimLine.marker) == 0)
        #expect(try enable.isActive())
    }

    @Test func anActiveLowEnableLineIsLowWhenOn() throws {
        let chip = try GPIOChip.find([VM.gpioLabel])
        defer { chip.close() }
        let enable = try GPIOOutput(chip: chip, line: .offset(SimLine.gpsEnable), activeLow: true, initiallyActive: true)
        defer { enable.release() }
        #expect(VM.lineValue(SimLine.gpsEnable) == 0)
        try enable.setActive(false)
        #expect(VM.lineValue(SimLine.gpsEnable) == 1)
    }

    @Test func interruptEdgesArriveOnTheDescriptor() throws {
        let chip = try GPIOChip.find([VM.gpioLabel])
        defer { chip.close() }
        VM.setPull(SimLine.accelInterrupt, up: false)
        let interrupt = try GPIOEdgeInput(chip: chip, line: .name("accel-int"), activeLow: false, edges: .rising)
        defer { interrupt.release() }
        #expect(!VM.waitReadable(interrupt.descriptor, milliseconds: 50))
        VM.setPull(SimLine.accelInterrupt, up: true)
        #expect(VM.waitReadable(interrupt.descriptor, milliseconds: 5000))
        var edges: [GPIOEdge] = []
        try interrupt.readEdges { edges.append($0) }
        #expect(edges.map(\.rising) == [true])
        #expect(try interrupt.isActive())
        VM.setPull(SimLine.accelInterrupt, up: false)  // a falling edge: not asked for
        #expect(!VM.waitReadable(interrupt.descriptor, milliseconds: 200))
    }

    /// The time service maps a PPS edge's kernel timestamp to the wall clock as a
    /// `CLOCK_MONOTONIC` instant (libgpiod's default event clock since Linux 5.7): the stamp
    /// must fall between the monotonic clock read before and after the test raises the line.
    @Test func ppsEdgesAreStampedOnTheMonotonicClock() throws {
        let chip = try GPIOChip.find([VM.gpioLabel])
        defer { chip.close() }
        VM.setPull(SimLine.pps, up: false)
        let pps = try GPIOEdgeInput(chip: chip, line: .name("pps"), activeLow: false, edges: .rising)
        defer { pps.release() }
        var stamps: [MonotonicInstant] = []
        for _ in 0..<3 {
            let before = MonotonicInstant.now
            VM.setPull(SimLine.pps, up: true)
            let after = MonotonicInstant.now
            #expect(VM.waitReadable(pps.descriptor, milliseconds: 5000))
            var edges: [GPIOEdge] = []
            try pps.readEdges { edges.append($0) }
            #expect(edges.count == 1)
            if let stamp = edges.first?.timestamp {
                #expect(stamp >= before && stamp <= after, "edge at \(stamp), raised between \(before) and \(after)")
                stamps.append(stamp)
            }
            VM.setPull(SimLine.pps, up: false)
        }
        #expect(stamps == stamps.sorted())
    }

    @Test func bothEdgesAndDebounce() throws {
        let chip = try GPIOChip.find([VM.gpioLabel])
        defer { chip.close() }
        VM.setPull(SimLine.pps, up: false)
        let pps = try GPIOEdgeInput(chip: chip, line: .name("pps"), activeLow: false, edges: .both, debounce: .seconds(5))
        defer { pps.release() }
        // A bouncing pulse: three edges well inside the 5 s debounce; only the first counts.
        VM.setPull(SimLine.pps, up: true)
        VM.setPull(SimLine.pps, up: false)
        VM.setPull(SimLine.pps, up: true)
        #expect(VM.waitReadable(pps.descriptor, milliseconds: 5000))
        var edges: [GPIOEdge] = []
        try pps.readEdges { edges.append($0) }
        #expect(edges.map(\.rising) == [true])
        VM.setPull(SimLine.pps, up: false)
    }
}

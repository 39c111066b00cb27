import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem

/// The GPIO lines a board file names, requested for the daemon's whole run: the receiver's
/// enable, EXTINT and FORCE_ON lines and the power-meter marker as outputs, the accelerometer's INT
/// line and the receiver's PPS line as edge inputs.
final class BoardLines {
    /// The chip the lines are on.
    let chip: GPIOChip
    /// The receiver's enable line, driven active (receiver on) from the start.
    let enable: GPIOOutput?
    /// u-blox EXTINT0, driven active (awake) from the start.
    let extint: GPIOOutput?
    /// MediaTek/Quectel FORCE_ON, driven active (awake) from the start.
    let forceOn: GPIOOutput?
    /// The power-meter marker, inactive at the start; `nil` also when it could not be had.
    let marker: GPIOOutput?
    /// The accelerometer's INT line, or why it could not be requested.
    let interrupt: Result<GPIOEdgeInput, SystemError>?
    /// The receiver's PPS line (rising edges, not debounced: a pulse is 100 ms wide, and the
    /// pairer drops what is not a second apart), or why it could not be requested.
    let pps: Result<GPIOEdgeInput, SystemError>?

    /// Opens the chip `spec` names and requests its lines. A missing enable, EXTINT or FORCE_ON line
    /// throws (the receiver could not be controlled); a missing marker is logged, and a
    /// missing INT line is left for the accelerometer to report.
    init(_ spec: GPIOSpec, log: (String) -> Void) throws(SystemError) {
        let chip = try GPIOChip.find(spec.chips)
        var requested: [GPIOOutput] = []
        func output(_ line: LineSpec?, active: Bool) throws(SystemError) -> GPIOOutput? {
            guard let line else { return nil }
            let output = try GPIOOutput(chip: chip, line: line.line, activeLow: line.activeLow, initiallyActive: active)
            requested.append(output)
            return output
        }
        do throws(SystemError) {
            enable = try output(spec.enable, active: true)
            extint = try output(spec.extint, active: true)
            forceOn = try output(spec.forceOn, active: true)
        } catch {
            requested.forEach { $0.release() }
            chip.close()
            throw error
        }
        do throws(SystemError) {
            marker = try output(spec.marker, active: false)
        } catch {
            log("the marker line cannot be used: \(error)")
            marker = nil
        }
        interrupt = spec.accelerometerInterrupt.map { line in
            Result { () throws(SystemError) in
                try GPIOEdgeInput(
                    chip: chip, line: line.line, activeLow: line.activeLow, edges: .rising, debounce: MotionSensor.debounce)
            }
        }
        pps = spec.pps.map { line in
            Result { () throws(SystemError) in try GPIOEdgeInput(chip: chip, line: line.line, activeLow: line.activeLow, edges: .rising) }
        }
        self.chip = chip
    }

    /// Releases the outputs and closes the chip (the edge inputs belong to the sensor and the
    /// source's ``PulseInput``).
    func release() {
        [enable, extint, forceOn, marker].forEach { $0?.release() }
        chip.close()
    }
}

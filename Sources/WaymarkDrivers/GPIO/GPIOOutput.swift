import CWaymarkDrivers
package import WaymarkHardware
package import WaymarkSystem

/// Something that can be switched on and off: a GPIO output line, or a test's recorder.
package protocol DigitalOutput: AnyObject {
    /// Drives the output active (true) or inactive.
    func setActive(_ active: Bool) throws(SystemError)
}

/// A line requested as an output. Values are in the line's active sense: with `activeLow`,
/// active is a low level.
package final class GPIOOutput: DigitalOutput {
    /// The line's offset on its chip.
    package let offset: UInt32
    private let request: OpaquePointer
    private let chip: GPIOChip

    /// Requests `line` on `chip` as an output, driven to `initiallyActive` at once.
    package init(
        chip: GPIOChip, line: LineID, activeLow: Bool, initiallyActive: Bool, consumer: String = "waymarkd"
    ) throws(SystemError) {
        let offset = try chip.offset(of: line)
        guard let request = waymark_gpio_request_output(chip.handle, offset, consumer, activeLow ? 1 : 0, initiallyActive ? 1 : 0) else {
            throw lastError("gpiod request output", "\(chip.path) line \(line)")
        }
        self.offset = offset
        self.request = request
        self.chip = chip
    }

    package func setActive(_ active: Bool) throws(SystemError) {
        _ = try checkShim("gpiod set value", "\(chip.path) line \(offset)", waymark_gpio_set_value(request, active ? 1 : 0))
    }

    /// Reads the line back.
    package func isActive() throws(SystemError) -> Bool {
        try checkShim("gpiod get value", "\(chip.path) line \(offset)", waymark_gpio_get_value(request)) == 1
    }

    /// Releases the line (it keeps its level or returns to its default, as the driver decides).
    package func release() {
        waymark_gpio_release(request)
    }
}

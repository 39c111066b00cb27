import Glibc
import WaymarkSystem

/// The VM harness's environment (docs/vm-harness.md). These tests run only inside it
/// (`WAYMARK_VM=1`); elsewhere they are skipped. `Scripts/vm-test` boots the VM.
enum VM {
    static let isInside = environment("WAYMARK_VM") == "1"

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static var uart: String { environment("WAYMARK_UART") ?? "/dev/ttyS1" }
    static var i2cBus: String { environment("WAYMARK_I2C_DEV") ?? "/dev/i2c-0" }
    static var gpioLabel: String { environment("WAYMARK_GPIO_LABEL") ?? "waymark" }
    static var gpioChip: String { "/dev/" + (environment("WAYMARK_GPIO_CHIP") ?? "gpiochip0") }

    /// The sysfs file `name` (`value`, `pull`) of gpio-sim line `offset`.
    static func simLine(_ offset: Int, _ name: String) -> String {
        "\(environment("WAYMARK_GPIO_SYSFS") ?? "/sys/devices/platform/gpio-sim.0/gpiochip0")/sim_gpio\(offset)/\(name)"
    }

    /// The level the kernel sees on a gpio-sim line: 0 or 1.
    static func lineValue(_ offset: Int) -> Int? {
        let fd = open(simLine(offset, "value"), O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 1 ? Int(byte) - Int(UInt8(ascii: "0")) : nil
    }

    /// Sets the simulated external signal on a gpio-sim input line.
    static func setPull(_ offset: Int, up: Bool) {
        let fd = open(simLine(offset, "pull"), O_WRONLY)
        precondition(fd >= 0, "cannot open \(simLine(offset, "pull"))")
        defer { close(fd) }
        let text = up ? "pull-up" : "pull-down"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    /// Waits up to `milliseconds` for `fd` to become readable.
    static func waitReadable(_ fd: FileDescriptor, milliseconds: Int32) -> Bool {
        var request = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) == 1
    }
}

/// The gpio-sim lines the harness creates, by offset.
enum SimLine {
    static let gpsEnable = 0
    static let accelInterrupt = 1
    static let pps = 2
    static let marker = 3
}

import CWaymarkDrivers
package import WaymarkHardware
package import WaymarkSystem

/// A GPIO chip (`/dev/gpiochipN`) opened through libgpiod, v1 or v2 alike. Lines requested
/// from it belong to it: release them before ``close()``.
package final class GPIOChip {
    /// The device path.
    package let path: String
    /// The chip's label, such as `pinctrl-bcm2711` or `pinctrl-rp1`.
    package let label: String
    /// How many lines it has.
    package let lineCount: Int
    let handle: OpaquePointer

    /// Opens the chip at `path`.
    package init(path: String) throws(SystemError) {
        guard let handle = waymark_gpio_chip_open(path) else { throw lastError("gpiod_chip_open", path) }
        var buffer = [CChar](repeating: 0, count: 64)
        let labelResult = waymark_gpio_chip_label(handle, &buffer, buffer.count)
        let count = waymark_gpio_chip_line_count(handle)
        guard labelResult >= 0, count >= 0 else {
            waymark_gpio_chip_close(handle)
            throw SystemError(errno: -min(labelResult, count), call: "gpiod chip info", argument: path)
        }
        self.handle = handle
        self.path = path
        self.label = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.lineCount = Int(count)
    }

    /// Opens the first chip `names` identifies: a name starting with `/` is a path, anything
    /// else a label, looked up among `/dev/gpiochip*` (the Pi 5 renumbered its chips, labels
    /// stay). Throws ENOENT listing the labels present when none matches.
    package static func find(_ names: [String]) throws(SystemError) -> GPIOChip {
        for name in names where name.hasPrefix("/") {
            if let chip = try? GPIOChip(path: name) { return chip }
        }
        var seen: [String] = []
        for path in chipPaths() {
            guard let chip = try? GPIOChip(path: path) else { continue }
            if names.contains(chip.label) { return chip }
            seen.append("\(path) (\(chip.label))")
            chip.close()
        }
        throw SystemError(
            errno: Errno.noEntry, call: "gpio chip lookup", argument: names.joined(separator: ", "),
            note: seen.isEmpty ? "no /dev/gpiochip* can be opened" : "present: " + seen.joined(separator: ", "))
    }

    /// The `/dev/gpiochipN` paths, in order.
    package static func chipPaths() -> [String] {
        let paths = FileSystem.entries(of: "/dev").filter { $0.hasPrefix("gpiochip") }.map { "/dev/" + $0 }
        return paths.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }

    /// The offset of `line` on this chip: an offset is checked against ``lineCount``, a name
    /// is looked up.
    package func offset(of line: LineID) throws(SystemError) -> UInt32 {
        switch line {
        case .offset(let offset):
            guard offset < lineCount else {
                throw SystemError(errno: Errno.invalidArgument, call: "gpio line", argument: path, note: "offset \(offset) ≥ \(lineCount) lines")
            }
            return UInt32(offset)
        case .name(let name):
            let result = waymark_gpio_chip_line_offset(handle, name)
            guard result >= 0 else {
                throw SystemError(errno: -result, call: "gpio line lookup", argument: name, note: "no line of that name on \(path) (\(label))")
            }
            return UInt32(result)
        }
    }

    /// Closes the chip.
    package func close() {
        waymark_gpio_chip_close(handle)
    }
}

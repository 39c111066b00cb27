package import WaymarkJSON
import WaymarkFix
package import WaymarkLocation

/// The receiver as gpsd describes a device in DEVICE and DEVICES reports.
package struct GpsdDevice: Hashable, Sendable {
    /// The device's path (the board's UART, or the replayed file).
    package var path: String
    /// When the daemon opened it.
    package var activated: Timestamp?
    /// The serial speed, bits per second (`nil` for a file or simulation).
    package var bitsPerSecond: Int?
    /// The receiver's fix interval, seconds.
    package var cycle: Double

    package init(path: String, activated: Timestamp?, bitsPerSecond: Int?, cycle: Double) {
        self.path = path
        self.activated = activated
        self.bitsPerSecond = bitsPerSecond
        self.cycle = cycle
    }

    /// Appends the DEVICE object: driver `NMEA0183`, flags 1 (gpsd's SEEN_GPS), 8N1 when serial.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "DEVICE")
        buffer.member("path", text: path)
        buffer.member("driver", "NMEA0183")
        if let activated { buffer.timeMember("activated", activated) }
        buffer.member("flags", 1)
        buffer.member("native", 0)
        if let bitsPerSecond {
            buffer.member("bps", bitsPerSecond)
            buffer.member("parity", "N")
            buffer.member("stopbits", 1)
        }
        buffer.member("cycle", cycle, decimals: 2)
        buffer.endObject()
    }

    /// Appends the DEVICES report listing this one device.
    package func writeList(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("class", "DEVICES")
        buffer.key("devices")
        buffer.beginArray()
        write(to: &buffer)
        buffer.endArray()
        buffer.endObject()
    }
}

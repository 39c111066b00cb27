import WaymarkSystem

/// Whether this user may open a device, and the group that would let them.
enum DeviceAccess {
    /// `nil` when `path` can be opened read-write; otherwise the problem and its fix.
    static func problem(_ path: String, group: String) -> DoctorReport.Outcome? {
        guard let status = try? FileStatus(path: path) else {
            return .failure("\(path) does not exist", fix: fixForMissing(path))
        }
        guard !FileSystem.isReadableAndWritable(path) else { return nil }
        let owner = FileSystem.groupName(status.groupID) ?? String(status.groupID)
        return .failure(
            "\(path) is not readable and writable by this user (group \(owner))",
            fix: "sudo usermod -aG \(owner == "root" ? group : owner) $USER, then log in again"
                + (owner == "root" ? "; install Board/99-waymark.rules so udev gives it to group \(group)" : ""))
    }

    private static func fixForMissing(_ path: String) -> String {
        if path.hasPrefix("/dev/i2c") { return "add dtparam=i2c_arm=on to config.txt, load i2c-dev (echo i2c-dev | sudo tee /etc/modules-load.d/i2c.conf) and reboot" }
        if path.hasPrefix("/dev/serial") || path.hasPrefix("/dev/ttyAMA") || path.hasPrefix("/dev/ttyS") {
            return "add enable_uart=1 (and dtoverlay=disable-bt) to config.txt, disable the serial console (raspi-config) and reboot"
        }
        return "plug the receiver in, or correct uart.path in the board file (ls /dev/ttyACM* /dev/ttyUSB*)"
    }
}

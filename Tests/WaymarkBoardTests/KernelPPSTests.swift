import Testing
import WaymarkBoard

/// The `[pps]` table of a board file: the kernel's PPS device, instead of a `[gpio.pps]` line.
@Suite struct KernelPPSTests {
    static func board(_ tables: String) -> String {
        ChronySettingsTests.board("shm = 2").replacing("[chrony]\nshm = 2", with: tables)
    }

    @Test func deviceIsRead() throws {
        #expect(try BoardDefinition.parse(Self.board("[pps]\ndevice = \"/dev/pps0\""), file: "b.toml").kernelPPS == "/dev/pps0")
        #expect(try BoardDefinition.parse(Self.board(""), file: "b.toml").kernelPPS == nil)
    }

    @Test(arguments: [
        ("[pps]\ndevice = \"pps0\"", "b.toml:16: pps.device: \"pps0\" is not an absolute path"),
        ("[pps]\ndevice = 0", "b.toml:16: pps.device:"),
        ("[pps]\ndevcie = \"/dev/pps0\"", "b.toml:16: pps.devcie: unknown key"),
        (
            "[gpio]\nchip = [\"gpio-sim\"]\n[gpio.pps]\nline = \"pps\"\n[pps]\ndevice = \"/dev/pps0\"",
            "b.toml:20: pps.device: [gpio.pps] names the same pulse as a GPIO line"
        ),
    ])
    func refusedWithFileLineAndKey(tables: String, expected: String) {
        let error = #expect(throws: BoardError.self) { try BoardDefinition.parse(Self.board(tables), file: "b.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(String(describing: error))")
    }
}

import Testing
import WaymarkBoard
import WaymarkHardware

/// Invalid board files: every error names file, line, key and a fix.
@Suite struct BoardErrorTests {
    static let valid = """
        name = "test"
        [receiver]
        model = "m"
        family = "mediatek"
        [receiver.current_ma]
        acquisition = 25
        tracking = 20
        standby = 2
        backup = 0.01
        [uart]
        path = "/dev/ttyS1"
        baud = 9600
        [gpio]
        chip = "waymark"
        [gpio.enable]
        line = "gps-enable"
        [power]
        strategy = "gpio-enable"
        """

    func error(replacing old: String, with new: String) -> BoardError? {
        let text = Self.valid.replacingFirst(old, with: new)
        do {
            _ = try BoardDefinition.parse(text, file: "Board/test.toml")
            return nil
        } catch {
            return error
        }
    }

    @Test func theValidFileParses() throws {
        let board = try BoardDefinition.parse(Self.valid, file: "Board/test.toml")
        #expect(board.uart?.baud == 9600)
        #expect(board.gpio?.enable == LineSpec(line: .name("gps-enable"), activeLow: false))
    }

    @Test func aWrongBaudRateNamesKeyLineAndFix() {
        let error = error(replacing: "baud = 9600", with: "baud = \"fast\"")
        #expect(
            error?.description
                == "Board/test.toml:12: uart.baud: \"fast\" is not a baud rate. Fix: use one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, or \"auto\".")
    }

    @Test func anUnsupportedRateIsRefused() {
        #expect(error(replacing: "baud = 9600", with: "baud = 12345")?.key == "uart.baud")
    }

    @Test func anEmptyListOfCandidateRatesIsRefused() {
        let error = error(replacing: "baud = 9600", with: "baud = \"auto\"\ncandidates = []")
        #expect(error?.key == "uart.candidates")
        #expect(error?.problem == "the list of rates to try is empty")
    }

    @Test func aTypoIsAnUnknownKey() {
        let error = error(replacing: "baud = 9600", with: "buad = 9600")
        #expect(error?.key == "uart.buad")
        #expect(error?.line == 12)
        #expect(error?.problem == "unknown key")
    }

    @Test func anUnknownChipListsTheDrivers() {
        let error = error(replacing: "[power]", with: "[accelerometer]\nchip = \"bma280\"\nbus = \"/dev/i2c-1\"\naddress = 0x18\n[power]")
        #expect(error?.key == "accelerometer.chip")
        #expect(error?.fix == "set accelerometer.chip to one of \"adxl345\", \"lis3dh\", \"mpu6050\"")
    }

    @Test func theStrategyMustMatchTheReceiver() {
        let error = error(replacing: "strategy = \"gpio-enable\"", with: "strategy = \"ubx-backup\"")
        #expect(error?.key == "power.strategy")
        #expect(error?.fix == "set receiver.family = \"ublox\" or choose another power.strategy")
    }

    @Test func pmtkBackupNeedsTheForceOnLine() {
        let error = error(replacing: "strategy = \"gpio-enable\"", with: "strategy = \"pmtk-backup\"")
        #expect(error?.key == "gpio.force_on.line")
        #expect(error?.fix == "add [gpio.force_on] with line = \"GPIO24\" (or the line you wired), or use \"pmtk-standby\"")
        let wired = self.error(
            replacing: "[power]\nstrategy = \"gpio-enable\"", with: "[gpio.force_on]\nline = 24\n[power]\nstrategy = \"pmtk-backup\"")
        #expect(wired == nil)
    }

    @Test func gpioEnableNeedsItsLine() {
        let error = error(replacing: "[gpio.enable]\nline = \"gps-enable\"", with: "")
        #expect(error?.key == "gpio.enable.line")
    }

    @Test func aMissingCurrentIsNamed() {
        let error = error(replacing: "tracking = 20\n", with: "")
        #expect(error?.key == "receiver.current_ma.tracking")
        #expect(error?.problem == "missing")
    }

    @Test("figures no module has, a low-power state drawing more than the one above, a line offset past 16 bits, an empty unknown table: refused (doctor said ok)", arguments: [
        ("tracking = 20", "tracking = 100000", "receiver.current_ma.tracking"),
        ("standby = 2", "standby = 30", "receiver.current_ma.standby"),
        ("backup = 0.01", "backup = 0.01\noff = 5", "receiver.current_ma.off"),
        ("line = \"gps-enable\"", "line = 99999999999", "gpio.enable.line"),
        ("[power]", "[bogus]\n[power]", "bogus"),
    ])
    func implausibleFigures(old: String, new: String, key: String) {
        let error = error(replacing: old, with: new)
        #expect(error?.key == key, "\(String(describing: error))")
    }

    @Test func aSupplyVoltageOutsideWhatModulesTakeIsRefused() {
        for volts in ["0", "0.5", "12", "100000000"] {
            let error = error(replacing: "family = \"mediatek\"", with: "family = \"mediatek\"\nsupply_volts = \(volts)")
            #expect(error?.key == "receiver.supply_volts" && error?.problem.contains("from 1.0 to 6.0") == true, "\(volts) V: \(String(describing: error))")
        }
        #expect(error(replacing: "family = \"mediatek\"", with: "family = \"mediatek\"\nsupply_volts = 1.8") == nil)
    }

    @Test func aSyntaxErrorHasItsLine() {
        let error = error(replacing: "model = \"m\"", with: "model = m")
        #expect(error?.line == 3)
        #expect(error?.key == "syntax")
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: BoardError.self) { try BoardDefinition.load(path: "/nonexistent/board.toml") }
    }
}

extension String {
    fileprivate func replacingFirst(_ old: String, with new: String) -> String {
        guard let range = firstRange(of: old) else { return self }
        var result = self
        result.replaceSubrange(range, with: new)
        return result
    }
}

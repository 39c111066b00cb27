import WaymarkHardware
import WaymarkSystem

extension BoardDefinition {
    /// Parses a board file's `text`; `file` names it in errors. Every problem is a
    /// ``BoardError`` naming the file, line, key and the fix (docs/hardware.md lists the keys).
    package static func parse(_ text: String, file: String) throws(BoardError) -> BoardDefinition {
        var reader = try BoardFileReader(parsing: text, file: file)
        let board = try BoardDefinition(reader: &reader)
        try reader.rejectUnknownKeys()
        try board.validate(reader)
        return board
    }

    /// Reads and parses the board file at `path`.
    package static func load(path: String) throws(BoardError) -> BoardDefinition {
        let text = try TextFile.read(path, fix: "pass the path of a file in Board/, such as Board/simulated.toml")
        return try parse(text, file: path)
    }

    private init(reader: inout BoardFileReader) throws(BoardError) {
        name = try reader.requiredString("", "name", fix: "name the board, e.g. name = \"Raspberry Pi + NEO-M8N\"")
        isSimulated = try reader.boolean("", "simulated", fix: "write simulated = true or leave it out") ?? false
        receiver = try ReceiverSpec(reader: &reader)
        uart = try UARTSpec(reader: &reader)
        accelerometer = try AccelerometerSpec(reader: &reader)
        gpio = try GPIOSpec(reader: &reader)
        let strategyFix = "set power.strategy to one of " + PowerStrategy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let strategy = try reader.requiredString("power", "strategy", fix: strategyFix)
        guard let power = PowerStrategy(rawValue: strategy) else {
            throw reader.error("power", "strategy", line: reader.entry("power", "strategy")?.line, "unknown strategy \"\(strategy)\"", fix: strategyFix)
        }
        self.power = power
        configTxt = try reader.strings("boot", "config_txt", fix: "list the lines, e.g. config_txt = [\"enable_uart=1\"]") ?? []
        var rows: [WiringRow] = []
        for index in 0..<reader.tableCount("wiring") {
            let fix = "give each [[wiring]] a part = \"…\" and a board = \"…\""
            rows.append(
                WiringRow(
                    part: try reader.requiredString("wiring", "part", index: index, fix: fix),
                    board: try reader.requiredString("wiring", "board", index: index, fix: fix)))
        }
        wiring = rows
        mqtt = try MQTTSettings(reader: &reader)
        chrony = try ChronySettings(reader: &reader)
        kernelPPS = try reader.absolutePath("pps", "device", fix: "name the kernel's PPS device, e.g. device = \"/dev/pps0\"")
        if kernelPPS != nil, gpio?.pps != nil {
            throw reader.error(
                "pps", "device", line: reader.line("pps", "device"), "[gpio.pps] names the same pulse as a GPIO line",
                fix: "keep [pps] when the kernel owns the line (dtoverlay=pps-gpio), else [gpio.pps]")
        }
    }

    /// Rules that span keys.
    private func validate(_ reader: BoardFileReader) throws(BoardError) {
        if isSimulated { return }
        guard uart != nil else {
            throw reader.error("uart", "path", line: nil, "missing: a real board needs the receiver's UART", fix: "add [uart] with path = \"/dev/serial0\"")
        }
        switch power {
        case .gpioEnable where gpio?.enable == nil:
            throw reader.error("gpio.enable", "line", line: nil, "power.strategy \"gpio-enable\" needs the enable line", fix: "add [gpio.enable] with line = \"GPIO17\" (or the line you wired)")
        case .pmtkStandby where receiver.family != .mediatek:
            throw reader.error("power", "strategy", line: nil, "\"pmtk-standby\" needs a MediaTek receiver, this one is \(receiver.family.rawValue)", fix: "set receiver.family = \"mediatek\" or choose another power.strategy")
        case .pmtkBackup where receiver.family != .mediatek:
            throw reader.error("power", "strategy", line: nil, "\"pmtk-backup\" needs a MediaTek receiver, this one is \(receiver.family.rawValue)", fix: "set receiver.family = \"mediatek\" or choose another power.strategy")
        case .pmtkBackup where gpio?.forceOn == nil:
            throw reader.error("gpio.force_on", "line", line: nil, "power.strategy \"pmtk-backup\" needs the FORCE_ON line, the only way out of backup", fix: "add [gpio.force_on] with line = \"GPIO24\" (or the line you wired), or use \"pmtk-standby\"")
        case .ubxBackup where receiver.family != .ublox:
            throw reader.error("power", "strategy", line: nil, "\"ubx-backup\" needs a u-blox receiver, this one is \(receiver.family.rawValue)", fix: "set receiver.family = \"ublox\" or choose another power.strategy")
        default: break
        }
        if uart?.switchTo != nil, receiver.family == .generic {
            throw reader.error("uart", "switch_to", line: nil, "a generic receiver has no baud-switch command", fix: "remove uart.switch_to or set receiver.family")
        }
        if (gpio?.accelerometerInterrupt != nil) && accelerometer == nil {
            throw reader.error("gpio.accel_int", "line", line: nil, "an interrupt line without an accelerometer", fix: "add [accelerometer] or remove [gpio.accel_int]")
        }
    }
}

extension ReceiverSpec {
    fileprivate init(reader: inout BoardFileReader) throws(BoardError) {
        model = try reader.requiredString("receiver", "model", fix: "name the module, e.g. model = \"u-blox NEO-M8N\"")
        let familyFix = "set receiver.family to one of " + ReceiverFamily.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let familyName = try reader.requiredString("receiver", "family", fix: familyFix)
        guard let family = ReceiverFamily(rawValue: familyName) else {
            throw reader.error("receiver", "family", line: reader.entry("receiver", "family")?.line, "unknown family \"\(familyName)\"", fix: familyFix)
        }
        self.family = family
        // GNSS modules run from 1.8 V to 5 V; a few hundred mA would be a module and its
        // active antenna at their worst: beyond either bound the figure is a mistake.
        supplyVolts =
            try reader.number("receiver", "supply_volts", in: 1...6, fix: "give the supply voltage from 1 to 6 V, e.g. 3.3") ?? 3.3
        let table = "receiver.current_ma"
        let fix = "give the module's supply current in mA from its data sheet"
        func current(_ key: String, _ reader: inout BoardFileReader) throws(BoardError) -> Double {
            guard let value = try reader.number(table, key, in: 0...1_000, fix: fix) else {
                throw reader.error(table, key, line: nil, "missing", fix: fix)
            }
            return value
        }
        currents = ReceiverCurrents(
            acquisition: try current("acquisition", &reader), tracking: try current("tracking", &reader),
            standby: try current("standby", &reader), backup: try current("backup", &reader),
            off: try reader.number(table, "off", in: 0...1_000, fix: fix) ?? 0)
        // Each low-power state draws less than the one above it: that is what it is for.
        let ladder = [
            ("standby", currents.standby, min(currents.acquisition, currents.tracking), "tracking and acquisition"),
            ("backup", currents.backup, currents.standby, "standby"), ("off", currents.off, currents.backup, "backup"),
        ]
        for (key, value, above, aboveName) in ladder where value > above {
            throw reader.error(
                table, key, line: reader.entry(table, key)?.line, "\(value) mA is more than \(aboveName) (\(above) mA)",
                fix: "check the figures against the data sheet: each low-power state draws less than the one above it")
        }
    }
}

extension UARTSpec {
    fileprivate init?(reader: inout BoardFileReader) throws(BoardError) {
        guard reader.hasTable("uart") else { return nil }
        path = try reader.requiredString("uart", "path", fix: "name the device, e.g. path = \"/dev/serial0\"")
        let rates = BaudRates.supported.map(String.init).joined(separator: ", ")
        let rateFix = "use one of \(rates)"
        func checkRate(_ rate: Int, _ key: String, line: Int?) throws(BoardError) {
            guard BaudRates.supported.contains(rate) else {
                throw reader.error("uart", key, line: line, "\(rate) is not a supported baud rate", fix: rateFix)
            }
        }
        let baudEntry = reader.entry("uart", "baud")
        switch baudEntry?.value {
        case .string("auto"), nil: baud = nil
        case .integer(let rate):
            try checkRate(rate, "baud", line: baudEntry?.line)
            baud = rate
        case let other?:
            throw reader.error("uart", "baud", line: baudEntry?.line, "\(other.description) is not a baud rate", fix: "\(rateFix), or \"auto\"")
        }
        candidates = try reader.integers("uart", "candidates", fix: "list rates, e.g. candidates = [9600, 38400, 115200]") ?? [9600, 38400, 115200, 4800, 57600, 230400, 460800, 921600]
        let candidatesLine = reader.entry("uart", "candidates")?.line
        guard !candidates.isEmpty else {
            throw reader.error("uart", "candidates", line: candidatesLine, "the list of rates to try is empty", fix: rateFix)
        }
        for rate in candidates { try checkRate(rate, "candidates", line: candidatesLine) }
        switchTo = try reader.integer("uart", "switch_to", in: 4800...921600, fix: rateFix)
        if let switchTo { try checkRate(switchTo, "switch_to", line: reader.entry("uart", "switch_to")?.line) }
    }
}

extension AccelerometerSpec {
    fileprivate init?(reader: inout BoardFileReader) throws(BoardError) {
        guard reader.hasTable("accelerometer") else { return nil }
        let chipFix = "set accelerometer.chip to one of " + AccelerometerChip.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let chipName = try reader.requiredString("accelerometer", "chip", fix: chipFix)
        guard let chip = AccelerometerChip(rawValue: chipName) else {
            throw reader.error("accelerometer", "chip", line: reader.entry("accelerometer", "chip")?.line, "no driver for \"\(chipName)\"", fix: chipFix)
        }
        self.chip = chip
        bus = try reader.requiredString("accelerometer", "bus", fix: "name the bus device, e.g. bus = \"/dev/i2c-1\"")
        let addressFix = "give the 7-bit address, e.g. address = 0x53 (i2cdetect -y 1 shows it)"
        guard let address = try reader.integer("accelerometer", "address", in: 0x03...0x77, fix: addressFix) else {
            throw reader.error("accelerometer", "address", line: nil, "missing", fix: addressFix)
        }
        self.address = UInt8(address)
    }
}

extension GPIOSpec {
    fileprivate init?(reader: inout BoardFileReader) throws(BoardError) {
        guard reader.hasTable("gpio") else { return nil }
        let chipFix = "name the chip by label or path, e.g. chip = [\"pinctrl-rp1\", \"pinctrl-bcm2711\"]"
        guard let chips = try reader.strings("gpio", "chip", fix: chipFix), !chips.isEmpty else {
            throw reader.error("gpio", "chip", line: nil, "missing", fix: chipFix)
        }
        self.chips = chips
        func line(_ table: String, _ reader: inout BoardFileReader) throws(BoardError) -> LineSpec? {
            let table = "gpio.\(table)"
            guard reader.hasTable(table) else { return nil }
            let fix = "give the line's name (line = \"GPIO17\") or offset (line = 17)"
            let entry = reader.entry(table, "line")
            let id: LineID
            switch entry?.value {
            // A chip's line offsets are 16-bit (the kernel's gpio_chip.ngpio).
            case .integer(let offset) where (0..<65_536).contains(offset): id = .offset(offset)
            case .string(let name) where !name.isEmpty: id = .name(name)
            case nil: throw reader.error(table, "line", line: nil, "missing", fix: fix)
            case let other?: throw reader.error(table, "line", line: entry?.line, "\(other.description) is not a line", fix: fix)
            }
            let activeLow = try reader.boolean(table, "active_low", fix: "write active_low = true or false") ?? false
            return LineSpec(line: id, activeLow: activeLow)
        }
        enable = try line("enable", &reader)
        accelerometerInterrupt = try line("accel_int", &reader)
        pps = try line("pps", &reader)
        marker = try line("marker", &reader)
        extint = try line("extint", &reader)
        forceOn = try line("force_on", &reader)
    }
}

/// Vendor commands as exact bytes: baud-rate switches and power requests for MediaTek
/// (PMTK), u-blox (PUBX and UBX) receivers. Pure; tests check every byte.
package enum ReceiverCommands {
    // MARK: MediaTek

    /// `$PMTK251,<rate>*hh`: switch the receiver's UART to `rate`.
    package static func pmtkSetBaudRate(_ rate: Int) -> [UInt8] {
        nmeaSentence("PMTK251,\(rate)")
    }

    /// `$PMTK220,<ms>*hh`: one fix every `milliseconds` (100 to 10,000).
    package static func pmtkSetFixInterval(milliseconds: Int) -> [UInt8] {
        nmeaSentence("PMTK220,\(milliseconds)")
    }

    /// `$PMTK161,0*28`: standby; navigation stops and any byte on RX wakes it.
    package static let pmtkStandby = nmeaSentence("PMTK161,0")

    /// `$PMTK225,4*2F`: perpetual backup; only a high level on FORCE_ON wakes the receiver.
    package static let pmtkBackup = nmeaSentence("PMTK225,4")

    /// `$PMTK000*32`: the test command; as the first byte on RX it wakes a receiver in
    /// standby, which then answers `$PMTK001,0,3`.
    package static let pmtkWake = nmeaSentence("PMTK000")

    /// `$PMTK869,1,1*35`: enable EASY, the receiver's own orbit prediction (up to 3 days).
    package static let pmtkEnableEASY = nmeaSentence("PMTK869,1,1")

    // MARK: u-blox

    /// `$PUBX,41,<port>,0007,0003,<rate>,0*hh`: set UART `port` to `rate`, UBX+NMEA(+RTCM) in,
    /// UBX+NMEA out, no autobauding.
    package static func pubxSetBaudRate(_ rate: Int, port: Int = 1) -> [UInt8] {
        nmeaSentence("PUBX,41,\(port),0007,0003,\(rate),0")
    }

    /// UBX-CFG-PRT for UART `port`: 8N1 at `rate`, UBX+NMEA+RTCM in, UBX+NMEA out.
    package static func ubxSetBaudRate(_ rate: Int, port: UInt8 = 1) -> [UInt8] {
        var payload: [UInt8] = [port, 0, 0, 0]  // portID, reserved, txReady
        payload += littleEndian(UInt32(0x0000_08D0))  // mode: 8 bits, no parity, 1 stop bit
        payload += littleEndian(UInt32(rate))
        payload += littleEndian(UInt16(0x0007))  // inProtoMask
        payload += littleEndian(UInt16(0x0003))  // outProtoMask
        payload += [0, 0, 0, 0]  // flags, reserved
        return ubxFrame(class: 0x06, id: 0x00, payload: payload)
    }

    /// UBX-CFG-RATE: a measurement every `milliseconds`, a navigation solution per
    /// measurement, aligned to GPS time.
    package static func ubxSetMeasurementRate(milliseconds: UInt16) -> [UInt8] {
        let payload = littleEndian(milliseconds) + littleEndian(UInt16(1)) + littleEndian(UInt16(1))  // measRate, navRate, timeRef
        return ubxFrame(class: 0x06, id: 0x08, payload: payload)
    }

    /// UBX-CFG-NAVX5 (version 0, 40 bytes) that only enables AssistNow Autonomous: `mask1`
    /// bit 14 (apply `aopCfg` and `aopOrbMaxErr`), `aopCfg` bit 0 (`useAOP`), `aopOrbMaxErr`
    /// 0 (the firmware's default); every other field is left alone by its mask bit.
    package static let ubxEnableAssistNowAutonomous: [UInt8] = {
        var payload = [UInt8](repeating: 0, count: 40)
        payload[3] = 0x40  // mask1 (little-endian U2 at offset 2): bit 14, aop
        payload[27] = 0x01  // aopCfg: useAOP
        return ubxFrame(class: 0x06, id: 0x23, payload: payload)
    }()

    /// Wake-up sources for ``ubxBackup(wakeOn:)``.
    package struct UBXWakeSources: OptionSet, Hashable, Sendable {
        /// The raw `wakeupSources` bits.
        package let rawValue: UInt32
        /// Creates sources from their bits.
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// An edge on UART RX (bit 3).
        package static let uartRX = UBXWakeSources(rawValue: 1 << 3)
        /// EXTINT0 (bit 5).
        package static let extint0 = UBXWakeSources(rawValue: 1 << 5)
    }

    /// UBX-RXM-PMREQ (16-byte version): enter backup now (`force`), until woken by `sources`.
    package static func ubxBackup(wakeOn sources: UBXWakeSources) -> [UInt8] {
        var payload: [UInt8] = [0, 0, 0, 0]  // version 0, reserved
        payload += littleEndian(UInt32(0))  // duration: until woken
        payload += littleEndian(UInt32(0x02 | 0x04))  // flags: backup, force
        payload += littleEndian(sources.rawValue)
        return ubxFrame(class: 0x02, id: 0x41, payload: payload)
    }

    /// Bytes that wake a u-blox receiver from backup through UART RX; it ignores them.
    package static let ubxWake: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]

    // MARK: Framing

    /// `$body*hh\r\n`, with the XOR checksum of `body`.
    package static func nmeaSentence(_ body: String) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return [UInt8(ascii: "$")] + Array(body.utf8)
            + [UInt8(ascii: "*"), digits[Int(checksum >> 4)], digits[Int(checksum & 0xF)], 0x0D, 0x0A]
    }

    /// A UBX frame: sync `B5 62`, class, id, little-endian length, payload, and the 8-bit
    /// Fletcher checksum over class through payload.
    package static func ubxFrame(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
        let body = [messageClass, id] + littleEndian(UInt16(payload.count)) + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return [0xB5, 0x62] + body + [a, b]
    }

    private static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

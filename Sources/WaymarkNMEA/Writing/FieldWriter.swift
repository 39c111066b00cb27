/// Accumulates a sentence body field by field and closes it with its checksum.
struct FieldWriter {
    private var body: [UInt8] = []

    init() {
        body.reserveCapacity(90)
    }

    mutating func address(talker: Talker, type: StaticString) {
        let letters = talker.letters
        body.append(letters.0)
        body.append(letters.1)
        body.append(contentsOf: UnsafeBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount))
    }

    /// Starts a new field.
    mutating func comma() {
        body.append(UInt8(ascii: ","))
    }

    mutating func empty(_ count: Int = 1) {
        for _ in 0..<count { comma() }
    }

    mutating func character(_ value: UInt8?) {
        comma()
        if let value { body.append(value) }
    }

    mutating func integer(_ value: Int?, digits: Int = 1) {
        comma()
        guard let value else { return }
        if value < 0 { body.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), minimumDigits: digits)
    }

    mutating func decimal(_ value: NMEADecimal?) {
        comma()
        guard let value else { return }
        if value.significand < 0 { body.append(UInt8(ascii: "-")) }
        let unit = UInt64(NMEADecimal.powerOfTenInt(value.scale))
        let magnitude = value.significand.magnitude
        appendDigits(magnitude / unit, minimumDigits: 1)
        if value.scale > 0 {
            body.append(UInt8(ascii: "."))
            appendDigits(magnitude % unit, minimumDigits: Int(value.scale))
        }
    }

    /// A coordinate as `ddmm.mmmm` (latitude, `degreeDigits` 2) or `dddmm.mmmm` (longitude, 3),
    /// followed by its hemisphere field.
    mutating func coordinate(_ value: NMEACoordinate?, degreeDigits: Int, positive: UInt8, negative: UInt8) {
        comma()
        guard let value else {
            comma()
            return
        }
        let unit = UInt64(NMEADecimal.powerOfTenInt(value.printed.scale))
        let magnitude = value.printed.significand.magnitude
        let whole = magnitude / unit
        appendDigits(whole / 100, minimumDigits: degreeDigits)
        appendDigits(whole % 100, minimumDigits: 2)
        if value.printed.scale > 0 {
            body.append(UInt8(ascii: "."))
            appendDigits(magnitude % unit, minimumDigits: Int(value.printed.scale))
        }
        character(value.isNegative ? negative : positive)
    }

    mutating func time(_ value: TimeOfDay?) {
        comma()
        guard let value else { return }
        appendDigits(UInt64(value.hour), minimumDigits: 2)
        appendDigits(UInt64(value.minute), minimumDigits: 2)
        appendDigits(UInt64(value.second), minimumDigits: 2)
        // The shortest fraction that is exact, at least two digits as receivers print it.
        var digits = 9
        var fraction = UInt64(value.nanoseconds)
        while digits > 2 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        body.append(UInt8(ascii: "."))
        appendDigits(fraction, minimumDigits: digits)
    }

    mutating func date(_ value: NMEADate?) {
        comma()
        guard let value else { return }
        appendDigits(UInt64(value.day), minimumDigits: 2)
        appendDigits(UInt64(value.month), minimumDigits: 2)
        appendDigits(UInt64(value.year), minimumDigits: value.hasCentury ? 4 : 2)
    }

    mutating func mode(_ value: ModeIndicator?) {
        character(value?.rawValue)
    }

    /// Raw text appended to the current field (TXT).
    mutating func text(_ bytes: some Sequence<UInt8>) {
        body.append(contentsOf: bytes)
    }

    /// Removes trailing empty fields beyond `minimumFields`, as many receivers do.
    mutating func trimTrailingEmptyFields(keeping minimumFields: Int) {
        var fieldCount = body.reduce(0) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
        while fieldCount > minimumFields, body.last == UInt8(ascii: ",") {
            body.removeLast()
            fieldCount -= 1
        }
    }

    func finish(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "$"))
        output.append(contentsOf: body)
        let checksum = body.reduce(UInt8(0), ^)
        output.append(UInt8(ascii: "*"))
        output.append(Self.hex(checksum >> 4))
        output.append(Self.hex(checksum & 0xF))
        output.append(0x0D)
        output.append(0x0A)
    }

    private mutating func appendDigits(_ value: UInt64, minimumDigits: Int) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var count = 0
        var remaining = value
        repeat {
            digits[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            count += 1
        } while remaining > 0
        for _ in count..<max(count, minimumDigits) { body.append(UInt8(ascii: "0")) }
        while count > 0 {
            count -= 1
            body.append(digits[count])
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}

extension Talker {
    /// The two letters that stand for this talker (the NMEA 4.11 ones for BeiDou, QZSS, NavIC).
    var letters: (UInt8, UInt8) {
        switch self {
        case .gps: (UInt8(ascii: "G"), UInt8(ascii: "P"))
        case .glonass: (UInt8(ascii: "G"), UInt8(ascii: "L"))
        case .galileo: (UInt8(ascii: "G"), UInt8(ascii: "A"))
        case .beidou: (UInt8(ascii: "G"), UInt8(ascii: "B"))
        case .qzss: (UInt8(ascii: "G"), UInt8(ascii: "Q"))
        case .navic: (UInt8(ascii: "G"), UInt8(ascii: "I"))
        case .combined: (UInt8(ascii: "G"), UInt8(ascii: "N"))
        case .other(let first, let second): (first, second)
        }
    }
}

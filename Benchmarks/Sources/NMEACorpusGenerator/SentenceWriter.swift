/// Formats NMEA 0183 sentences into a byte buffer: `$`, comma-separated fields, then
/// `*` and the XOR checksum in upper-case hex, and CRLF.
struct SentenceWriter {
    /// Bytes written since the last `removeAll()`.
    private(set) var bytes: [UInt8] = []
    /// Sentences finished so far.
    private(set) var count = 0
    /// The length `bytes` had when `count` reached `limit`, if it has.
    private(set) var endOfLimit: Int?
    private let limit: Int
    private var sentenceStart = 0

    init(limit: Int) {
        self.limit = limit
        bytes.reserveCapacity(1 << 17)
    }

    /// Forgets the written bytes (after they have been stored).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Starts a sentence with its address, e.g. `"GNRMC"`.
    mutating func begin(_ address: StaticString) {
        sentenceStart = bytes.count
        bytes.append(UInt8(ascii: "$"))
        append(address)
    }

    /// Closes the sentence with its checksum and CRLF.
    mutating func end() {
        var checksum: UInt8 = 0
        for byte in bytes[(sentenceStart + 1)...] {
            checksum ^= byte
        }
        let hex: StaticString = "0123456789ABCDEF"
        bytes.append(UInt8(ascii: "*"))
        bytes.append(hex.utf8Start[Int(checksum >> 4)])
        bytes.append(hex.utf8Start[Int(checksum & 0xF)])
        bytes.append(UInt8(ascii: "\r"))
        bytes.append(UInt8(ascii: "\n"))
        count += 1
        if count == limit {
            endOfLimit = bytes.count
        }
    }

    mutating func field(_ text: StaticString) {
        bytes.append(UInt8(ascii: ","))
        append(text)
    }

    mutating func emptyFields(_ number: Int) {
        for _ in 0..<number {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// A non-negative integer, zero-padded to `width` digits.
    mutating func field(_ value: Int, width: Int = 1) {
        bytes.append(UInt8(ascii: ","))
        appendDigits(value, width: width)
    }

    /// A decimal with a fixed number of fraction digits, e.g. `1.56` or `-21.3`.
    mutating func field(_ value: Double, decimals: Int) {
        bytes.append(UInt8(ascii: ","))
        appendFixed(value, decimals: decimals, integerWidth: 1)
    }

    /// Latitude as `ddmm.mmmmm,N` (two fields).
    mutating func latitude(_ degrees: Double) {
        angle(degrees, degreeWidth: 2, hemispheres: ("N", "S"))
    }

    /// Longitude as `dddmm.mmmmm,E` (two fields).
    mutating func longitude(_ degrees: Double) {
        angle(degrees, degreeWidth: 3, hemispheres: ("E", "W"))
    }

    /// UTC date as `ddmmyy`.
    mutating func date(day: Int, month: Int, year: Int) {
        bytes.append(UInt8(ascii: ","))
        appendDigits(day, width: 2)
        appendDigits(month, width: 2)
        appendDigits(year % 100, width: 2)
    }

    /// UTC time of day at 1 Hz, `hhmmss.00`.
    mutating func time(_ secondOfDay: Int) {
        bytes.append(UInt8(ascii: ","))
        appendDigits(secondOfDay / 3600, width: 2)
        appendDigits(secondOfDay / 60 % 60, width: 2)
        appendDigits(secondOfDay % 60, width: 2)
        append(".00")
    }

    private mutating func angle(
        _ degrees: Double, degreeWidth: Int, hemispheres: (StaticString, StaticString)
    ) {
        let units = 6_000_000  // 1/100000 minute per degree
        let total = Int((abs(degrees) * Double(units)).rounded())
        bytes.append(UInt8(ascii: ","))
        let minutes = total % units
        appendDigits(total / units, width: degreeWidth)
        appendDigits(minutes / 100_000, width: 2)
        bytes.append(UInt8(ascii: "."))
        appendDigits(minutes % 100_000, width: 5)
        field(degrees < 0 ? hemispheres.1 : hemispheres.0)
    }

    private mutating func appendFixed(_ value: Double, decimals: Int, integerWidth: Int) {
        var scale = 1
        for _ in 0..<decimals {
            scale *= 10
        }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        if value < 0 && scaled != 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        appendDigits(scaled / scale, width: integerWidth)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(scaled % scale, width: decimals)
        }
    }

    private mutating func appendDigits(_ value: Int, width: Int) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: 48 + rest % 10))
            rest /= 10
        } while rest > 0
        while bytes.count - start < width {
            bytes.append(UInt8(ascii: "0"))
        }
        bytes[start...].reverse()
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}

import Testing
import WaymarkNMEA

/// Fields printed in every width, valid or not, checked against what the grammar says they
/// mean: the fixed-width fast paths (GSV satellites and list header, GSA satellite numbers,
/// times of day) must agree with it wherever they apply and step aside everywhere else.
@Suite("NMEA fixed-width fast paths against the grammar")
struct FixedWidthPropertyTests {
    /// A field's text and what it means: a value, nothing (empty), or malformed.
    struct Printed {
        var text: String
        var value: Int?
        var isValid = true
    }

    /// A small count or angle as receivers print it: the standard's widths mostly, sometimes
    /// other widths, a zero fraction, or something malformed.
    static func smallNumber(_ random: inout SplitMix64, maximumDigits: Int) -> Printed {
        let roll = random.next() % 20
        let value = Int(random.next() % 1000)
        switch roll {
        case 0...9: return Printed(text: value < 100 ? twoDigits(value) : String(value), value: value)
        case 10...11: return Printed(text: "", value: nil)
        case 12: return Printed(text: String(value % 10), value: value % 10)
        case 13: return Printed(text: "0" + twoDigits(value % 100), value: value % 100)
        case 14: return Printed(text: "\(value).0", value: value)
        case 15: return Printed(text: String(repeating: "1", count: maximumDigits + 1), value: nil, isValid: false)
        case 16: return Printed(text: "\(value % 10)\(["/", ".5", "x", ":", "-", "+"][Int(random.next() % 6)])", value: nil, isValid: false)
        case 17: return Printed(text: "-\(value % 90)", value: nil, isValid: false)
        default: return Printed(text: twoDigits(value % 100), value: value % 100)
        }
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// The message `text` parses to when the grammar says it is `valid`; nil when it is not,
    /// after checking that the parser rejected it, or when the parser disagrees (recorded).
    static func parsedMessage(_ text: String, valid: Bool) -> NMEAMessage? {
        let result = parse(text)
        guard valid else {
            #expect(result == .malformed, "\(text)")
            return nil
        }
        guard case .parsed(let parsed) = result else {
            Issue.record("not parsed: \(text)")
            return nil
        }
        return parsed.message
    }

    @Test("GSV: any mix of widths gives the grammar's satellites, or malformed")
    func gsvSatellites() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<4_000 {
            let groups = 1 + Int(random.next() % 4)
            var fields: [Printed] = []
            for index in 0..<(groups * 4) {
                var field = Self.smallNumber(&random, maximumDigits: 4)
                // An elevation below the horizon (a sign and digits) is unknown, not malformed.
                if index % 4 == 1, field.text.count > 1, field.text.first == "-",
                    field.text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
                {
                    field = Printed(text: field.text, value: nil)
                }
                fields.append(field)
            }
            let withSignal = random.next() % 4 != 0
            let text = "$GPGSV,3,1,\(Self.twoDigits(groups * 3)),"
                + fields.map(\.text).joined(separator: ",") + (withSignal ? ",1" : "")
            guard case .gsv(let gsv) = Self.parsedMessage(text, valid: fields.allSatisfy(\.isValid)) else { continue }
            var expected: [SatelliteInView] = []
            for group in 0..<groups {
                let satellite = fields[(group * 4)..<(group * 4 + 4)].map(\.value)
                guard let number = satellite[0], number > 0 else { continue }
                expected.append(SatelliteInView(
                    number: number, elevation: satellite[1], azimuth: satellite[2], signalStrength: satellite[3]))
            }
            #expect(gsv.described == expected, "\(text)")
            #expect(gsv.signalID == (withSignal ? 1 : nil), "\(text)")
            #expect(gsv.messageCount == 3 && gsv.messageNumber == 1 && gsv.satellitesInView == groups * 3, "\(text)")
        }
    }

    @Test("GSA: any mix of empty fields and widths gives the grammar's satellite numbers, or malformed")
    func gsaSatellites() {
        var random = SplitMix64(seed: 12)
        for _ in 0..<4_000 {
            var fields: [Printed] = []
            for _ in 0..<12 {
                fields.append(random.next() % 2 == 0 ? Printed(text: "", value: nil) : Self.smallNumber(&random, maximumDigits: 9))
            }
            let text = "$GNGSA,A,3," + fields.map(\.text).joined(separator: ",") + ",1.2,0.7,1.0,1"
            guard case .gsa(let gsa) = Self.parsedMessage(text, valid: fields.allSatisfy(\.isValid)) else { continue }
            #expect(gsa.usedSatellites == fields.compactMap(\.value).filter { $0 > 0 }.map(UInt16.init), "\(text)")
            #expect(gsa.hdop == NMEADecimal(significand: 7, scale: 1) && gsa.systemID == 1, "\(text)")
        }
    }

    @Test("times of day: any hour, minute, second and fraction gives the grammar's time, or malformed")
    func timesOfDay() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<4_000 {
            let hour = Int(random.next() % 27), minute = Int(random.next() % 64), second = Int(random.next() % 64)
            let fractionDigits = Int(random.next() % 11)
            let fraction = (0..<fractionDigits).map { _ in String(random.next() % 10) }.joined()
            var field = Self.twoDigits(hour) + Self.twoDigits(minute) + Self.twoDigits(second)
            let hasPoint = fractionDigits > 0 || random.next() % 4 == 0
            if hasPoint { field += "." + fraction }
            let garbled = random.next() % 10 == 0
            if garbled {
                let index = field.index(field.startIndex, offsetBy: Int(random.next() % UInt64(field.count)))
                field.replaceSubrange(index...index, with: ["x", "/", ":", " "][Int(random.next() % 4)])
            }
            // A point must have digits after it, and nine at most.
            let valid = !garbled && hour < 24 && minute < 60 && second <= 60 && fractionDigits <= 9
                && (fractionDigits > 0 || !hasPoint)
            guard case .zda(let zda) = Self.parsedMessage("$GPZDA,\(field),29,02,2024,00,00", valid: valid) else { continue }
            let nanoseconds = Int32((fraction + String(repeating: "0", count: 9 - fractionDigits)).prefix(9)) ?? 0
            #expect(zda.time == TimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds), "\(field)")
        }
    }
}

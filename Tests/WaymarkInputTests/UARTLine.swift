/// What a UART at one rate receives from a sender at another: the line is modelled bit by bit
/// (8N1, idle high, a start bit low, eight data bits least significant first, a stop bit high,
/// frames back to back), and the receiver does what a 16550 does: it waits for the line to be
/// low, samples the middle of each bit at its own rate, and hands on a byte with a framing
/// error as 0x00 (the Linux tty's default without IGNPAR or PARMRK).
enum UARTLine {
    /// The bytes a receiver at `readRate` gets from `bytes` sent at `sentRate`.
    static func received(_ bytes: [UInt8], sentAt sentRate: Int, readAt readRate: Int) -> [UInt8] {
        let bitTime = 1.0 / Double(sentRate)
        let end = Double(bytes.count * 10) * bitTime
        func level(at time: Double) -> Bool {
            guard time >= 0, time < end else { return true }
            let bit = Int(time / bitTime)
            switch bit % 10 {
            case 0: return false
            case 9: return true
            case let data: return bytes[bit / 10] >> (data - 1) & 1 == 1
            }
        }
        let sample = 1.0 / Double(readRate)
        let step = min(bitTime, sample) / 16
        var received: [UInt8] = []
        var time = 0.0
        while time < end {
            guard !level(at: time) else {
                time += step
                continue
            }
            var byte: UInt8 = 0
            for data in 0..<8 where level(at: time + (Double(data) + 1.5) * sample) {
                byte |= 1 << data
            }
            received.append(level(at: time + 9.5 * sample) ? byte : 0)
            time += 9.5 * sample
        }
        return received
    }
}

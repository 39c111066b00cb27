/// Accelerometer chips with drivers.
package enum AccelerometerChip: String, Hashable, Sendable, CaseIterable {
    /// Analog Devices ADXL345.
    case adxl345
    /// ST LIS3DH.
    case lis3dh
    /// InvenSense MPU-6050 (accelerometer part only).
    case mpu6050

    /// The output rate asked for while the chip waits in low power for motion, Hz: each chip
    /// runs at the nearest it offers (``wakeRate``), and its motion interrupt can fire only
    /// on a sample, so this also bounds how soon the interrupt follows a push.
    package static let requestedWakeRate = 12.5

    /// The chip the simulated board stands for: the ADXL345 of the Raspberry Pi board it
    /// mirrors (`rpi-neo-m8n-adxl345`).
    package static let simulatedBoard = AccelerometerChip.adxl345

    /// The output rates the chip offers in its low-power mode, Hz, in the order of its rate
    /// codes (data sheets): ADXL345 BW_RATE 0x06…0x0D (normal mode offers the same), LIS3DH
    /// ODR 1…7 (likewise), MPU-6050 LP_WAKE_CTRL 0…3 (the accelerometer-only cycle).
    package var lowPowerRates: [Double] {
        switch self {
        case .adxl345: (6...13).map { 3200 / Double(1 << (15 - $0)) }
        case .lis3dh: [1, 10, 25, 50, 100, 200, 400]
        case .mpu6050: [1.25, 5, 20, 40]
        }
    }

    /// The rate the chip samples at while armed for motion: its low-power rate nearest to
    /// ``requestedWakeRate`` (ADXL345 12.5 Hz, LIS3DH 10 Hz, MPU-6050 5 Hz).
    package var wakeRate: Double {
        lowPowerRates[nearestRateIndex(lowPowerRates, to: Self.requestedWakeRate)]
    }
}

/// The index of the entry in `rates` nearest to `wanted` (the first of two as near).
package func nearestRateIndex(_ rates: [Double], to wanted: Double) -> Int {
    rates.indices.min { abs(rates[$0] - wanted) < abs(rates[$1] - wanted) } ?? 0
}

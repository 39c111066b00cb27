/// Accelerometer chips with drivers.
package enum AccelerometerChip: String, Hashable, Sendable, CaseIterable {
    /// Analog Devices ADXL345.
    case adxl345
    /// ST LIS3DH.
    case lis3dh
    /// InvenSense MPU-6050 (accelerometer part only).
    case mpu6050
}

/// One accelerometer reading in milli-g (1000 mg is the acceleration of gravity).
package struct AccelerationSample: Hashable, Sendable {
    /// X axis, mg.
    package var x: Double
    /// Y axis, mg.
    package var y: Double
    /// Z axis, mg.
    package var z: Double

    /// Creates a reading.
    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The length of the acceleration vector, mg.
    package var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

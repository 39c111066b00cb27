/// One accelerometer reading in milli-g (1000 mg is the acceleration of gravity).
public struct AccelerationSample: Hashable, Sendable {
    /// X axis, mg.
    public var x: Double
    /// Y axis, mg.
    public var y: Double
    /// Z axis, mg.
    public var z: Double

    /// Creates a reading.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The length of the acceleration vector, mg.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

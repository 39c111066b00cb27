internal import CWaymarkMath

// The trigonometric functions the geodesy of the model, the pipeline, the monitor and reduced
// accuracy needs, by their usual names (libm through the CWaymarkMath shim).

/// The sine of `x` radians.
package func sin(_ x: Double) -> Double { waymark_sin(x) }
/// The cosine of `x` radians.
package func cos(_ x: Double) -> Double { waymark_cos(x) }
/// The tangent of `x` radians.
package func tan(_ x: Double) -> Double { waymark_tan(x) }
/// The arc sine of `x`, in radians.
package func asin(_ x: Double) -> Double { waymark_asin(x) }
/// The arc tangent of `x`, in radians.
package func atan(_ x: Double) -> Double { waymark_atan(x) }
/// The angle of the point (`x`, `y`), in radians.
package func atan2(_ y: Double, _ x: Double) -> Double { waymark_atan2(y, x) }

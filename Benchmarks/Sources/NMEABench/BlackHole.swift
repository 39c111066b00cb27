/// Takes a value and does nothing with it, in a way the optimizer cannot see through,
/// so that the work producing the value is not removed. The value is passed by reference,
/// so handing it over costs no copy.
@_optimize(none)
func blackHole<T>(_ value: inout T) {}

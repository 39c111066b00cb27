/// Takes a value and does nothing with it, in a way the optimizer cannot see through,
/// so that the work producing the value is not removed.
@_optimize(none)
func blackHole<T>(_ value: T) {}

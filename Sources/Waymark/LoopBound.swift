/// A value that is only ever touched on the client's I/O thread, carried through the
/// `@Sendable` jobs that run there.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
}

/// A type whose values have names in the protocol.
protocol ProtocolNamed {
    /// Every value, for looking names up.
    static var everyValue: [Self] { get }
    /// The value's name.
    var protocolName: String { get }
}

extension ProtocolNamed {
    /// The value named `name`, or `nil`.
    init?(protocolName name: String) {
        guard let value = Self.everyValue.first(where: { $0.protocolName == name }) else { return nil }
        self = value
    }
}

extension ProtocolNamed where Self: CaseIterable & RawRepresentable<String> {
    static var everyValue: [Self] { Array(allCases) }
    var protocolName: String { rawValue }
}

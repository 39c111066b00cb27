extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

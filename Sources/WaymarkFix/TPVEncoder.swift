package import WaymarkJSON
import WaymarkLocation

/// Writes fixes as gpsd TPV objects (``TPVReport``), one per line, so tools that read
/// gpsd's output can read Waymark's; the error estimates are those of ``AccuracyModel``.
package struct TPVEncoder: Sendable {
    /// The accuracy model behind the error estimates.
    package var model: AccuracyModel

    /// Creates an encoder.
    package init(model: AccuracyModel = AccuracyModel()) {
        self.model = model
    }

    /// Appends one TPV object and a newline to `json`.
    package func encode(_ fix: Fix, into json: inout JSONBuffer) {
        TPVReport(fix: fix, model: model).write(to: &json)
        json.newline()
    }
}

import WaymarkLocation
import WaymarkNMEA

extension FixQuality {
    /// The quality a GGA/GNS quality number stands for.
    init(ggaQuality: Int) {
        switch ggaQuality {
        case 1: self = .autonomous
        case 2, 3, 9: self = .differential
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .deadReckoning
        case 8: self = .simulated
        default: self = .unknown
        }
    }

    /// The quality a mode indicator stands for.
    init(mode: ModeIndicator) {
        switch mode {
        case .autonomous, .precise: self = .autonomous
        case .differential: self = .differential
        case .rtkFixed: self = .rtkFixed
        case .rtkFloat: self = .rtkFloat
        case .estimated: self = .deadReckoning
        case .simulator: self = .simulated
        case .manual, .notValid: self = .unknown
        }
    }
}

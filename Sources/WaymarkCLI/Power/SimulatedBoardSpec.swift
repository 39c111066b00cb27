import WaymarkBoard
import WaymarkHardware
import WaymarkReceiver

/// What a power run takes from a board file: the receiver (its profile, with the board's
/// current figures), how the board powers it down, and its accelerometer (`nil`: none).
/// The mapping itself is the board's (`BoardDefinition+Receiver`), shared with `waymarkd`.
struct SimulatedBoardSpec {
    let name: String
    let profile: ReceiverProfile
    let poweredDownState: ReceiverPowerState?
    let accelerometer: AccelerometerChip?

    init(_ board: BoardDefinition) {
        name = board.name
        profile = board.receiverProfile
        poweredDownState = board.poweredDownState
        accelerometer = board.simulatedAccelerometer
    }
}

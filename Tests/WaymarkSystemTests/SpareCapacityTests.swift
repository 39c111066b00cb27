import Testing
import WaymarkSystem

/// A table with an entry per connection gives back what thousands of connections grew it to.
struct SpareCapacityTests {
    @Test func aTableEmptiedAfterABurstShrinksToWhatItHolds() {
        var table: [Int: [UInt8]] = [:]
        for key in 0..<4_000 { table[key] = [UInt8(key & 0xFF)] }
        let grown = table.capacity
        for key in 0..<3_990 {
            table[key] = nil
            table.releaseSpareCapacity()
        }
        #expect(grown >= 4_000)
        #expect(table.capacity <= 64)
        #expect(table.count == 10)
        #expect((3_990..<4_000).allSatisfy { table[$0] == [UInt8($0 & 0xFF)] })
    }

    @Test func aTableStillFairlyFullKeepsItsStorage() {
        var table: [Int: Int] = [:]
        for key in 0..<1_000 { table[key] = key }
        let grown = table.capacity
        for key in 0..<500 { table[key] = nil }
        table.releaseSpareCapacity()
        #expect(table.capacity == grown)
    }
}

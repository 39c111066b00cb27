import WaymarkFix
import WaymarkTestFixtures
import WaymarkLocation

/// Decodes a whole capture the way `waymark nmea decode` does, chunk by chunk.
func decodeCapture(_ bytes: [UInt8], chunkSize: Int = 65_536) -> (fixes: [Fix], decoder: NMEADecoder) {
    var decoder = NMEADecoder()
    var comments = CaptureCommentFilter()
    var fixes: [Fix] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunkSize, bytes.count)
        bytes[offset..<end].withUnsafeBufferPointer { chunk in
            comments.filter(
                chunk, data: { decoder.decode($0) { fixes.append($0) } }, date: { decoder.seedDate($0) })
        }
        offset = end
    }
    decoder.finish { fixes.append($0) }
    return (fixes, decoder)
}

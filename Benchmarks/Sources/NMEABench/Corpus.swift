#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory through C stdio; nil if it cannot be read.
func readCorpus(path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard read > 0 else { break }
        bytes.append(contentsOf: chunk[..<read])
    }
    return ferror(file) == 0 ? bytes : nil
}

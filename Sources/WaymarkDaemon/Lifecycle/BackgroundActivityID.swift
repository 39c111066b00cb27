import WaymarkEngine

/// A background activity session (`startBackgroundActivitySession`), unique per daemon run.
package struct BackgroundActivityID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

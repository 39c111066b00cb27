// `import Waymark` is all an app needs: the model types come with it.
@_exported import WaymarkLocation
@_exported import struct WaymarkProtocol.StatusReport

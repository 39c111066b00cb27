// `import Waymark` is all an app needs: the model types come with it.
@_exported import WaymarkLocation

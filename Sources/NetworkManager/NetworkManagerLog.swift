internal import Logging

/// The adapter's log; the executable decides where it goes and from which level.
let networkManagerLog = Logger(label: "ztprov.networkmanager")

/// What the soak reads of its own process at one point: open descriptors and resident memory.
public struct SoakSample: Sendable, Equatable {
    /// Provisionings done when the sample was taken.
    public let iteration: Int
    /// Entries in /proc/self/fd.
    public let openFileDescriptors: Int
    /// Resident set size in KiB (/proc/self/statm × page size).
    public let residentKiB: Int

    /// A sample as read.
    public init(iteration: Int, openFileDescriptors: Int, residentKiB: Int) {
        self.iteration = iteration
        self.openFileDescriptors = openFileDescriptors
        self.residentKiB = residentKiB
    }
}

/// Whether a soak's descriptors and memory stayed flat.
///
/// The first sample is taken before any work and the allocator, caches and the async runtime grow
/// during the first iterations, so the comparison starts at the first sample after the warm-up.
/// From there, descriptors may not grow at all (one leaked socket per run shows as hundreds), and
/// RSS may vary by `rssTolerance` (fragmentation noise), not by a per-run leak.
public struct SoakTrend: Sendable, Equatable {
    /// Samples taken at or before this iteration are warm-up.
    public let warmUpIterations: Int
    /// Allowed relative RSS growth from the first warm sample to the last.
    public let rssTolerance: Double

    /// A judge with these limits.
    public init(warmUpIterations: Int, rssTolerance: Double) {
        self.warmUpIterations = warmUpIterations
        self.rssTolerance = rssTolerance
    }

    /// True when neither descriptors nor memory grew beyond the limits after the warm-up; true when
    /// too few samples are past the warm-up to tell.
    public func isFlat(_ samples: [SoakSample]) -> Bool {
        let warm = samples.filter { $0.iteration >= warmUpIterations }
        guard let first = warm.first, let last = warm.last, warm.count >= 2 else { return true }
        let rssLimit = Double(first.residentKiB) * (1 + rssTolerance)
        return last.openFileDescriptors <= first.openFileDescriptors && Double(last.residentKiB) <= rssLimit
    }
}

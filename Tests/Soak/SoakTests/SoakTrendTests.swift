import SoakMetrics
import Testing

@Suite struct SoakTrendTests {
    let trend = SoakTrend(warmUpIterations: 100, rssTolerance: 0.05)

    func samples(_ values: [(Int, Int, Int)]) -> [SoakSample] {
        values.map { SoakSample(iteration: $0.0, openFileDescriptors: $0.1, residentKiB: $0.2) }
    }

    @Test func growthDuringTheWarmUpDoesNotCount() {
        #expect(trend.isFlat(samples([(0, 5, 8_000), (100, 9, 12_000), (200, 9, 12_300), (300, 9, 12_100)])))
    }

    @Test func oneMoreDescriptorAfterTheWarmUpIsALeak() {
        #expect(!trend.isFlat(samples([(0, 5, 8_000), (100, 9, 12_000), (200, 10, 12_000)])))
    }

    @Test func memoryBeyondTheToleranceIsALeak() {
        #expect(!trend.isFlat(samples([(100, 9, 12_000), (500, 9, 12_700)])))
        #expect(trend.isFlat(samples([(100, 9, 12_000), (500, 9, 12_500)])))
    }

    @Test func tooFewWarmSamplesCannotShowATrend() {
        #expect(trend.isFlat(samples([(0, 5, 8_000), (50, 50, 80_000)])))
    }
}

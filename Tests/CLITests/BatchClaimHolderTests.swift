import Foundation
import TestSupport
import Testing

@testable import ztprov

/// Only a batch process of this very host that has exited is judged gone; any other holder's claims are
/// waited out.
@Suite struct BatchClaimHolderTests {
    static let batchID = "0b1e2c3d-aaaa-4bbb-8ccc-0123456789ab"

    @Test func aLiveHolderOfThisHostIsNotGone() {
        let mine = BatchClaimHolder.current(batchID: Self.batchID)
        #expect(mine.hasSuffix("/\(getpid())/\(Self.batchID)"))
        #expect(!BatchClaimHolder.isGone(mine))
    }

    @Test func anExitedProcessOfThisHostIsGone() async throws {
        let exited = try ProcessLaunch("/bin/true").start()
        _ = await exited.waitForExit()
        let mine = BatchClaimHolder.current(batchID: Self.batchID)
        let host = mine.split(separator: "/").prefix(2).joined(separator: "/")
        #expect(BatchClaimHolder.isGone("\(host)/\(exited.pid)/\(Self.batchID)"))
    }

    /// Holders of another boot or PID namespace, and text that is no holder at all, are never gone.
    @Test func anyOtherHolderIsNeverGone() {
        let mine = BatchClaimHolder.current(batchID: Self.batchID)
        let parts = mine.split(separator: "/").map(String.init)
        #expect(!BatchClaimHolder.isGone("another-boot/\(parts[1])/999999/\(Self.batchID)"))
        #expect(!BatchClaimHolder.isGone("\(parts[0])/4026531999/999999/\(Self.batchID)"))
        var random = SplitMix64(seed: 0x0C1A_1A11)
        for _ in 0..<50 {
            let holder = [HostileText.next(&random), parts[0] + "/" + parts[1] + "/" + HostileText.next(&random)][
                random.below(2)]
            #expect(!BatchClaimHolder.isGone(holder), "\(holder.prefix(80))")
        }
    }
}

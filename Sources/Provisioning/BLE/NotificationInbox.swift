import Synchronization
import Transports

/// A link's notifications, buffered for a flow, so the flow can wait for the next one with a
/// deadline: racing the link's one-consumer stream against a timer would end the stream on the
/// first timeout, while a wait here can be abandoned without losing anything.
///
/// Several streams may feed one inbox (each characteristic's, tagged); the first to end ends the link.
final class NotificationInbox<Value: Sendable>: Sendable {
    /// What the link delivered.
    enum Item: Sendable {
        case notification(Value)
        /// The stream finished normally: the link closed.
        case closed
        /// The stream finished with an error: the link was lost.
        case failed(any Error)
    }

    private struct State {
        var items: [Item] = []
        var waiter: CheckedContinuation<Item, any Error>?
    }

    private enum Take {
        case ready(Item)
        case cancelled
        case parked
    }

    private let state = Mutex(State())

    /// Moves the link's notifications into the inbox until the stream ends; runs as a child task.
    func pump(_ notifications: AsyncThrowingStream<Value, any Error>) async {
        await pump(notifications) { $0 }
    }

    /// Moves one stream's notifications into the inbox as `tag` makes them, until the stream ends.
    func pump<Element>(_ notifications: AsyncThrowingStream<Element, any Error>, tag: (Element) -> Value) async {
        do {
            for try await element in notifications { put(.notification(tag(element))) }
            put(.closed)
        } catch {
            put(.failed(error))
        }
    }

    /// The next item, or `nil` when `deadline` passes (or the task is cancelled) first.
    func next(until deadline: ContinuousClock.Instant) async -> Item? {
        if let item = state.withLock({ $0.items.isEmpty ? nil : $0.items.removeFirst() }) { return item }
        return try? await withDeadline(deadline, "notification wait") { try await self.take() }
    }

    private func put(_ item: Item) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.items.append(item)
                return nil as CheckedContinuation<Item, any Error>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: item)
    }

    /// Waits for one item; throws `CancellationError` once the task is cancelled.
    private func take() async throws -> Item {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let take = state.withLock { state -> Take in
                    if !state.items.isEmpty { return .ready(state.items.removeFirst()) }
                    if Task.isCancelled { return .cancelled }
                    state.waiter = continuation
                    return .parked
                }
                switch take {
                case .ready(let item): continuation.resume(returning: item)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .parked: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

import JSONWriting

/// One step of a flow as the console tells it: a sentence for people on stderr, rows for stdout (the
/// networks a device lists), and one JSON event. Each flow's progress says which in one switch, so one
/// ``ProgressPrinter`` prints every flow the same way.
struct ProgressLine: Sendable {
    /// How the sentence is shown.
    enum Tone: Sendable {
        case step
        /// Shown only with `--verbose`.
        case detail
        case success
        case warning
        /// The person must act on the device (press its button).
        case actionNeeded
    }

    let tone: Tone
    let sentence: String
    let event: String
    let fields: [JSONField]
    let rows: [String]

    init(_ tone: Tone, _ sentence: String, event: String, _ fields: [JSONField] = [], rows: [String] = []) {
        self.tone = tone
        self.sentence = sentence
        self.event = event
        self.fields = fields
        self.rows = rows
    }

    /// An ordinary step.
    init(_ sentence: String, event: String, _ fields: [JSONField] = [], rows: [String] = []) {
        self.init(.step, sentence, event: event, fields, rows: rows)
    }
}

/// A flow's progress that knows how the console tells it.
protocol ConsoleProgress: Sendable {
    var line: ProgressLine { get }
}

extension ProgressLine {
    /// `progress`'s description with a capital letter, as progress lines read.
    static func sentence(_ progress: some CustomStringConvertible) -> String {
        let text = progress.description
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}

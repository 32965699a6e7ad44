/// Prints any flow's progress: its sentence on stderr in its tone, its rows on stdout, its JSON event.
struct ProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: some ConsoleProgress) {
        let line = progress.line
        switch line.tone {
        case .step: console.progress(line.sentence)
        case .detail: console.progress(line.sentence, detail: true)
        case .success: console.success(line.sentence)
        case .warning: console.warning(line.sentence)
        case .actionNeeded: console.actionNeeded(line.sentence)
        }
        for row in line.rows { console.output(row) }
        console.event(line.event, line.fields)
    }
}

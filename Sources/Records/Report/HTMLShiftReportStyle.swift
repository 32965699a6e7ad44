/// The shift report's style sheet: system fonts (nothing to download), tables that read at a glance,
/// and a print layout that keeps each section on one page where it fits and prints the bar colours.
enum HTMLShiftReportStyle {
    static let css = """
        :root { color-scheme: light; --ink: #263238; --muted: #607d8b; --line: #d0d4da; --ok: #2e7d32;
          --fail: #c62828; --accent: #1565c0; }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1040px; padding: 24px 28px 48px; color: var(--ink); background: #fff;
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
        header { border-bottom: 3px solid var(--accent); margin-bottom: 18px; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 18px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
        .scope, .generated, .period, figcaption, .none { color: var(--muted); margin: 4px 0 10px; }
        .generated { font-size: 12px; }
        .empty { font-size: 18px; padding: 32px; text-align: center; border: 2px dashed var(--line); }
        .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; }
        .tile { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: #f7f9fb; }
        .tile .value { display: block; font-size: 26px; font-weight: 650; font-variant-numeric: tabular-nums; }
        .tile .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
        table { width: 100%; border-collapse: collapse; margin: 6px 0 8px; }
        th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: baseline;
          overflow-wrap: anywhere; }
        th { font-size: 12px; color: var(--muted); font-weight: 600; }
        tbody tr:nth-child(even) { background: #f7f9fb; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .strong { font-weight: 650; }
        .code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
        .hint { color: #455a64; font-size: 13px; }
        .ok { color: var(--ok); }
        .fail { color: var(--fail); }
        .bar-cell { width: 28%; vertical-align: middle; }
        .bar { height: 10px; background: #fde0dc; border-radius: 5px; overflow: hidden; }
        .bar div { height: 100%; background: var(--ok); }
        figure { margin: 8px 0 12px; }
        svg { width: 100%; height: auto; display: block; font: 11px system-ui, "DejaVu Sans", sans-serif;
          fill: var(--ink); }
        .key { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 8px; border-radius: 2px; }
        .key.ok { background: var(--ok); }
        .key.fail { background: var(--fail); }
        @media print {
          @page { margin: 14mm; }
          body { max-width: none; padding: 0; font-size: 11px; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          section, figure, tr { break-inside: avoid; }
          h2 { break-after: avoid; }
          .tile { background: #fff; }
        }
        """
}

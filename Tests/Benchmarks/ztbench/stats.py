"""Medians and the markdown table the benchmark prints."""

import statistics


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, unit: str = "", digits: int = 0) -> str:
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    return f"{value:.{digits}f}{unit}"


def table(title: str, header: list[str], rows: list[list]) -> str:
    lines = [f"### {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def is_flat(samples: list[float], tolerance: float) -> bool:
    """Whether the last sample is within `tolerance` (relative) of the first: no steady growth."""
    if len(samples) < 2:
        return True
    return samples[-1] <= samples[0] * (1 + tolerance)

#!/usr/bin/env python3
"""Summarise `llvm-cov export -summary-only` (JSON on standard input) per library module.

Used by scripts/coverage. A library module is a directory under Modules/ of the
repository.
Prints one line per module (covered lines, lines, percentage), then the total of them
all, and exits 1 when the total is below --threshold.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def module_of(path: str, root: Path) -> str | None:
    """The library module a source file belongs to, or None when it is no library's."""
    try:
        relative = Path(path).resolve().relative_to(root)
    except ValueError:
        return None
    parts = relative.parts
    if len(parts) >= 3 and parts[0] == "Modules":
        return parts[1]
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--threshold", type=float, default=90.0)
    arguments = parser.parse_args()
    root = arguments.root.resolve()

    export = json.load(sys.stdin)
    modules: dict[str, list[int]] = {}
    for data in export.get("data", []):
        for file in data.get("files", []):
            module = module_of(file["filename"], root)
            if module is None:
                continue
            lines = file["summary"]["lines"]
            counts = modules.setdefault(module, [0, 0])
            counts[0] += lines["covered"]
            counts[1] += lines["count"]

    if not modules:
        print("coverage: no library source in the profile", file=sys.stderr)
        return 1

    def percent(covered: int, count: int) -> float:
        return 100.0 * covered / count if count else 100.0

    width = max(len(name) for name in modules) + 2
    print(f"{'module':<{width}} {'covered':>7} / {'lines':<7} {'cover':>6}")
    covered_total = count_total = 0
    for name in sorted(modules):
        covered, count = modules[name]
        covered_total += covered
        count_total += count
        print(f"{name:<{width}} {covered:>7} / {count:<7} {percent(covered, count):>5.1f}%")
    total = percent(covered_total, count_total)
    print(f"{'TOTAL':<{width}} {covered_total:>7} / {count_total:<7} {total:>5.1f}%")

    if total < arguments.threshold:
        print(
            f"coverage: library line coverage {total:.1f}% is below {arguments.threshold:g}%",
            file=sys.stderr,
        )
        return 1
    print(f"coverage: library line coverage {total:.1f}% (threshold {arguments.threshold:g}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Adds up the parts of a count into the whole count.

usage: sum_parts.py [FILE ...]     (standard input without FILE)

Reads the JSON lines that the parts of one count printed, each from
`nqueens --json count N --parts K --part-index I` (the Kubernetes Job
deploy/jobs/count-parts runs one per pod), in any order, and prints their
total as `nqueens --json count N` prints a count: solutions, nodes and
fundamental added up, elapsedSeconds the parts' times added up (the work,
not the wall time). Every part 0 .. K-1 of the same count (same n, same K)
must be there exactly once: otherwise it prints which parts are missing,
repeated or at odds, and exits 1. Lines that are not JSON objects (other
log lines) are skipped; a part's error line ({"error": ...}) is shown on
stderr and skipped, since the part may have run again since. Needs only
Python's standard library.
"""
import json
import sys
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

Part = Dict[str, object]


class Refused(Exception):
    """The lines are not the parts of one count, each there once."""


def ranges(numbers: Iterable[int]) -> str:
    """"0, 3-5, 9": sorted numbers with runs as ranges."""
    spans: List[Tuple[int, int]] = []
    for number in sorted(numbers):
        if spans and number == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], number)
        else:
            spans.append((number, number))
    return ", ".join(str(first) if first == last else f"{first}-{last}"
                     for first, last in spans)


def objects(lines: Iterable[str]) -> Iterator[Tuple[int, Part]]:
    """(line number, object) for each line that is a JSON object."""
    for number, line in enumerate(lines, start=1):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield number, value


def whole(value: object, name: str, number: int) -> int:
    """A JSON count, which protobuf's JSON writes as a string: "92"."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Refused(f"line {number}: {name} is not a whole number: {value!r}")
    try:
        parsed = int(value)
    except ValueError:
        raise Refused(f"line {number}: {name} is not a whole number: {value!r}") from None
    if parsed < 0:
        raise Refused(f"line {number}: {name} is negative: {parsed}")
    return parsed


def parts_of(lines: Iterable[str]) -> Tuple[int, Dict[int, List[Tuple[int, Part]]]]:
    """The part count, and each part index's lines (line number, object)."""
    part_count: Optional[int] = None
    found: Dict[int, List[Tuple[int, Part]]] = {}
    for number, line in objects(lines):
        if "error" in line:
            print(f"sum_parts.py: skipped line {number}, an error: {json.dumps(line['error'])}",
                  file=sys.stderr)
            continue
        if "part_index" not in line or "part_count" not in line:
            raise Refused(f"line {number} is not a part (no part_index and part_count): "
                          f"{json.dumps(line)}")
        count = whole(line["part_count"], "part_count", number)
        index = whole(line["part_index"], "part_index", number)
        if part_count is None:
            part_count = count
        elif count != part_count:
            raise Refused(f"line {number} is a part of {count} parts, the lines before of "
                          f"{part_count}: the parts of another count")
        if index >= count:
            raise Refused(f"line {number}: part_index {index} is not below part_count {count}")
        found.setdefault(index, []).append((number, line))
    if part_count is None:
        raise Refused("no part in the input")
    return part_count, found


def check_complete(part_count: int, found: Dict[int, List[Tuple[int, Part]]]) -> None:
    problems = []
    missing = [index for index in range(part_count) if index not in found]
    if missing:
        problems.append(f"{len(missing)} of the {part_count} parts missing: {ranges(missing)}")
    repeated = {index: lines for index, lines in found.items() if len(lines) > 1}
    for index, lines in sorted(repeated.items()):
        where = ", ".join(str(number) for number, _ in lines)
        problems.append(f"part {index} is there {len(lines)} times (lines {where})")
    if problems:
        raise Refused("; ".join(problems))


def total(part_count: int, found: Dict[int, List[Tuple[int, Part]]]) -> Dict[str, object]:
    """The count of the whole, in the key order of `nqueens --json count`."""
    parts = [found[index][0] for index in range(part_count)]
    ns = {whole(line.get("n"), "n", number) for number, line in parts}
    if len(ns) != 1:
        raise Refused(f"the parts count boards of different sizes: n = {ranges(ns)}")
    result: Dict[str, object] = {"n": str(ns.pop())}
    for name in ("solutions", "nodes"):
        result[name] = str(sum(whole(line.get(name), name, number) for number, line in parts))
    result["elapsedSeconds"] = sum(float(line.get("elapsedSeconds", 0)) for _, line in parts)
    with_fundamental = [(number, line) for number, line in parts if "fundamental" in line]
    if with_fundamental and len(with_fundamental) != len(parts):
        raise Refused("some parts count fundamental solutions and some do not")
    if with_fundamental:
        result["fundamental"] = str(sum(whole(line["fundamental"], "fundamental", number)
                                        for number, line in parts))
    return result


def main(paths: List[str]) -> int:
    if any(path in ("-h", "--help") for path in paths):
        print(__doc__.strip())
        return 0
    lines: List[str] = []
    for path in paths or ["-"]:
        if path == "-":
            lines.extend(sys.stdin)
        else:
            with open(path) as file:
                lines.extend(file)
    try:
        part_count, found = parts_of(lines)
        check_complete(part_count, found)
        print(json.dumps(total(part_count, found), separators=(",", ":")))
    except Refused as refused:
        print(f"sum_parts.py: refused: {refused}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

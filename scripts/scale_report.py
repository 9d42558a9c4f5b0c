#!/usr/bin/python3
"""Renders the scale benchmark's CSV (from nqueens-scale, collected by
scripts/bench-scale.sh) as docs/scale.md and the time-per-row plot
docs/time-per-row.svg. Standard library only; the SVG is written by hand so
that it is small, deterministic and needs no plotting package.

    scripts/scale_report.py --csv build-bench/scale.csv \
        --markdown docs/scale.md --svg docs/time-per-row.svg \
        [--compare build-bench/compare.csv --call-cost build-bench/call_cost.txt \
         --baseline-rev 0f6ea3e --compare-rounds 5 --command "scripts/bench-scale.sh"]

--compare adds the section on this code against an older main: compare.csv
holds nqueens-scale's lines with "build,threads," in front (build old or
new), --call-cost nqueens-call-cost's output.
"""

import argparse
import csv
import datetime
import math
import os
import platform
import statistics
import subprocess

# Grigoryan (2019), Table 2: mean completion time in seconds, one core.
PAPER_MEAN_S = {
    1_000: 0.062157,
    10_000: 0.321003,
    100_000: 2.253118,
    1_000_000: 11.376632,
    10_000_000: 61.444001,
    100_000_000: 508.435730,
}

# The project's scaling targets, in seconds (medians, one core).
COMPLETE_TARGET_S = {1_000: 0.0003, 1_000_000: 0.025, 10_000_000: 0.4, 100_000_000: 5}
END_TO_END_TARGET_S = {1_000: 0.002, 1_000_000: 0.15, 10_000_000: 1.5, 100_000_000: 15}
AT_1E8_TARGET_S = {"validate": 0.5, "solve": 0.3}
IN_PROCESS_BYTES_PER_ROW = 16
SERVER_BYTES_PER_ROW = 24
MEMORY_SIZES = (10_000_000, 100_000_000)


def read_rows(path):
    """{(mode, n): row} with numbers parsed."""
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            n = int(row["n"])
            row["n"] = n
            row["runs"] = int(row["runs"])
            for key in ("median_s", "min_s", "max_s", "median_us_per_row",
                        "peak_bytes_per_row", "cli_peak_bytes_per_row",
                        "start_s", "grpc_start_s", "call_s"):
                row[key] = float(row[key]) if row.get(key) else None
            rows[(row["mode"], n)] = row
    return rows


def power_of_ten(n):
    """10^8, 2*10^9, or the number itself."""
    exponent = math.floor(math.log10(n))
    digit, rest = divmod(n, 10**exponent)
    if rest:
        return f"{n:,}"
    return f"10^{exponent}" if digit == 1 else f"{digit}*10^{exponent}"


def seconds(value):
    if value is None:
        return "-"
    if value < 1e-3:
        return f"{value * 1e6:.0f} us"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


def verdict(measured, target, lower_is_met=True):
    if measured is None or target is None:
        return ""
    return "met" if (measured <= target) == lower_is_met else "**missed**"


def with_verdict(measured, target):
    """'12 ms (met)' for a median against its target."""
    text = seconds(measured)
    mark = verdict(measured, target)
    return f"{text} ({mark})" if mark else text


def spread(row):
    return f"{seconds(row['min_s'])} .. {seconds(row['max_s'])}"


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        total_kb = int(f.readline().split()[1])
    compiler = subprocess.run(["c++", "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    return {
        "model": model,
        "nproc": len(os.sched_getaffinity(0)),
        "memory": f"{total_kb / 2**20:.1f} GiB",
        "kernel": platform.release(),
        "compiler": compiler,
    }


def git_revision(repo):
    """The commit, with "+ local changes" when tracked files differ from it."""
    def git(*args):
        return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    commit = git("rev-parse", "--short", "HEAD").stdout.strip() or "unknown"
    changed = git("diff-index", "--quiet", "HEAD", "--").returncode != 0
    return f"`{commit}` + local changes" if changed else f"`{commit}`"


def target_checks(rows):
    """(what, measured, target, met) for every scaling target measured."""
    checks = []

    def check(mode, n, what, key, target, show):
        row = rows.get((mode, n))
        if row is not None and row[key] is not None:
            checks.append((f"{what} at n = {power_of_ten(n)}", show(row[key]), show(target),
                           row[key] <= target))

    def per_row(value):
        return f"{value:.1f} bytes/row"

    for n, target in COMPLETE_TARGET_S.items():
        check("complete", n, "in-process Complete", "median_s", target, seconds)
    for mode, what in (("grpc", "gRPC Complete"), ("e2e", "CLI complete")):
        for n, target in END_TO_END_TARGET_S.items():
            check(mode, n, what, "median_s", target, seconds)
    for mode, target in AT_1E8_TARGET_S.items():
        check(mode, 100_000_000, mode.capitalize(), "median_s", target, seconds)
    for n in MEMORY_SIZES:
        check("complete", n, "in-process Complete peak memory", "peak_bytes_per_row",
              IN_PROCESS_BYTES_PER_ROW, per_row)
        for mode, what in (("grpc", "gRPC"), ("e2e", "CLI")):
            check(mode, n, f"server peak memory ({what})", "peak_bytes_per_row",
                  SERVER_BYTES_PER_ROW, per_row)
    return checks


def summary(rows):
    checks = target_checks(rows)
    missed = [c for c in checks if not c[3]]
    lines = [f"{len(checks) - len(missed)} of {len(checks)} of the project's scaling targets met."]
    if missed:
        lines += ["", "Missed:", ""]
        for what, measured, target, _ in missed:
            line = f"- {what}: {measured} (target {target})"
            floor = floor_under(what, rows)
            if floor is not None:
                line += (f"; a minimal gRPC client process alone takes {seconds(floor)} "
                         "on this machine (see [the floor under the CLI](#the-floor-under-the-cli))")
            lines.append(line)
    return lines


def floor_under(what, rows):
    """The floor client's median at the n of a missed CLI target, if measured."""
    for (mode, n), row in rows.items():
        if mode == "floor" and what == f"CLI complete at n = {power_of_ten(n)}":
            return row["median_s"]
    return None


def completion_table(rows):
    lines = [
        "| n | paper mean | in-process median | min .. max | target | "
        "gRPC median | CLI median | end-to-end target | speed-up over the paper |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for n in sorted(n for (mode, n) in rows if mode == "complete"):
        row = rows[("complete", n)]
        grpc = rows.get(("grpc", n))
        cli = rows.get(("e2e", n))
        e2e_target = END_TO_END_TARGET_S.get(n)
        paper = PAPER_MEAN_S.get(n)
        speed_up = f"{paper / row['median_s']:,.0f}x" if paper else "-"
        lines.append(
            f"| {power_of_ten(n)} | {seconds(paper)} "
            f"| {with_verdict(row['median_s'], COMPLETE_TARGET_S.get(n))} | {spread(row)} "
            f"| {seconds(COMPLETE_TARGET_S.get(n))} "
            f"| {with_verdict(grpc['median_s'], e2e_target) if grpc else '-'} "
            f"| {with_verdict(cli['median_s'], e2e_target) if cli else '-'} "
            f"| {seconds(e2e_target)} "
            f"| {speed_up} |")
    return lines


def end_to_end_table(rows):
    lines = ["| path | n | runs | median | min .. max | time per row |",
             "|---|---|---|---|---|---|"]
    for mode, name in (("grpc", "gRPC, client library"), ("e2e", "CLI, files")):
        for n in sorted(n for (m, n) in rows if m == mode):
            row = rows[(mode, n)]
            lines.append(f"| {name} | {power_of_ten(n)} | {row['runs']} | "
                         f"{seconds(row['median_s'])} | {spread(row)} | "
                         f"{row['median_us_per_row']:.4g} us |")
    return lines


def floor_section(rows):
    sizes = sorted(n for (mode, n) in rows if mode == "floor")
    if not sizes:
        return []
    lines = [
        "## The floor under the CLI",
        "",
        "What any client process costs on this machine, measured in the same run "
        "(`--mode=floor`): `nqueens-client-floor` (`bench/client_floor.cc`) is "
        "linked like the CLI and does the least a client can: start, make a "
        "channel, send one unary `Solve(n)` to the same server, exit. No flags, "
        "files or checks. Its phases come from the times it prints; exit is the "
        "rest, until the benchmark has reaped it.",
        "",
        "| n | runs | median | min .. max | spawn to main() | gRPC start "
        "| connect and call | exit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in sizes:
        row = rows[("floor", n)]
        phases = (row["start_s"], row["grpc_start_s"], row["call_s"])
        exit_s = row["median_s"] - sum(phases)
        lines.append(f"| {power_of_ten(n)} | {row['runs']} | {seconds(row['median_s'])} "
                     f"| {spread(row)} | "
                     + " | ".join(seconds(p) for p in (*phases, exit_s)) + " |")
    lines.append("")
    for n in sizes:
        cli = rows.get(("e2e", n))
        if cli is None:
            continue
        extra = cli["median_s"] - rows[("floor", n)]["median_s"]
        lines.append(
            f"At n = {power_of_ten(n)} the CLI's `complete` took {seconds(cli['median_s'])}: "
            f"{seconds(extra)} over this floor, for its flags, its two files and "
            "the completion itself.")
    return lines + [""]


def validate_solve_table(rows):
    lines = ["| call | n | runs | median | min .. max | target |",
             "|---|---|---|---|---|---|"]
    for mode, name in (("validate", "Validate"), ("solve", "Solve (constructive)")):
        for n in sorted(n for (m, n) in rows if m == mode):
            row = rows[(mode, n)]
            target = AT_1E8_TARGET_S[mode] if n == 100_000_000 else None
            lines.append(f"| {name} | {power_of_ten(n)} | {row['runs']} | "
                         f"{with_verdict(row['median_s'], target)} | {spread(row)} | "
                         f"{seconds(target)} |")
    return lines


def bytes_per_row(value, target=None):
    if value is None:
        return "-"
    mark = verdict(value, target)
    return f"{value:.1f}" + (f" ({mark})" if mark else "")


def memory_table(rows):
    lines = [
        "| n | in-process Complete | Validate | Solve | server, one request (gRPC) "
        "| server, one request (CLI) | CLI process |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in MEMORY_SIZES:
        if ("complete", n) not in rows:
            continue

        def peak(mode, key="peak_bytes_per_row", target=None):
            row = rows.get((mode, n))
            return bytes_per_row(row[key] if row else None, target)

        lines.append(
            f"| {power_of_ten(n)} | {peak('complete', target=IN_PROCESS_BYTES_PER_ROW)} "
            f"| {peak('validate', target=IN_PROCESS_BYTES_PER_ROW)} "
            f"| {peak('solve', target=IN_PROCESS_BYTES_PER_ROW)} "
            f"| {peak('grpc', target=SERVER_BYTES_PER_ROW)} "
            f"| {peak('e2e', target=SERVER_BYTES_PER_ROW)} "
            f"| {peak('e2e', key='cli_peak_bytes_per_row')} |")
    return lines


def time_per_row_table(rows):
    lines = ["| n | in-process Complete | gRPC | CLI | paper |",
             "|---|---|---|---|---|"]
    for n in sorted(n for (mode, n) in rows if mode == "complete"):
        def per_row(mode):
            row = rows.get((mode, n))
            return f"{row['median_us_per_row']:.4g}" if row else "-"
        paper = PAPER_MEAN_S.get(n)
        lines.append(f"| {power_of_ten(n)} | {per_row('complete')} | {per_row('grpc')} "
                     f"| {per_row('e2e')} | {f'{paper * 1e6 / n:.4g}' if paper else '-'} |")
    return lines


def growth(rows):
    """How the in-process median grows from 10^6 to the largest n: t ~ n^a."""
    sizes = sorted(n for (mode, n) in rows if mode == "complete" and n >= 1_000_000)
    if len(sizes) < 2:
        return []
    low, high = rows[("complete", sizes[0])], rows[("complete", sizes[-1])]
    exponent = math.log(high["median_s"] / low["median_s"]) / math.log(sizes[-1] / sizes[0])
    return [f"From n = {power_of_ten(sizes[0])} to {power_of_ten(sizes[-1])} the in-process "
            f"median grows as n^{exponent:.2f} (1.00 is linear).", ""]


def commands(rows):
    return [f"nqueens-scale --mode={mode} --n={n} --runs={row['runs']}"
            for (mode, n), row in rows.items()]


# The stop-latency section: measured by a separate program
# (bench/stop_latency.cc) and kept in its own file, which says how; copied
# into the report as it is.
STOPPING_SECTION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scale_stopping.md")


def stopping_section():
    if not os.path.exists(STOPPING_SECTION):
        return []
    with open(STOPPING_SECTION) as f:
        return [*f.read().rstrip("\n").split("\n"), ""]


def markdown(rows, info, revision, comparison=()):
    """The report; `comparison` is the section on this code against an older
    main (compare_section), put right after the summary."""
    today = datetime.date.today().isoformat()
    return "\n".join([
        "# Scaling from n = 10^3 to 10^8",
        "",
        "<!-- Generated by scripts/bench-scale.sh (scripts/scale_report.py); "
        "edit those, not this file. -->",
        "",
        f"Measured on {today} at commit {revision} with `scripts/bench-scale.sh`. "
        "Every time is the **median** over repeated runs, each run "
        "on a new input; min .. max shows the spread; memory is the largest peak "
        "over the runs. The machine is shared with other work and noisy, so "
        "single runs vary by tens of per cent; treat small differences as noise.",
        "",
        *summary(rows),
        "",
        *comparison,
        "## Machine",
        "",
        f"- CPU: {info['model']}, `nproc` = {info['nproc']}; a completion runs on one "
        "core, as in the paper, except where a table says 2 threads (block 1 then pairs "
        "on both)",
        f"- Memory: {info['memory']}",
        f"- Linux {info['kernel']}; {info['compiler']}; CMake Release build (-O3)",
        "",
        "## What is measured",
        "",
        "`bench/scale.cc` (binary `nqueens-scale`) measures one mode at one n per "
        "process and prints one CSV line. Inputs follow the paper (section 7): one "
        "random solution (`nqueens::Solve(n, kRandom)`, validated), and for every "
        "run a composition of uniformly random size k in [0, n) taken from it. "
        "Every result is checked with `nqueens::Validate` and against its input "
        "outside the timed part; a wrong answer aborts the benchmark.",
        "",
        "- **in-process** (`--mode=complete`): the `nqueens::Complete` call alone.",
        "- **gRPC** (`--mode=grpc`): the service's latency. The CLI's client "
        "library in the benchmark process calls a real `nqueens-server` on "
        "127.0.0.1 over one channel connected in advance; timed from the board in "
        "memory to the result in memory (sparse or dense encoding and streaming "
        "as the client chooses them, the server's checks and `Complete`, the "
        "answer streamed back).",
        "- **CLI** (`--mode=e2e`): the user's path. The `nqueens` CLI is spawned "
        "with `complete` on an input file in the binary format written in "
        "advance, talks to the same server, and writes the solution to a file; "
        "timed from spawning the CLI to its exit. This includes a fixed cost "
        "that dominates at small n: starting a process, gRPC and a connection "
        "(see the floor below).",
        "- **floor** (`--mode=floor`): that fixed cost alone, in a minimal "
        "client process; see [the floor under the CLI](#the-floor-under-the-cli).",
        "- **Validate** and **Solve** (`--mode=validate`, `--mode=solve`): "
        "`nqueens::Validate` on a constructive solution and "
        "`nqueens::Solve(n, kConstructive)`.",
        "",
        "Memory is the peak resident set size (VmHWM), per row. In-process: of "
        "the benchmark process during the timed call (the peak is reset through "
        "`/proc/self/clear_refs` after the input is made), including the input "
        "board and the result but not the copy of the solution the benchmark "
        "keeps to draw inputs from. Server: of the whole `nqueens-server` "
        "process while it serves one request (reset before each request). CLI: "
        "the CLI process's own peak (`ru_maxrss`). All include the program's "
        "fixed baseline of a few MB, which is why only n >= 10^7 is reported.",
        "",
        "## Completion time",
        "",
        *completion_table(rows),
        "",
        "The end-to-end target applies to both the gRPC and the CLI path; "
        "speed-up is the paper's mean over our in-process median (the paper "
        "reports means of different inputs on its own machine, so this is "
        "indicative only).",
        "",
        *end_to_end_table(rows),
        "",
        *floor_section(rows),
        "## Validate and Solve",
        "",
        *validate_solve_table(rows),
        "",
        "## Peak memory (bytes per row)",
        "",
        f"Targets: at most {IN_PROCESS_BYTES_PER_ROW} bytes per row in-process and "
        f"{SERVER_BYTES_PER_ROW} in the server for one request.",
        "",
        *memory_table(rows),
        "",
        "## Time per row",
        "",
        "Median time per row (microseconds) as n grows, like the paper's Fig. 8; "
        "a linear algorithm gives a flat line, and fixed costs make small n "
        "more expensive per row.",
        "",
        "![Median completion time per row against n](time-per-row.svg)",
        "",
        *growth(rows),
        *time_per_row_table(rows),
        "",
        *stopping_section(),
        "## Reproducing",
        "",
        "```sh",
        "scripts/bench-scale.sh                 # builds build-bench/ (Release), "
        "runs everything, rewrites this file and the plot",
        "scripts/bench-scale.sh --max-n 1000000 # the matrix only up to 10^6",
        "scripts/bench-scale.sh --baseline none # no comparison with an older main",
        "scripts/bench-scale.sh --quick         # a check of the script, in minutes",
        "```",
        "",
        "The runs it made (binaries in `build-bench/`; `e2e`, `grpc` and `floor` "
        "also take `--server_binary`, `--cli_binary` and `--floor_binary`). The inputs come from `--seed` "
        "(default 1), so every run of the script uses the same seeds:",
        "",
        "```sh",
        *commands(rows),
        "```",
        "",
    ])


# --- This code against an older main (--compare, --call-cost). ---

# The scale targets of the comparison.
COMPLETE_SPEED_UP = {1: 1.3, 2: 2.0}  # old over new, at n = 10^8
RANDOM_SPEED_UP = 2.0                 # old over new, the better thread count, at 10^9
RANDOM_BYTES_PER_ROW = 8              # peak, at 10^9
GRPC_OVER_IN_PROCESS = 1.2            # a streamed Complete over the same Complete in-process
SMALL_CALL_OVER_CHECK = 1.2           # a small call's cost over gRPC's health Check
TARGET_SIZES = {"complete": 100_000_000, "random": 1_000_000_000}  # where they apply
# nqueens-call-cost's names for its servers.
CALL_COST_SERVERS = {"nqueens-server (--server_binary)": "new",
                     "nqueens-server (--compare_binary)": "old",
                     "floor (--serve_floor)": "floor"}


def read_compare(path):
    """{(build, threads, mode, n): group} of nqueens-scale lines, build old or new.

    A group's median is over its lines' medians (each line is one process,
    one run in the rounds); min, max and the peak are over all of its runs.
    """
    lines = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["build"], int(row["threads"]), row["mode"], int(row["n"]))
            lines.setdefault(key, []).append(row)
    groups = {}
    for key, rows in lines.items():
        def numbers(column):
            return [float(r[column]) for r in rows if r.get(column)]
        phases = {column: statistics.median(numbers(column))
                  for column in ("start_s", "grpc_start_s", "call_s") if numbers(column)}
        groups[key] = {
            "processes": len(rows),
            "runs": sum(int(r["runs"]) for r in rows),
            "median_s": statistics.median(numbers("median_s")),
            "min_s": min(numbers("min_s")),
            "max_s": max(numbers("max_s")),
            "peak_bytes_per_row": max(numbers("peak_bytes_per_row")),
            **phases,
        }
    return groups


def read_call_cost(path):
    """(the line that says how it was measured, its table's lines, {(server, method): row})."""
    with open(path) as f:
        text = f.read().splitlines()
    setup = next((line for line in text if line and not line.startswith("|")), "")
    table = [line for line in text if line.startswith("|")]
    rows = {}
    for line in table[2:]:
        server, method, rate, spread_, ratio, p50, cpu = (
            cell.strip() for cell in line.strip("|").split("|"))
        rows[(CALL_COST_SERVERS.get(server, server), method)] = {
            "rate": float(rate), "spread": spread_, "ratio": float(ratio), "p50": p50, "cpu": cpu}
    return setup, table, rows


def ratio(numerator, denominator):
    return f"{numerator / denominator:.2f}x"


def met(condition):
    return "met" if condition else "**missed**"


def timing(group):
    if group is None:
        return "-"
    runs = f"{group['runs']} run" + ("s" if group["runs"] > 1 else "")
    return (f"{seconds(group['median_s'])} "
            f"({seconds(group['min_s'])} .. {seconds(group['max_s'])}, {runs})")


def sizes_of(groups, mode, build=None):
    return sorted({n for (b, _, m, n) in groups if m == mode and build in (None, b)})


def complete_row(groups, n):
    old, new1, new2 = (groups.get(k) for k in (("old", 1, "complete", n), ("new", 1, "complete", n),
                                                ("new", 2, "complete", n)))
    ratios = [ratio(old["median_s"], new["median_s"]) if old and new else "-"
              for new in (new1, new2)]
    verdicts = [met(old["median_s"] / new["median_s"] >= COMPLETE_SPEED_UP[t])
                for t, new in ((1, new1), (2, new2)) if old and new]
    target = (f">= {COMPLETE_SPEED_UP[1]}x faster on 1 thread, "
              f">= {COMPLETE_SPEED_UP[2]:.0f}x on 2")
    return (f"| in-process Complete, n = {power_of_ten(n)} | {timing(old)} | {timing(new1)} "
            f"| {timing(new2)} | {ratios[0]} | {ratios[1]} | {target} "
            f"| {' / '.join(verdicts) or '-'} |")


def random_rows(groups, n):
    old, new1, new2 = (groups.get(k) for k in (("old", 1, "random", n), ("new", 1, "random", n),
                                                ("new", 2, "random", n)))
    news = [new for new in (new1, new2) if new]
    ratios = [ratio(old["median_s"], new["median_s"]) if old and new else "-"
              for new in (new1, new2)]
    best = max((old["median_s"] / new["median_s"] for new in news), default=None) if old else None
    speed = (f"| Solve(kRandom), n = {power_of_ten(n)} | {timing(old)} | {timing(new1)} "
             f"| {timing(new2)} | {ratios[0]} | {ratios[1]} "
             f"| >= {RANDOM_SPEED_UP:.0f}x faster (the better thread count) "
             f"| {met(best >= RANDOM_SPEED_UP) if best else '-'} |")

    def peak(group):
        return f"{group['peak_bytes_per_row']:.1f} B/row" if group else "-"
    worst = max((new["peak_bytes_per_row"] for new in news), default=None)
    memory = (f"| peak memory, Solve(kRandom), n = {power_of_ten(n)} | {peak(old)} | {peak(new1)} "
              f"| {peak(new2)} | - | - | <= {RANDOM_BYTES_PER_ROW} bytes per row "
              f"| {met(worst <= RANDOM_BYTES_PER_ROW) if worst else '-'} |")
    return [speed, memory]


def huge_row(groups, n):
    cells = []
    for threads in (1, 2):
        group = groups.get(("new", threads, "random", n))
        cells.append(f"{timing(group)}, {group['peak_bytes_per_row']:.1f} B/row" if group else "-")
    return (f"| Solve(kRandom), n = {power_of_ten(n)} (time, peak) | - | {cells[0]} | {cells[1]} "
            f"| - | - | runs on this machine | met |")


def target_table(groups):
    big = [n for n in sizes_of(groups, "random") if ("new", 1, "random", n) in groups]
    huge = [n for n in sizes_of(groups, "random") if n not in big]
    lines = [
        "| measure | old main: median (min .. max) | new, 1 thread | new, 2 threads "
        "| old/new, 1 thread | old/new, 2 threads | target | met? |",
        "|---|---|---|---|---|---|---|---|",
        *(complete_row(groups, n) for n in sizes_of(groups, "complete")),
    ]
    for n in big:
        lines += random_rows(groups, n)
    lines += [huge_row(groups, n) for n in huge]
    return lines


def grpc_table(groups):
    lines = ["| build | n | gRPC streaming Complete | in-process Complete, same threads "
             "| gRPC / in-process | target | met? |",
             "|---|---|---|---|---|---|---|"]
    for (build, threads, mode, n), grpc in sorted(groups.items()):
        in_process = groups.get((build, threads, "complete", n))
        if mode != "grpc" or in_process is None:
            continue
        over = grpc["median_s"] / in_process["median_s"]
        label = "old main" if build == "old" else "new"
        on = f"{threads} thread" + ("s" if threads > 1 else "")
        lines.append(f"| {label} | {power_of_ten(n)} | {timing(grpc)} "
                     f"| {timing(in_process)} on {on} | {over:.2f}x "
                     f"| <= {GRPC_OVER_IN_PROCESS}x "
                     f"| {met(over <= GRPC_OVER_IN_PROCESS) if build == 'new' else '-'} |")
    return lines


def small_calls_section(call_cost, baseline):
    if call_cost is None:
        return []
    setup, table, rows = call_cost
    methods = [m for (server, m) in rows if server == "new" and m != "health Check"]

    def cost(server, method):
        row = rows.get((server, method))
        return f"{row['ratio']:.2f}" if row else "-"
    lines = [
        "Small calls (`nqueens-call-cost`, " + setup.rstrip(".") + "): each method's cost "
        "over gRPC's health Check on the same server in the same round (Check's calls/s over "
        "the method's; 1.00 is as cheap as Check). The floor is a bare callback server "
        "running the core at once, below which no change to our calls can go.",
        "",
        "| method | new | old main | floor server | target | met? |",
        "|---|---|---|---|---|---|",
    ]
    for method in methods:
        new = rows[("new", method)]["ratio"]
        lines.append(f"| {method} | {cost('new', method)} | {cost('old', method)} "
                     f"| {cost('floor', method)} | <= {SMALL_CALL_OVER_CHECK} "
                     f"| {met(new <= SMALL_CALL_OVER_CHECK)} |")
    names = {"(--server_binary)": "(new)", "(--compare_binary)": f"(main at `{baseline}`)",
             "(--serve_floor)": "(bare callback server)"}
    verbatim = []
    for line in table:
        for flag, name in names.items():
            line = line.replace(flag, name)
        verbatim.append(line)
    return [*lines, "", "Its table:", "", *verbatim]


def gigabytes_per_second(n, value):
    return f"{4 * n / value / 1e9:.1f}" if value else "-"


def floors_table(groups, call_cost):
    lines = ["| floor | n | median | min .. max | GB/s (4 bytes a row) |",
             "|---|---|---|---|---|"]
    for n in sizes_of(groups, "bandwidth"):
        group = groups[("new", 1, "bandwidth", n)]
        phases = (("make (fresh pages)", "start_s", f"{seconds(group['min_s'])} .. "
                   f"{seconds(group['max_s'])}"),
                  ("write it again", "grpc_start_s", "-"), ("read it", "call_s", "-"))
        for name, column, spread_ in phases:
            lines.append(f"| memory: {name} | {power_of_ten(n)} | {seconds(group.get(column))} "
                         f"| {spread_} | {gigabytes_per_second(n, group.get(column))} |")
    for n in sizes_of(groups, "solve"):
        group = groups[("new", 1, "solve", n)]
        lines.append(f"| explicit construction, Solve(kConstructive) | {power_of_ten(n)} "
                     f"| {seconds(group['median_s'])} | {seconds(group['min_s'])} .. "
                     f"{seconds(group['max_s'])} | {gigabytes_per_second(n, group['median_s'])} |")
    if call_cost is not None:
        rows = call_cost[2]
        for server, name in (("new", "this code's server"), ("floor", "the bare callback server")):
            row = rows.get((server, "health Check"))
            if row:
                lines.append(f"| gRPC health Check on {name}, calls/s | - | {row['rate']:.0f} "
                             f"| {row['spread']} | - |")
    return lines


def compare_commands(groups, baseline, command):
    lines = [command, "", "# which ran, in rounds (the round's number as --seed):"]
    def order(key):  # old first, then by mode, size and threads
        build, threads, mode, n = key
        return build != "old", mode, n, threads
    for (build, threads, mode, n) in sorted(groups, key=order):
        group = groups[(build, threads, mode, n)]
        binary = (f"<main at {baseline}>/bench/nqueens-scale" if build == "old"
                  else "build-bench/bench/nqueens-scale")
        runs = group["runs"] // group["processes"]
        flags = f" --threads={threads}" if mode in ("complete", "random") else ""
        server = " --server_binary=<its build>/server/nqueens-server" if mode == "grpc" else ""
        lines.append(f"{binary} --mode={mode} --n={n} --runs={runs}{flags}{server}"
                     f"   # x{group['processes']}")
    lines.append("build-bench/bench/nqueens-call-cost "
                 "--server_binary=build-bench/server/nqueens-server"
                 + (f" --compare_binary=<main at {baseline}>/server/nqueens-server"
                    if baseline != "none" else ""))
    return lines


def compare_intro(baseline, revision, rounds):
    today = datetime.date.today().isoformat()
    counts = (f"{rounds} round(s) of Complete, {min(rounds, 2)} of Solve(kRandom) and "
              f"{min(rounds, 3)} of gRPC (whose in-process runs join Complete's when on as "
              "many threads)")
    if baseline == "none":
        return (f"Measured on {today} on this machine at commit {revision}, each figure one "
                f"`nqueens-scale` process of one run, in rounds: {counts}. A cell is the "
                "median over its runs (min .. max, how many runs).")
    return (f"Measured on {today} on this machine: this code (\"new\", commit {revision}) and "
            f"main at `{baseline}` (\"old\"), built from that commit with this commit's "
            "`bench/`, so that the same benchmark program measures both cores and servers. "
            "Every figure is one `nqueens-scale` process of one run; old and new were "
            "**interleaved**, one process each in turn in every round, the round's number as "
            f"the seed, so that both meet the same machine and complete the same inputs: {counts}. "
            "A cell is the median over its runs (min .. max, how many runs); a ratio is old "
            "median over new median (above 1: new is faster).")


def compare_section(groups, call_cost, baseline, revision, command, rounds):
    """The section on this code against main at `baseline` ("none": this code
    alone), from compare.csv's groups and nqueens-call-cost's output."""
    if groups is None:
        return []
    off_target = any(n != TARGET_SIZES["complete"] for (_, _, mode, n) in groups
                     if mode == "complete")
    title = (f"## This code against main at `{baseline}`" if baseline != "none"
             else "## This code and the scale targets")
    lines = [title, "", compare_intro(baseline, revision, rounds), ""]
    if off_target:
        lines += ["**Quick check**: the sizes are not those at which the scale targets "
                  "apply (10^8 and 10^9), so the verdicts below are indicative only.", ""]
    lines += [*target_table(groups), "",
              "gRPC: a streamed Complete through each build's own server, and in the same "
              "rounds that build's in-process Complete on the threads the server gives one "
              "call (all its workers but one, one worker per CPU):", "",
              *grpc_table(groups), "",
              *small_calls_section(call_cost, baseline), "",
              "### Floors", "",
              "What no change to the core can beat on this machine, measured in the same "
              "session on the new build: making a board of n rows (`nqueens::MakeEmptyBoard`: "
              "fresh pages, so the VM's first touch is in it; hence its min .. max), writing "
              "it again and reading it (`--mode=bandwidth`); the explicit construction "
              "(`--mode=solve`); and gRPC's health Check through the same server "
              "(`nqueens-call-cost`).", "",
              *floors_table(groups, call_cost), "",
              "Produced by:", "", "```sh", *compare_commands(groups, baseline, command), "```",
              ""]
    return lines


# --- The plot. ---

WIDTH, HEIGHT = 720, 440
LEFT, RIGHT, TOP, BOTTOM = 70, 230, 40, 60
SERIES = (  # (label, colour, marker), drawn in this order
    ("CLI (files, process start)", "#d62728", "triangle"),
    ("gRPC (warm channel)", "#ff7f0e", "square"),
    ("in-process Complete", "#1f77b4", "circle"),
    ("paper (mean)", "#7f7f7f", "diamond"),
)


def plot_series(rows):
    def from_mode(mode):
        return {n: row["median_us_per_row"] for (m, n), row in rows.items() if m == mode}
    complete_sizes = {n for (mode, n) in rows if mode == "complete"}
    paper = {n: mean * 1e6 / n for n, mean in PAPER_MEAN_S.items() if n in complete_sizes}
    points = [from_mode("e2e"), from_mode("grpc"), from_mode("complete"), paper]
    return [(label, colour, marker, p) for (label, colour, marker), p in zip(SERIES, points) if p]


def marker_svg(kind, x, y, colour):
    r = 4.5
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if kind == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" '
                f'fill="{colour}"/>')
    if kind == "triangle":
        shape = [(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)]
    else:
        shape = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in shape)
    return f'<polygon points="{points}" fill="{colour}"/>'


def decade_label(exponent):
    return f'10<tspan dy="-6" font-size="10">{exponent}</tspan>'


def svg(rows):
    series = plot_series(rows)
    xs = [n for _, _, _, points in series for n in points]
    ys = [v for _, _, _, points in series for v in points.values() if v > 0]
    x_lo, x_hi = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    y_lo, y_hi = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    x_hi, y_hi = max(x_hi, x_lo + 1), max(y_hi, y_lo + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(n):
        return LEFT + (math.log10(n) - x_lo) / (x_hi - x_lo) * plot_w

    def py(v):
        return TOP + (y_hi - math.log10(v)) / (y_hi - y_lo) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{LEFT + plot_w / 2}" y="22" text-anchor="middle" font-size="14">'
        "Median completion time per row</text>",
    ]
    for e in range(x_lo, x_hi + 1):
        x = px(10**e)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                   'stroke="#e0e0e0"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 20}" text-anchor="middle">'
                   f"{decade_label(e)}</text>")
    for e in range(y_lo, y_hi + 1):
        y = py(10**e)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
                   'stroke="#e0e0e0"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">'
                   f"{decade_label(e)}</text>")
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" '
               'fill="none" stroke="black"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 15}" text-anchor="middle">'
               "n (rows)</text>")
    out.append(f'<text transform="translate(22 {TOP + plot_h / 2}) rotate(-90)" '
               'text-anchor="middle">microseconds per row</text>')
    for index, (label, colour, marker, points) in enumerate(series):
        line = " ".join(f"{px(n):.1f},{py(v):.1f}" for n, v in sorted(points.items()))
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                   'stroke-width="2"/>')
        out.extend(marker_svg(marker, px(n), py(v), colour) for n, v in sorted(points.items()))
        legend_y = TOP + 10 + index * 22
        legend_x = LEFT + plot_w + 15
        out.append(f'<line x1="{legend_x}" y1="{legend_y}" x2="{legend_x + 24}" '
                   f'y2="{legend_y}" stroke="{colour}" stroke-width="2"/>')
        out.append(marker_svg(marker, legend_x + 12, legend_y, colour))
        out.append(f'<text x="{legend_x + 32}" y="{legend_y + 4}">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", required=True)
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--svg", required=True)
    parser.add_argument("--compare", help="old and new runs in rounds (compare.csv)")
    parser.add_argument("--call-cost", help="nqueens-call-cost's output")
    parser.add_argument("--baseline-rev", default="none", help="the old main's commit")
    parser.add_argument("--new-rev", help="this code's commit (default: the checkout's)")
    parser.add_argument("--compare-rounds", type=int, default=5,
                        help="the rounds bench-scale.sh ran of Complete")
    parser.add_argument("--command", default="scripts/bench-scale.sh",
                        help="the command that measured it all")
    args = parser.parse_args()
    rows = read_rows(args.csv)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Before the report files are rewritten.
    revision = f"`{args.new_rev}`" if args.new_rev else git_revision(repo)
    groups = read_compare(args.compare) if args.compare else None
    call_cost = read_call_cost(args.call_cost) if args.call_cost else None
    comparison = compare_section(groups, call_cost, args.baseline_rev, revision, args.command,
                                 args.compare_rounds)
    with open(args.markdown, "w") as f:
        f.write(markdown(rows, machine(), revision, comparison))
    with open(args.svg, "w") as f:
        f.write(svg(rows))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Old and new build side by side, interleaved in one run.

    scripts/bench_structure.py --old REV [--rounds 5] [--markdown docs/structure-bench.md]

Builds REV (in a git worktree under /tmp) and the working tree (build-bench/),
both Release, then runs each measurement on each build in turn, the order
swapped every round, so that the machine's drift falls on both:

  engines        nqueens-hard-instances --engine=engines: ns per node of each
                 engine of the exact search, and its nodes (which must match)
  complete 1e8   nqueens-scale --mode=complete --n=100000000: seconds
  count 16       nqueens-count --n=16 --threads=1: seconds on one thread
  mix-16,        nqueens-load --scenarios=mix-16,call-overhead: calls/s
  call-overhead

Reports the median of each over the rounds, new / old (for times, above 1
is slower; for calls/s, below 1 is slower) and each build's range.
"""
import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["nqueens-hard-instances", "nqueens-count", "nqueens-scale", "nqueens-load",
           "nqueens-server"]


def build(source, build_dir):
    env = dict(os.environ, CCACHE_BASEDIR=source, CCACHE_NOHASHDIR="1")
    subprocess.run(["cmake", "-S", source, "-B", build_dir, "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DNQUEENS_BUILD_BENCH=ON",
                    "-DNQUEENS_BUILD_TESTS=OFF", "-DNQUEENS_BUILD_SERVICE=ON"],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "--target", *TARGETS], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def table_rows(text):
    """Markdown table rows as lists of cells, header rows included."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|") and "---" not in line]


def engines(bench, m, instances, cpu):
    pinned = ["taskset", "-c", cpu] if cpu else []
    out = run(pinned + [f"{bench}/nqueens-hard-instances", "--engine=engines",
                        "--family=diagonals", f"--m={m}", f"--instances={instances}"])
    figures = {}
    header = None
    for row in table_rows(out):
        if row[0] == "instances":
            header = row
            continue
        solver = row[header.index("solver")]
        figures[f"{solver}: ns per node"] = float(row[header.index("ns per node")])
        figures[f"{solver}: median nodes"] = float(row[header.index("median exact nodes")])
    return figures


def complete(bench):
    out = run([f"{bench}/nqueens-scale", "--mode=complete", "--n=100000000", "--runs=1"])
    lines = [line for line in out.splitlines() if line.startswith("complete,")]
    return {"Complete 10^8 in-process: s": float(lines[-1].split(",")[3])}


def count(bench):
    out = run([f"{bench}/nqueens-count", "--n=16", "--threads=1", "--long_runs=1"])
    header = None
    for row in table_rows(out):
        if row[0] == "n":
            header = row
        elif row[0] == "16":
            return {"Count 16, one thread: s": float(row[header.index("1 thread, s")])}
    raise RuntimeError("no row for n = 16:\n" + out)


def load(bench, scenarios):
    out = run([f"{bench}/nqueens-load", f"--server_binary={bench}/../server/nqueens-server",
               f"--scenarios={scenarios}"])
    figures = {}
    header = None
    for row in table_rows(out):
        if row[0] == "scenario":
            header = row
        elif row[0] in scenarios.split(","):
            figures[f"{row[0]}: calls/s"] = float(row[header.index("calls/s")])
    return figures


def measure(bench, args):
    figures = {}
    if "engines" in args.measures:
        figures.update(engines(bench, args.m, args.instances, args.engines_cpu))
    if "complete" in args.measures:
        figures.update(complete(bench))
    if "count" in args.measures:
        figures.update(count(bench))
    if "load" in args.measures:
        figures.update(load(bench, args.scenarios))
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--m", default="16", help="Excluded Diagonals size of the engine runs")
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--engines-cpu", default="",
                        help="run the engines (one thread) on this CPU only, for less noise")
    parser.add_argument("--markdown", default="")
    parser.add_argument("--measures", default="engines,complete,count,load",
                        help="which of engines, complete, count, load to run")
    parser.add_argument("--scenarios", default="mix-16,call-overhead",
                        help="the load program's scenarios")
    parser.add_argument("--worktree", default="",
                        help="where the old revision is checked out (default /tmp/nqueens-bench-REV)")
    args = parser.parse_args()

    old_rev = run(["git", "-C", REPO, "rev-parse", "--short", args.old]).strip()
    new_rev = run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]).strip()
    if run(["git", "-C", REPO, "status", "--porcelain", "--", ":!docs"]).strip():
        new_rev += " + local changes"
    worktree = args.worktree or f"/tmp/nqueens-bench-{old_rev}"
    if not os.path.isdir(worktree):
        subprocess.run(["git", "-C", REPO, "worktree", "add", "-f", worktree, old_rev],
                       check=True, stdout=subprocess.DEVNULL)
    build(worktree, f"{worktree}/build-bench")
    build(REPO, f"{REPO}/build-bench")
    benches = {"old": f"{worktree}/build-bench/bench", "new": f"{REPO}/build-bench/bench"}

    samples = {"old": {}, "new": {}}
    for round_index in range(args.rounds):
        order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]
        for which in order:
            for name, value in measure(benches[which], args).items():
                samples[which].setdefault(name, []).append(value)
        print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)

    lines = [
        f"# Old and new build side by side ({datetime.date.today()})",
        "",
        f"Command: `scripts/bench_structure.py --old {args.old} --rounds {args.rounds} "
        f"--m {args.m} --instances {args.instances} --measures {args.measures} "
        f"--scenarios {args.scenarios}"
        + (f" --engines-cpu {args.engines_cpu}" if args.engines_cpu else "")
        + f"`; old = `{old_rev}`, new = `{new_rev}`, "
        f"on {os.cpu_count()} CPUs. Each figure is the median of {args.rounds} rounds; the two "
        "builds take turns in each round, the order swapped every round.",
        "",
        "| measure | old | new | new / old | old, range | new, range |",
        "|---|---|---|---|---|---|",
    ]
    for name in samples["old"]:
        old = statistics.median(samples["old"][name])
        new = statistics.median(samples["new"].get(name, [float("nan")]))
        ratio = new / old if old else float("nan")
        spread = [f"{min(samples[which][name]):.4g} - {max(samples[which][name]):.4g}"
                  for which in ("old", "new")]
        lines.append(f"| {name} | {old:.4g} | {new:.4g} | {ratio:.3f} | {spread[0]} | {spread[1]} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(report)


if __name__ == "__main__":
    main()

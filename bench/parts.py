#!/usr/bin/env python3
"""One job spread over several servers: the benchmark behind docs/parts.md.

    python3 bench/parts.py --build=build-bench --markdown=docs/parts-results.md

Everything runs through the shipped binaries of --build (nqueens-server, the
nqueens CLI, nqueens-hard-instances), servers on 127.0.0.1, each with
--workers=1 and pinned to a core of its own:

 1. Count n = 17 and 18 on one server and on two, with --parts 256, and on
    one server as a single call; the three alternate run by run, so that a
    noisy neighbour hits all of them. Medians, and the speedup of two
    servers over one.
 2. The 256 parts of n = 18 and 19, one call each (--part-index), two at a
    time on the two servers: each part's time as its server measured it,
    their spread, and from them the time of n = 21 .. 23 on 10 and 100
    servers (each part's time grown by the measured factor per n, the parts
    handed out in order to whichever server is free).
 3. Excluded Diagonals m = 28 and 30, the instances of
    docs/hard-instances.md: each on one core for 60 s; those it leaves
    undecided on two servers with complete --method exact --parts K, and on
    one server with both cores (the exact search's own threads), within 60 s
    of wall time each; the parts' times (from --job-file) give projections
    for more servers.
"""
import argparse
import contextlib
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

# OEIS A000170.
PUBLISHED = {17: 95815104, 18: 666090624, 19: 4968057848, 20: 39029188884}


class Server:
    """An nqueens-server on 127.0.0.1 port 0, pinned to `cores`."""

    def __init__(self, build, cores, workers):
        command = ["taskset", "-c", cores, os.path.join(build, "server", "nqueens-server"),
                   "--listen=127.0.0.1:0", f"--workers={workers}", "--max-exact-seconds=600"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            sys.exit(f"the server did not report its address: {line!r}")
        self.address = line[len("listening on "):].strip()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@contextlib.contextmanager
def running(build, setups):
    """Servers of (cores, workers) each, stopped afterwards."""
    servers = []
    try:
        for cores, workers in setups:
            servers.append(Server(build, cores, workers))
        yield servers
    finally:
        for server in servers:
            server.stop()


def cli(build, target, *arguments, timeout=None):
    """The CLI's JSON answer and its wall time; (None, seconds) when the time
    ran out."""
    command = [os.path.join(build, "client", "nqueens"), "--server", target, "--quiet", "--json",
               *arguments]
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - start
    seconds = time.monotonic() - start
    answer = json.loads(done.stdout) if done.stdout.startswith("{") else {}
    if answer.get("error", {}).get("code") == "DEADLINE_EXCEEDED":
        return None, seconds
    if done.returncode not in (0, 1, 4) or "error" in answer:  # 1 unsolvable, 4 undecided
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stdout} {done.stderr}")
    return answer, seconds


def targets(servers):
    return "ipv4:" + ",".join(server.address for server in servers)


def on_two_cores(build, count, task):
    """task(server, i) for every i below count, two at a time, each on a
    server of its own pinned to its own core."""
    next_index = iter(range(count))
    lock = threading.Lock()

    def work(server):
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            task(server, index)

    with running(build, [("0", 1), ("1", 1)]) as servers:
        threads = [threading.Thread(target=work, args=(server,)) for server in servers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def count_speedups(build, sizes, runs, parts):
    """Section 1: medians of a single call, and --parts over one and two servers."""
    rows = []
    with running(build, [("0", 1), ("1", 1)]) as servers:
        setups = {"1 server, one call": (servers[:1], []),
                  f"1 server, --parts {parts}": (servers[:1], ["--parts", str(parts)]),
                  f"2 servers, --parts {parts}": (servers, ["--parts", str(parts)])}
        for n in sizes:
            times = {name: [] for name in setups}
            for _ in range(runs):
                for name, (chosen, extra) in setups.items():
                    answer, seconds = cli(build, targets(chosen), "count", str(n), *extra)
                    if int(answer["solutions"]) != PUBLISHED[n]:
                        sys.exit(f"n = {n}, {name}: {answer['solutions']} solutions")
                    times[name].append(seconds)
            medians = {name: statistics.median(values) for name, values in times.items()}
            rows.append((n, medians))
    return rows


def part_times(build, n, parts):
    """Section 2: each part's time on its server (two at a time) and their sum."""
    times = [0.0] * parts
    solutions = [0] * parts

    def count_part(server, index):
        answer, _ = cli(build, server.address, "count", str(n), "--parts", str(parts),
                        "--part-index", str(index))
        times[index] = float(answer.get("elapsedSeconds", 0))
        solutions[index] = int(answer["solutions"])

    on_two_cores(build, parts, count_part)
    if sum(solutions) != PUBLISHED[n]:
        sys.exit(f"n = {n}: the parts add up to {sum(solutions)}")
    return times


def makespan(times, servers):
    """The wall time of `times` handed out in order to whichever server is free."""
    free = [0.0] * servers
    for seconds in times:
        at = free.index(min(free))
        free[at] += seconds
    return max(free)


def exact_instances(build, sizes, instances):
    """The Excluded Diagonals instances of docs/hard-instances.md, as files."""
    directory = tempfile.mkdtemp(prefix="nqueens-parts-")
    subprocess.run([os.path.join(build, "bench", "nqueens-hard-instances"), "--family=diagonals",
                    "--m=" + ",".join(map(str, sizes)), f"--instances={instances}",
                    "--engine=none", f"--write_boards={directory}"],
                   check=True, capture_output=True)
    return [(m, i, os.path.join(directory, f"diagonals-{m}-{i}.q"))
            for m in sizes for i in range(instances)]


def part_seconds(job_file):
    """Each finished part's time, as its server measured it, from a job file."""
    with open(job_file) as lines:
        records = [json.loads(line) for line in lines if line.startswith('{"part"')]
    return [float(record["result"]["stats"]["totalSeconds"]) for record in records]


def complete_exact(build, servers, path, seconds, *extra):
    """The verdict of complete --method exact within `seconds` of wall time, and
    that time."""
    answer, wall = cli(build, targets(servers), "complete", path, "--method", "exact",
                       f"--max-exact-seconds={seconds}", f"--deadline={seconds}s", *extra,
                       timeout=seconds + 5)
    # The report writes the outcome without its enum prefix ("OUTCOME_SOLVED").
    return (answer["outcome"].removeprefix("OUTCOME_") if answer else "UNDECIDED"), wall


def one_core_verdicts(build, paths, seconds):
    """Each instance on one core for `seconds` (two at a time, one per core)."""
    verdicts = [None] * len(paths)

    def decide(server, index):
        verdicts[index] = complete_exact(build, [server], paths[index], seconds)

    on_two_cores(build, len(paths), decide)
    return verdicts


def exact_on_parts(build, sizes, instances, parts, window, seconds, compare_threads):
    """Section 3: each instance on one core; those it leaves undecided on two
    servers with --parts, and (compare_threads) on one server with both cores
    (the exact search's own threads)."""
    listed = exact_instances(build, sizes, instances)
    alone = one_core_verdicts(build, [path for _, _, path in listed], seconds)
    rows = []
    for (m, index, path), (verdict, alone_seconds) in zip(listed, alone):
        row = {"m": m, "index": index, "one": verdict, "one_seconds": alone_seconds}
        if verdict == "UNDECIDED":
            job_file = path + ".job"
            with running(build, [("0", 1), ("1", 1)]) as two:
                row["two"], row["two_seconds"] = complete_exact(
                    build, two, path, seconds, "--parts", str(parts), "--window", str(window),
                    "--job-file", job_file)
            row["parts"] = part_seconds(job_file)
            if compare_threads:
                with running(build, [("0,1", 2)]) as both:
                    row["threads"], row["threads_seconds"] = complete_exact(
                        build, both, path, seconds)
        rows.append(row)
        print({key: value for key, value in row.items() if key != "parts"}, file=sys.stderr)
    return rows


def speedup_lines(args, speedups):
    names = list(speedups[0][1])
    lines = ["### Count over one and two servers", "",
             "| n | " + " | ".join(names) + " | speedup, 2 servers over 1 call |",
             "|---|" + "---|" * (len(names) + 1)]
    for n, medians in speedups:
        values = list(medians.values())
        lines.append(f"| {n} | " + " | ".join(f"{v:.2f} s" for v in values)
                     + f" | {values[0] / values[-1]:.2f} |")
    return lines + ["", f"Medians of {args.runs} runs each, wall time of the CLI.", ""]


def distribution_lines(args, distributions):
    lines = [f"### The parts' times, {args.parts} parts", "",
             "| n | sum of the parts | largest part | its share | median part | smallest |",
             "|---|---|---|---|---|---|"]
    for n, times in distributions:
        total = sum(times)
        lines.append(f"| {n} | {total:.1f} s | {max(times):.3f} s | "
                     f"{100 * max(times) / total:.2f} % | {statistics.median(times):.3f} s | "
                     f"{min(times):.4f} s |")
    (n0, first), (n1, last) = distributions[0], distributions[-1]
    if n1 == n0:
        return lines + [""]
    growth = (sum(last) / sum(first)) ** (1 / (n1 - n0))
    lines += ["", f"Each n costs {growth:.2f} times the one before (n = {n0} to {n1}). "
              f"Projected: each part of n = {n1} grown by that factor per n, the parts handed "
              "out in order to whichever server (one core each) is free:", "",
              "| n | one core | 10 servers | 100 servers |", "|---|---|---|---|"]
    for n in (21, 22, 23):
        grown = [t * growth ** (n - n1) for t in last]
        lines.append(f"| {n} | {hours(sum(grown))} | {hours(makespan(grown, 10))} "
                     f"| {hours(makespan(grown, 100))} |")
    return lines + [""]


def exact_lines(args, exact_rows):
    lines = ["### Excluded Diagonals, exact search", "",
             f"Each instance on one core (one server, `--workers=1`; two such servers, each on "
             f"a core of its own, take the instances in turn) for {args.exact_seconds:g} s; "
             f"those it leaves undecided on two servers (one core each) with `--parts "
             f"{args.exact_parts} --window {args.exact_window}`"
             + (", and on one server with both cores (`--workers=2`: the exact search's own "
                "threads)" if args.compare_threads else "")
             + f", within {args.exact_seconds:g} s of wall time each. "
             "*Sum of parts* is the work of the parts that finished, as their servers measured "
             "it; the projections hand those parts out in order to whichever of S servers is "
             "free.", "",
             "| instance | one core | its time | two servers, parts | wall time | "
             "sum of parts | S = 4 | S = 16 | S = 64 | one server, two cores | wall time |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in exact_rows:
        cells = [f"m={row['m']} #{row['index']}", row["one"], f"{row['one_seconds']:.1f} s"]
        if "two" in row:
            times = row["parts"]
            decided = row["two"] == "UNSOLVABLE" and len(times) == args.exact_parts
            cells += [row["two"], f"{row['two_seconds']:.1f} s", f"{sum(times):.1f} s"]
            cells += [f"{makespan(times, s):.1f} s" if decided else "" for s in (4, 16, 64)]
            cells += [row.get("threads", ""),
                      f"{row['threads_seconds']:.1f} s" if "threads" in row else ""]
        else:
            cells += [""] * 8
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def report(args, speedups, distributions, exact_rows):
    lines = [f"Measured {datetime.date.today()} on this machine ({os.cpu_count()} cores), "
             f"with `python3 bench/parts.py {' '.join(sys.argv[1:])}`.", ""]
    if speedups:
        lines += speedup_lines(args, speedups)
    if distributions:
        lines += distribution_lines(args, distributions)
    if exact_rows:
        lines += exact_lines(args, exact_rows)
    return "\n".join(lines)


def hours(seconds):
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build-bench", help="the build tree with the binaries")
    parser.add_argument("--count_n", default="17,18", help="section 1's board sizes")
    parser.add_argument("--distribution_n", default="18,19", help="section 2's board sizes")
    parser.add_argument("--parts", type=int, default=256, help="parts of a count")
    parser.add_argument("--runs", type=int, default=3, help="runs of each setup in section 1")
    parser.add_argument("--m", default="28,30", help="section 3's Excluded Diagonals sizes")
    parser.add_argument("--instances", type=int, default=8, help="instances per m")
    parser.add_argument("--exact_parts", type=int, default=64, help="parts of an exact search")
    parser.add_argument("--exact_window", type=int, default=1,
                        help="parts of an exact search in flight per server: 1 keeps each "
                             "part's time its own (with 2, a server pinned to one core runs two "
                             "parts at once, and their times overlap)")
    parser.add_argument("--exact_seconds", type=float, default=60, help="section 3's time limit")
    parser.add_argument("--compare_threads", type=int, default=1,
                        help="section 3: also run the undecided instances on one server with "
                             "both cores")
    parser.add_argument("--sections", default="1,2,3", help="which sections to run")
    parser.add_argument("--markdown", help="also write the report here")
    args = parser.parse_args()
    sections = args.sections.split(",")
    speedups = count_speedups(args.build, [int(n) for n in args.count_n.split(",")], args.runs,
                              args.parts) if "1" in sections else []
    distributions = [(int(n), part_times(args.build, int(n), args.parts))
                     for n in args.distribution_n.split(",")] if "2" in sections else []
    exact_rows = exact_on_parts(args.build, [int(m) for m in args.m.split(",")], args.instances,
                                args.exact_parts, args.exact_window, args.exact_seconds,
                                args.compare_threads) if "3" in sections else []
    text = report(args, speedups, distributions, exact_rows)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()

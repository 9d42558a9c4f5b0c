#!/usr/bin/python3
"""Examples that run: every command a documentation page shows, run as a
reader would run it, its output checked where the page shows it.

The markup convention (the pages are written to it):
- A fenced block whose info string is `sh` is run, in page order, as part of
  one bash session per page (`set -e -o pipefail`): cwd, variables and
  exports carry from block to block, as in one terminal. A `python` block is
  fed to `python3 -` in that session, with the repository's Python client
  installed (a virtual environment over /usr/bin/python3 leads the PATH).
  `bash`, `console`, `py` and the like are refused: they would go unrun.
- A fenced `text` or `json` block that opens on the first non-blank line after
  a run block's closing fence is that block's output: each of its lines must
  appear in what the block printed (stdout and stderr merged), in order,
  other lines between them allowed; `…` in a line matches any characters.
- An HTML comment on the line right before the opening fence is a marker:
  `<!-- not run: REASON -->` skips the block (the reason is printed and may
  not be empty); `<!-- exits: N -->` says that the block's last command
  exits N, and any other status fails.
- A line `nqueens-server ... &` (the command may have a path) is not run by
  bash: this test starts it (its words expanded by the session, as bash
  would), waits for its "listening on" line (and "listening for HTTP on" with
  --http-listen), and stops it with SIGTERM when the page ends; it must still
  be running then, and exit 0. Without --listen it listens on the gRPC port
  below (NQUEENS_LISTEN), not on 0.0.0.0:50051.
- The pages use the default ports 50051 (gRPC) and 8080 (HTTP); they are
  replaced with free loopback ports in every block, its output included;
  NQUEENS_SERVER names the gRPC one (the CLI's default server) and
  NQUEENS_HTTP the HTTP one (examples/complete_board.sh's).

A page is run in a scratch directory laid out like the repository's root
(`build` links to the build directory; `examples`, `scripts`, `deploy`,
`proto` and `clients` are copies, since pip writes into what it installs and
a page may write beside a board), with a HOME of its own and `nqueens`,
`nqueens-server` and `nqueens-check-certificate` on the PATH: nothing is
written into the checkout. Each block may take 120 s, a server 30 s to
listen. A failing command ends the page (what follows would run in a broken
state); outputs that differ are all reported. A page without a run block
fails: the markup must not change unseen. Python 3 standard library only.

usage: docs_examples_test.py --source-dir DIR --build-dir DIR PAGE
       docs_examples_test.py --source-dir DIR --build-dir DIR --self-test [unittest args]
"""
import argparse
import dataclasses
import os
import re
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from typing import Dict, List, Optional, Tuple

BLOCK_SECONDS = 120  # the longest one block may run
STARTUP_SECONDS = 30  # the longest a server may take to listen
RUN = ("sh", "python")
OUTPUT = ("text", "json")
# Info strings that look runnable but that the convention does not run: a
# block so marked would silently go unchecked.
MISTAKEN = ("bash", "shell", "console", "shell-session", "zsh", "py", "python3", "pycon")
BINARIES = {"nqueens": "client/nqueens", "nqueens-server": "server/nqueens-server",
            "nqueens-check-certificate": "checker/nqueens-check-certificate"}
# What the pages use of the repository, copied (they are small): a page that
# writes beside a board must not write into the checkout.
COPIED = ("examples", "scripts", "deploy", "proto", "clients")
LEFT_OUT = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
DEFAULT_PORTS = re.compile(r"(?<!\d)(50051|8080)(?!\d)")
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^\s`]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<text>.*?)\s*-->\s*$")
SERVER_LINE = re.compile(r"^\s*(?P<command>(\S*/)?nqueens-server(\s.*)?)\s&\s*$")


class PageFailure(AssertionError):
    """The page is wrong: a command failed, an output differs, or the markup
    breaks the convention."""


@dataclasses.dataclass
class Block:
    info: str  # "sh" or "python"
    line: int  # of the opening fence, 1-based
    text: str
    skip_reason: Optional[str] = None
    exits: int = 0
    expected: Optional[str] = None  # the output block's text


def parse_page(text: str) -> List[Block]:
    """The run blocks of a page, with their markers and expected outputs."""
    lines = text.splitlines()
    blocks: List[Block] = []
    index = 0
    last_run_end = None  # the line after the last run block's closing fence
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, info = opening.group("indent", "fence", "info")
        end = index + 1
        while end < len(lines) and not re.fullmatch(
                rf" {{0,{len(indent)}}}{re.escape(fence[0])}{{{len(fence)},}}\s*", lines[end]):
            end += 1
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                         for line in lines[index + 1:end]) + "\n"
        if info in MISTAKEN:
            raise PageFailure(f"line {index + 1}: a `{info}` block is neither run nor output; "
                              "use `sh` or `python` (or mark it not run)")
        if info in RUN:
            blocks.append(Block(info, index + 1, body, **markers(lines, index)))
            last_run_end = end + 1
        elif info in OUTPUT and last_run_end is not None and blocks and \
                all(not line.strip() for line in lines[last_run_end:index]):
            blocks[-1].expected = body
        if info not in RUN:
            last_run_end = None
        index = end + 1
    return blocks


def markers(lines: List[str], fence: int) -> dict:
    """The markers in the comment lines right above the fence at `fence`."""
    found: dict = {}
    above = fence - 1
    while above >= 0 and MARKER.match(lines[above]):
        text = MARKER.match(lines[above]).group("text")
        not_run = re.fullmatch(r"not run\b:?\s*(.*)", text)
        exits = re.fullmatch(r"exits:\s*(\d+)", text)
        if not_run:
            if not not_run.group(1):
                raise PageFailure(f"line {above + 1}: `not run` needs a reason")
            found["skip_reason"] = not_run.group(1)
        elif exits:
            found["exits"] = int(exits.group(1))
        else:
            raise PageFailure(f"line {above + 1}: unknown marker <!-- {text} --> "
                              "(not run: REASON, or exits: N)")
        above -= 1
    return found


def unmatched_line(expected: str, actual: str) -> Optional[str]:
    """The first line of `expected` not found in `actual` after the lines
    matched before it; None when every line is found in order."""
    want = expected.strip("\n").splitlines()
    have = [line.rstrip() for line in actual.splitlines()]
    position = 0
    for line in want:
        pattern = re.compile(".*".join(map(re.escape, line.rstrip().split("…"))))
        while position < len(have) and not pattern.fullmatch(have[position]):
            position += 1
        if position == len(have):
            return line
        position += 1
    return None


def split_last_command(script: str) -> Tuple[str, str]:
    """The script without its last command, and that command (its last
    non-blank, non-comment line with the lines it continues)."""
    lines = script.rstrip("\n").splitlines()
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    first = len(lines) - 1
    while first > 0 and lines[first - 1].rstrip().endswith("\\"):
        first -= 1
    return "\n".join(lines[:first]) + "\n", "\n".join(lines[first:]) + "\n"


def free_ports(count: int) -> List[int]:
    """`count` distinct loopback ports free right now."""
    sockets = []
    try:
        for _ in range(count):
            sockets.append(socket.socket())
            sockets[-1].bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class Shell:
    """One bash session that runs scripts one after another and keeps its
    state between them; each script's output goes to a file of its own."""

    def __init__(self, cwd: str, environment: Dict[str, str], scratch: str):
        self.scratch = scratch
        self.steps = 0
        self._unread = b""  # the session's stdout not yet parsed
        self.process = subprocess.Popen(
            ["/bin/bash", "--noprofile", "--norc"], cwd=cwd, env=environment,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            start_new_session=True)  # its group holds what the pages start in the background
        self._send("set -e -o pipefail\n")

    def _send(self, command: str) -> None:
        self.process.stdin.write(command)
        self.process.stdin.flush()

    def run(self, script: str, timeout: float) -> Tuple[str, Optional[int], str]:
        """How `script` ended ("done" with the status it set in
        __docs_status, "ended" the session with the session's exit status,
        or "timeout" with None) and its merged output."""
        self.steps += 1
        path = os.path.join(self.scratch, f"step-{self.steps}.sh")
        output = os.path.join(self.scratch, f"step-{self.steps}.out")
        with open(path, "w") as file:
            file.write("__docs_status=0\n" + script)
        # Its stdin is not the session's: a command reading stdin would eat
        # the commands that follow.
        self._send(f"source {shlex.quote(path)} < /dev/null > {shlex.quote(output)} 2>&1; "
                   "printf '__docs_done %d\\n' \"$__docs_status\"\n")
        ending, status = self._wait_done(time.monotonic() + timeout)
        with open(output, errors="replace") as file:
            return ending, status, file.read()

    def _wait_done(self, deadline: float) -> Tuple[str, Optional[int]]:
        fd = self.process.stdout.fileno()
        while True:
            done = re.search(rb"^__docs_done (\d+)$", self._unread, re.MULTILINE)
            if done:
                self._unread = self._unread[done.end():]
                return "done", int(done.group(1))
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                self.kill()
                return "timeout", None
            chunk = os.read(fd, 4096)
            if not chunk:  # set -e ended the session: a command failed
                return "ended", self.process.wait()
            self._unread += chunk

    def kill(self) -> None:
        """Ends the session and everything it started in the background."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.kill()  # background jobs the page left behind
        self.process.wait()
        self.process.stdout.close()


class Server:
    """An nqueens-server a page starts with `nqueens-server ... &`."""

    def __init__(self, words: List[str], cwd: str, environment: Dict[str, str], log_path: str,
                 line: int):
        self.line = line
        self.log_path = log_path
        executable = words[0] if "/" in words[0] else shutil.which(
            words[0], path=environment.get("PATH"))
        if executable is None:
            raise PageFailure(f"line {line}: {words[0]} is not on the PATH")
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                [executable, *words[1:]], cwd=cwd, env=environment, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=log, start_new_session=True)
        try:
            self._wait_listening(words, time.monotonic() + STARTUP_SECONDS)
        except BaseException:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            raise

    def _wait_listening(self, words: List[str], deadline: float) -> None:
        wanted = ["listening on "]
        if serves_http(words):
            wanted.append("listening for HTTP on ")
        output = b""
        fd = self.process.stdout.fileno()
        while any(not re.search(rf"^{prefix}", output.decode(errors="replace"), re.MULTILINE)
                  for prefix in wanted):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise PageFailure(f"line {self.line}: the server printed no {wanted} within "
                                  f"{STARTUP_SECONDS} s; stdout: {output!r}\n{self.log()}")
            chunk = os.read(fd, 4096)
            if not chunk:
                raise PageFailure(f"line {self.line}: the server exited at start with "
                                  f"{self.process.wait()}; stdout: {output!r}\n{self.log()}")
            output += chunk

    def log(self) -> str:
        with open(self.log_path, errors="replace") as log:
            return "its log:\n" + log.read()[-4000:]

    def stop(self) -> Optional[str]:
        """SIGTERM; what went wrong, if it had exited already or exits with
        a status other than 0."""
        early = self.process.poll()
        if early is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                status = self.process.wait(timeout=STARTUP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                status = self.process.wait()
        self.process.stdout.close()
        if early is not None:
            return f"the server of line {self.line} exited early with {early}; {self.log()}"
        if status != 0:
            return f"the server of line {self.line} exited {status} on SIGTERM; {self.log()}"
        return None


def serves_http(words: List[str]) -> bool:
    """Whether a server command line turns on the HTTP face."""
    for position, word in enumerate(words):
        if word == "--http-listen" and position + 1 < len(words) and words[position + 1]:
            return True
        if word.startswith("--http-listen=") and word != "--http-listen=":
            return True
    return False


@dataclasses.dataclass
class Report:
    run: int = 0
    checked: int = 0
    skipped: List[str] = dataclasses.field(default_factory=list)


# source dir -> (its temporary directory, kept alive, and the venv's bin)
PYTHON_CLIENTS: Dict[str, Tuple[tempfile.TemporaryDirectory, str]] = {}


class PageRun:
    """One page run in a scratch copy of the repository's layout."""

    def __init__(self, source_dir: str, build_dir: str, scratch: str, needs_python: bool):
        self.scratch = scratch
        self.root = os.path.join(scratch, "repository")
        os.makedirs(os.path.join(scratch, "home"))
        os.makedirs(os.path.join(scratch, "steps"))
        self._lay_out(source_dir, build_dir)
        self.grpc_port, self.http_port = free_ports(2)
        path = [os.path.join(scratch, "bin"), os.environ.get("PATH", "/usr/bin:/bin")]
        if needs_python:
            path.insert(0, self._python_client(source_dir))
        # The caller's NQUEENS_* settings would change what the CLI does.
        self.environment = {name: value for name, value in os.environ.items()
                            if not name.startswith("NQUEENS_") and name != "PYTHONPATH"}
        self.environment.update(HOME=os.path.join(scratch, "home"), PATH=":".join(path),
                                NQUEENS_SERVER=f"localhost:{self.grpc_port}",
                                NQUEENS_HTTP=f"localhost:{self.http_port}",
                                PYTHONDONTWRITEBYTECODE="1")
        self.shell = Shell(self.root, self.environment, os.path.join(scratch, "steps"))
        self.servers: List[Server] = []

    def _lay_out(self, source_dir: str, build_dir: str) -> None:
        os.makedirs(self.root)
        os.symlink(os.path.abspath(build_dir), os.path.join(self.root, "build"))
        for name in COPIED:
            shutil.copytree(os.path.join(source_dir, name), os.path.join(self.root, name),
                            symlinks=True, ignore=LEFT_OUT)
        bin_dir = os.path.join(self.scratch, "bin")
        os.makedirs(bin_dir)
        for name, path in BINARIES.items():
            binary = os.path.join(os.path.abspath(build_dir), path)
            if not os.access(binary, os.X_OK):
                raise PageFailure(f"{binary} is missing: build it first")
            os.symlink(binary, os.path.join(bin_dir, name))

    @staticmethod
    def _python_client(source_dir: str) -> str:
        """The bin directory of a virtual environment holding the client,
        installed offline from a copy outside the page's directory; made once
        per process (the self-test runs many pages), removed at its exit."""
        if source_dir not in PYTHON_CLIENTS:
            home = tempfile.TemporaryDirectory(prefix="docs-examples-python-")
            copy = os.path.join(home.name, "python-client")
            shutil.copytree(os.path.join(source_dir, "clients", "python"), copy,
                            ignore=LEFT_OUT)
            venv = os.path.join(home.name, "venv")
            subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv],
                           check=True, timeout=300)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                            "--no-index", "--no-build-isolation", copy],
                           check=True, timeout=300, cwd=home.name)
            PYTHON_CLIENTS[source_dir] = (home, os.path.join(venv, "bin"))
        return PYTHON_CLIENTS[source_dir][1]

    def ports(self, text: str) -> str:
        """`text` with the default ports replaced by this run's."""
        ports = {"50051": str(self.grpc_port), "8080": str(self.http_port)}
        return DEFAULT_PORTS.sub(lambda found: ports[found.group()], text)

    def steps(self, block: Block) -> List[Tuple[str, str, int]]:
        """The block as ("script", TEXT, 0) and ("server", COMMAND, ITS LINE
        IN THE PAGE) steps."""
        text = self.ports(block.text)
        if block.info == "python":
            path = os.path.join(self.scratch, f"block-{block.line}.py")
            with open(path, "w") as file:
                file.write(text)
            # From stdin, as pasted into python3: the cwd is on sys.path.
            return [("script", f"python3 - < {shlex.quote(path)}\n", 0)]
        steps: List[Tuple[str, str, int]] = [("script", "", 0)]
        for number, line in enumerate(text.splitlines(keepends=True), block.line + 1):
            server = SERVER_LINE.match(line)
            if server:
                steps += [("server", server.group("command"), number), ("script", "", 0)]
            else:
                steps[-1] = ("script", steps[-1][1] + line, 0)
        return [step for step in steps if step[0] == "server" or step[1].strip()]

    def run_block(self, block: Block) -> str:
        """Runs the block; its output. Fails unless its last command exits
        as marked and every other command exits 0."""
        steps = self.steps(block)
        if block.exits != 0 and (not steps or steps[-1][0] == "server"):
            raise PageFailure(f"line {block.line}: `exits` marks a block that does not end "
                              "with a command")
        output = ""
        for number, (kind, text, line) in enumerate(steps):
            if kind == "server":
                output += self.start_server(text, line)
                continue
            last = number == len(steps) - 1
            script = text
            if last and block.exits != 0:
                body, command = split_last_command(text)
                script = f"{body}set +e\n{command}__docs_status=$?\nset -e\n"
            ending, status, printed = self.shell.run(script, BLOCK_SECONDS)
            output += printed
            expected = block.exits if last else 0
            if ending != "done" or status != expected:
                what = {"timeout": f"ran out of its {BLOCK_SECONDS} s",
                        "ended": f"stopped at a command that exited {status}",
                        "done": f"ended with {status}, not {expected}"}[ending]
                raise PageFailure(f"the block of line {block.line} {what}; it printed:\n"
                                  f"{output}{self.dead_servers()}")
        return output

    def start_server(self, command: str, line: int) -> str:
        """Starts the server of a `nqueens-server ... &` line, its words
        expanded by the session as bash would; what the session printed."""
        words_path = os.path.join(self.scratch, "server-words")
        script = (f"__docs_words=( {command} )\n"
                  f"printf '%s\\0' \"${{__docs_words[@]}}\" > {shlex.quote(words_path)}\n"
                  f"pwd > {shlex.quote(words_path)}.cwd\n"
                  f"env -0 > {shlex.quote(words_path)}.env\n")
        ending, status, printed = self.shell.run(script, BLOCK_SECONDS)
        if (ending, status) != ("done", 0):
            raise PageFailure(f"line {line}: a server line holds only the command and its "
                              f"words: {command!r}\n{printed}")
        with open(words_path) as file:
            words = file.read().split("\0")[:-1]
        with open(words_path + ".cwd") as file:
            cwd = file.read().rstrip("\n")
        with open(words_path + ".env") as file:
            environment = dict(item.split("=", 1) for item in file.read().split("\0") if item)
        # Without --listen it would take 0.0.0.0:50051; the flag still wins.
        environment.setdefault("NQUEENS_LISTEN", f"127.0.0.1:{self.grpc_port}")
        log = os.path.join(self.scratch, f"server-{len(self.servers) + 1}.log")
        self.servers.append(Server(words, cwd, environment, log, line))
        print(f"  started {' '.join(map(shlex.quote, words))}", flush=True)
        return printed

    def dead_servers(self) -> str:
        return "".join(f"\nthe server of line {server.line} has exited with "
                       f"{server.process.poll()}; {server.log()}"
                       for server in self.servers if server.process.poll() is not None)

    def close(self) -> List[str]:
        """Ends the session and stops the servers; what went wrong."""
        self.shell.close()
        problems = [server.stop() for server in self.servers]
        return [problem for problem in problems if problem]


def run_page(page: str, source_dir: str, build_dir: str) -> Report:
    """Runs every run block of `page`, checks the outputs it shows, and
    prints what it did. PageFailure at the first block that fails (the
    blocks after it would run in a broken state), or at the end naming every
    output that differs from the page's."""
    with open(page) as file:
        blocks = parse_page(file.read())
    if not any(block.skip_reason is None for block in blocks):
        raise PageFailure(f"{page} has no block to run: has the markup changed?")
    report = Report()
    with tempfile.TemporaryDirectory(prefix="docs-examples-") as scratch:
        run = PageRun(source_dir, build_dir, scratch,
                      any(block.info == "python" and block.skip_reason is None
                          for block in blocks))
        try:
            differences = [difference for block in blocks
                           for difference in [run_one(run, block, report)] if difference]
        finally:
            problems = run.close()
    if differences or problems:
        raise PageFailure("\n".join(differences + problems))
    return report


def run_one(run: PageRun, block: Block, report: Report) -> Optional[str]:
    """Runs (or skips) one block; how its output differs from the page's."""
    if block.skip_reason is not None:
        print(f"line {block.line}: not run ({block.skip_reason}):\n"
              f"{textwrap.indent(block.text, '    ')}", flush=True)
        report.skipped.append(f"line {block.line}: {block.skip_reason}")
        return None
    print(f"line {block.line}: running the {block.info} block", flush=True)
    output = run.run_block(block)
    report.run += 1
    if block.expected is None:
        return None
    report.checked += 1
    expected = run.ports(block.expected)
    missing = unmatched_line(expected, output)
    if missing is None:
        return None
    return (f"the output of the block of line {block.line} lacks the line\n"
            f"    {missing}\n(in order); the page shows:\n"
            f"{textwrap.indent(expected, '    ')}it printed:\n"
            f"{textwrap.indent(output, '    ')}")


OPTIONS = None  # the parsed command line, for the self-test


class SelfTest(unittest.TestCase):
    """The runner against small pages of its own: one that keeps every rule
    passes, and each way a page can be wrong fails."""

    GOOD = textwrap.dedent("""\
        # A page

        Start a server, then ask it:

        ```sh
        mkdir -p work && cd work
        export BOARD=four.q
        printf '2 4 0 0\\n' > "$BOARD"
        nqueens-server --listen 127.0.0.1:50051 --http-listen 127.0.0.1:8080 &
        ```

        ```sh
        nqueens --quiet complete "$BOARD" > done.q
        nqueens --local validate done.q
        curl -s --json '{"n": 4, "columns": [2, 4, 1, 3]}' http://127.0.0.1:8080/v1/validate
        ```

        ```text
        valid: yes
        {"valid":true…
        ```

        A board with attacking queens:

        <!-- exits: 1 -->
        ```sh
        echo 'not an argument of the last line' | cat
        printf '1 2 0 0\\n' > attacking.q
        nqueens validate attacking.q
        ```

        ```python
        import nqueens
        with nqueens.Client("localhost:50051") as client:
            print(client.validate([2, 4, 1, 3]).valid)
        ```

        ```text
        True
        ```

        <!-- not run: it needs the network -->
        ```sh
        curl https://example.com/
        ```

        ```yaml
        not: run
        ```
        """)

    def run_text(self, text: str) -> Report:
        with tempfile.TemporaryDirectory() as directory:
            page = os.path.join(directory, "page.md")
            with open(page, "w") as file:
                file.write(text)
            return run_page(page, OPTIONS.source_dir, OPTIONS.build_dir)

    def assert_fails(self, text: str, message: str) -> None:
        with self.assertRaisesRegex(PageFailure, message):
            self.run_text(text)

    def test_a_page_that_keeps_every_rule_passes(self):
        report = self.run_text(self.GOOD)
        self.assertEqual((report.run, report.checked), (4, 2))
        skipped = self.GOOD.splitlines().index("<!-- not run: it needs the network -->") + 2
        self.assertEqual(report.skipped, [f"line {skipped}: it needs the network"])

    def test_an_output_the_page_shows_wrongly_fails(self):
        self.assert_fails(self.GOOD.replace("True", "False"), "lacks the line\n    False")
        # Lines that are all there but in another order.
        self.assert_fails(self.GOOD.replace("valid: yes\n{\"valid\":true…",
                                            "{\"valid\":true…\nvalid: yes"), "lacks the line")

    def test_a_status_other_than_the_marked_one_fails(self):
        self.assert_fails(self.GOOD.replace("exits: 1", "exits: 2"), "ended with 1, not 2")
        self.assert_fails(self.GOOD.replace("<!-- exits: 1 -->\n", ""),
                          "stopped at a command that exited 1")

    def test_a_failing_command_before_the_last_fails(self):
        # Even with the status the last command is marked to exit.
        self.assert_fails(self.GOOD.replace("| cat", "| false | cat"),
                          "stopped at a command that exited 1")
        self.assert_fails(self.GOOD.replace("mkdir -p work", "false; mkdir -p work"),
                          "stopped at a command that exited 1")

    def test_markers_must_be_complete(self):
        self.assert_fails(self.GOOD.replace(": it needs the network", ""), "needs a reason")
        self.assert_fails(self.GOOD.replace("not run:", "skip:"), "unknown marker")
        self.assert_fails(self.GOOD.replace("```python", "```py"), "neither run nor output")

    def test_a_page_without_run_blocks_fails(self):
        self.assert_fails("# Nothing\n\n```text\nhello\n```\n", "no block to run")

    def test_a_server_that_does_not_start_fails(self):
        self.assert_fails(self.GOOD.replace("--http-listen", "--no-such-flag"),
                          "exited at start")


def main() -> int:
    global OPTIONS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", required=True, help="the repository's top directory")
    parser.add_argument("--build-dir", required=True, help="where the binaries were built")
    parser.add_argument("--self-test", action="store_true",
                        help="run the runner's own cases instead of a page")
    parser.add_argument("page", nargs="?", help="the page, relative to --source-dir")
    OPTIONS, rest = parser.parse_known_args()
    OPTIONS.source_dir = os.path.abspath(OPTIONS.source_dir)
    if OPTIONS.self_test:
        cases = [OPTIONS.page] if OPTIONS.page else []
        return 0 if unittest.main(argv=[sys.argv[0], *cases, *rest], exit=False).result \
            .wasSuccessful() else 1
    if not OPTIONS.page or rest:
        parser.error("give one page")
    try:
        report = run_page(os.path.join(OPTIONS.source_dir, OPTIONS.page), OPTIONS.source_dir,
                          OPTIONS.build_dir)
    except PageFailure as failure:
        print(f"FAILED {OPTIONS.page}: {failure}", file=sys.stderr)
        return 1
    print(f"{OPTIONS.page}: {report.run} blocks run, {report.checked} outputs checked, "
          f"{len(report.skipped)} skipped" +
          "".join(f"\n  skipped {reason}" for reason in report.skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())

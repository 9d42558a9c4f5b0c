"""What the Python client's tests share: a real nqueens-server on a free
loopback port, and this file's own checks of boards, never the server's."""
import json
import os
import signal
import subprocess
import tempfile
import unittest
from typing import Iterator, List, Sequence

SERVER = os.environ.get("NQUEENS_SERVER", "")  # set by python_package_test.py
CHECKER = os.environ.get("NQUEENS_CHECKER", "")  # nqueens-check-certificate, likewise


def check_saved_proof(board: Sequence[int], paths: Sequence[str]) -> str:
    """What nqueens-check-certificate, an independent program, says of the
    proofs in `paths` for `board`; raises if it does not accept them."""
    with tempfile.NamedTemporaryFile("w", suffix=".q") as file:
        file.write(" ".join(map(str, board)) + "\n")
        file.flush()
        return subprocess.run([CHECKER, file.name, *paths], check=True, capture_output=True,
                              text=True).stdout


class Server:
    """nqueens-server on `listen` (127.0.0.1 port 0), logging its calls as
    JSON lines. It prints "listening on HOST:PORT" once it accepts calls;
    RuntimeError when it does not (the port is taken)."""

    def __init__(self, *flags: str, listen: str = "127.0.0.1:0"):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [SERVER, f"--listen={listen}", "--log-format=json", "--log-level=info", *flags],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline().strip()
        prefix = "listening on "
        if not line.startswith(prefix):
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"unexpected first line from the server: {line!r}")
        self.target = line[len(prefix):]

    def stop(self) -> List[dict]:
        """SIGTERM; once the server has exited 0, the calls it logged (all of
        them: it logs each call before it exits)."""
        self.process.send_signal(signal.SIGTERM)
        exit_code = self.process.wait(timeout=60)
        self.process.stdout.close()
        self.log.seek(0)
        records = [json.loads(line) for line in self.log]
        self.log.close()
        if exit_code != 0:
            raise AssertionError(f"the server exited with {exit_code} after SIGTERM")
        return [record for record in records if "method" in record]


def check_board(n: int, columns: Sequence[int]) -> tuple:
    """(valid, complete) for a dense board, in O(n): a queen in row i,
    column j holds column j, diagonal n + j - i and anti-diagonal i + j; the
    board is valid when no line holds two queens."""
    columns = [int(column) for column in columns]
    if len(columns) != n:
        return False, False
    used = [bytearray(n + 1), bytearray(2 * n + 1), bytearray(2 * n + 1)]
    queens = 0
    for row, column in enumerate(columns, start=1):
        if column == 0:
            continue
        if column > n:
            return False, False
        lines = (column, n + column - row, row + column)
        if any(taken[line] for taken, line in zip(used, lines)):
            return False, False
        for taken, line in zip(used, lines):
            taken[line] = 1
        queens += 1
    return True, queens == n


def completions(columns: Sequence[int]) -> Iterator[List[int]]:
    """Every completion of a composition, by plain backtracking (small n)."""
    n = len(columns)

    def extend(board: List[int]) -> Iterator[List[int]]:
        row = len(board)
        if row == n:
            yield board
            return
        for column in [columns[row]] if columns[row] else range(1, n + 1):
            if check_board(n, board + [column] + [0] * (n - row - 1))[0]:
                yield from extend(board + [column])

    if check_board(n, columns)[0]:
        yield from extend([])


def every_nth(solution: Sequence[int], stride: int) -> List[int]:
    """A composition keeping every stride-th queen of solution."""
    return [column if row % stride == 0 else 0 for row, column in enumerate(solution)]


class TestCase(unittest.TestCase):

    def assert_solution_extending(self, n: int, solution: Sequence[int],
                                  composition: Sequence[int] = ()) -> None:
        self.assertEqual(check_board(n, solution), (True, True), f"not a solution of n = {n}")
        for row, column in enumerate(composition):
            if column:
                self.assertEqual(solution[row], column, f"row {row + 1} was moved")


    def assert_refused(self, kind, message, call, *args, **kwargs):
        """call(*args, **kwargs) raises `kind` saying exactly `message`."""
        with self.assertRaises(kind) as raised:
            call(*args, **kwargs)
        self.assertEqual(str(raised.exception), message)
        return raised.exception


class ServerTestCase(TestCase):
    """A TestCase whose tests share one server, self.server."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

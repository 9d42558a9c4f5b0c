#!/usr/bin/python3
"""The Python client package (clients/python) against the nqueens-server binary.

Installs the package offline with the command of clients/python/README.md
into a temporary virtual environment, then runs the cases below with that
environment's Python against servers on 127.0.0.1 port 0. Every board is
checked by this file's own validity check, never by the server's word.

Run by CTest:
  python_package_test.py --server PATH --source-dir DIR
"""
import argparse
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

import grpc

BIG_N = 200_000  # above the unary limit (65,536 rows): streamed in chunks
OPTIONS = None  # the parsed command line


def check_board(n, columns):
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


def count_completions(columns):
    """Completions of a composition, by plain backtracking (small n only)."""
    n = len(columns)

    def extend(row, board):
        if row == n:
            return 1
        candidates = [columns[row]] if columns[row] else range(1, n + 1)
        return sum(extend(row + 1, board + [column]) for column in candidates
                   if check_board(n, board + [column] + [0] * (n - row - 1))[0])

    return extend(0, []) if check_board(n, columns)[0] else 0


def every_nth(solution, stride):
    """A composition keeping every stride-th queen of solution."""
    return [column if row % stride == 0 else 0
            for row, column in enumerate(solution)]


class Server:
    """nqueens-server on 127.0.0.1 port 0, logging its calls as JSON lines."""

    def __init__(self, *flags):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [OPTIONS.server, "--listen=127.0.0.1:0", "--log-format=json",
             "--log-level=info", *flags],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline().strip()
        prefix = "listening on "
        if not line.startswith(prefix):
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"unexpected first line from the server: {line!r}")
        self.target = line[len(prefix):]

    def stop(self):
        """SIGTERM; then the calls the server logged, once it has exited 0."""
        self.process.send_signal(signal.SIGTERM)
        exit_code = self.process.wait(timeout=60)
        self.process.stdout.close()
        self.log.seek(0)
        records = [json.loads(line) for line in self.log]
        self.log.close()
        if exit_code != 0:
            raise AssertionError(f"the server exited with {exit_code} after SIGTERM")
        return [record for record in records if "method" in record]


class PackageTestCase(unittest.TestCase):

    def assert_solution_extending(self, n, solution, composition=()):
        self.assertEqual(check_board(n, solution), (True, True),
                         f"not a solution of n = {n}")
        for row, column in enumerate(composition):
            if column:
                self.assertEqual(solution[row], column, f"row {row + 1} was moved")


class ClientTest(PackageTestCase):

    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.client = nqueens.Client(cls.server.target)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.server.stop()

    def random_solution(self, n):
        # Sub-compositions of the explicit construction are completed by a
        # shortcut; a random solution's go through the pipeline.
        result = self.client.solve(n, "random", seed=1)
        self.assert_solution_extending(n, result.board)
        return result.board

    def test_installed_package_is_used(self):
        self.assertTrue(nqueens.__file__.startswith(sys.prefix), nqueens.__file__)

    def test_numpy_is_imported_only_for_arrays(self):
        script = ("import sys, nqueens\n"
                  "client = nqueens.Client(sys.argv[1])\n"
                  "assert client.solve(8).outcome == 'SOLVED'\n"
                  "assert client.complete([0] * 8).outcome == 'SOLVED'\n"
                  "assert client.validate([2, 4, 0, 0]).valid\n"
                  "assert client.count(6).solutions == 4\n"
                  "assert 'numpy' not in sys.modules\n")
        subprocess.run([sys.executable, "-c", script, self.server.target],
                       check=True, timeout=60)

    def test_solve(self):
        for method in ("constructive", "random", "min-conflicts", "backtracking",
                       "genetic", "formula"):
            for n in (1, 8, 30):
                result = self.client.solve(n, method)
                self.assertEqual(result.outcome, "SOLVED", (method, n))
                self.assertIsInstance(result.board, list)
                self.assert_solution_extending(n, result.board)
        for n in (2, 3):
            result = self.client.solve(n)
            self.assertEqual((result.outcome, result.board), ("UNSOLVABLE", None))

    def test_solve_options(self):
        first = self.client.solve(1000, "random", seed=5)
        self.assertEqual(first.stats.seed, 5)
        self.assertEqual(self.client.solve(1000, "random", seed=5).board, first.board)
        mirrored = self.client.solve(1000, symmetry=4).board
        self.assert_solution_extending(1000, mirrored)
        self.assertEqual(mirrored, [1001 - column for column in self.client.solve(1000).board])

    def test_complete(self):
        solution = self.random_solution(1000)
        # Every 3rd queen travels dense, every 10th (fewer than n / 8) sparse.
        for stride in (3, 10):
            composition = every_nth(solution, stride)
            for method in ("pipeline", "min-conflicts", "exact"):
                if method == "exact" and stride == 10:
                    continue  # 900 free rows: beyond what the exact search decides quickly
                result = self.client.complete(composition, method, seed=7)
                self.assertEqual(result.outcome, "SOLVED", (stride, method))
                self.assert_solution_extending(1000, result.board, composition)

    def test_complete_unsolvable_with_certificate(self):
        # 4-queens has the solutions 2 4 1 3 and 3 1 4 2: no corner queen.
        result = self.client.complete([1, 0, 0, 0], want_certificate=True)
        self.assertEqual((result.outcome, result.board), ("UNSOLVABLE", None))
        self.assertTrue(result.certificate)

    def test_numpy_boards(self):
        import numpy
        composition = numpy.array(every_nth(self.random_solution(500), 2), dtype=numpy.int64)
        result = self.client.complete(composition)
        self.assertIsInstance(result.board, numpy.ndarray)
        self.assertEqual(result.board.dtype, numpy.uint32)
        self.assert_solution_extending(500, result.board.tolist(), composition.tolist())
        self.assertTrue(self.client.validate(result.board).complete)
        solved = self.client.solve(8, numpy=True).board
        self.assertIsInstance(solved, numpy.ndarray)
        self.assert_solution_extending(8, solved.tolist())
        self.assertIsInstance(self.client.complete(composition, numpy=False).board, list)
        with self.assertRaises(ValueError):
            self.client.validate(numpy.zeros((4, 4), dtype=numpy.uint32))

    def test_validate(self):
        solution = self.random_solution(50)
        report = self.client.validate(solution)
        self.assertEqual((report.valid, report.complete, report.queen_count), (True, True, 50))
        report = self.client.validate([1, 2, 0, 0])
        self.assertEqual(check_board(4, [1, 2, 0, 0]), (False, False))
        self.assertEqual((report.valid, report.attacking_pairs), (False, 1))
        self.assertEqual(report.conflicts, [((1, 1), (2, 2), "DIAGONAL")])
        report = self.client.validate([0, 0, 0])
        self.assertEqual((report.valid, report.complete, report.queen_count), (True, False, 0))

    def test_count(self):
        for n in range(1, 9):
            self.assertEqual(self.client.count(n).solutions, count_completions([0] * n), n)
        self.assertEqual(self.client.count(8).fundamental, 12)
        for composition in ([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 4, 0, 0, 0, 0, 0],
                            [0, 3, 0, 0, 0, 0, 0, 1]):
            counted = self.client.count(composition)
            self.assertEqual(counted.solutions, count_completions(composition), composition)
            self.assertIsNone(counted.fundamental)

    def test_count_progress(self):
        shares = []
        # 14-queens has 365,596 solutions (OEIS A000170); counting them takes
        # tens of milliseconds, many progress intervals of 1 ms.
        counted = self.client.count(14, progress=shares.append, progress_seconds=0.001)
        self.assertEqual(counted.solutions, 365_596)
        self.assertTrue(shares)
        self.assertTrue(all(0 <= share <= 1 for share in shares), shares)

    def test_invalid_boards_raise_with_the_status(self):
        with self.assertRaises(nqueens.Error) as raised:
            self.client.complete([0, 3, 0, 0, 6, 0, 0, 0])
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("(row 2, column 3) and (row 5, column 6)", raised.exception.message)
        self.assertIn("INVALID_ARGUMENT", str(raised.exception))
        with self.assertRaises(nqueens.Error) as raised:
            self.client.validate([9] + [0] * 7)
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("row 1 has column 9", raised.exception.message)
        with self.assertRaises(nqueens.Error) as raised:
            self.client.solve(0)
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)

    def test_caller_errors_raise_value_error(self):
        with self.assertRaises(ValueError):
            self.client.solve(8, "telepathy")
        for n in (8, BIG_N):
            with self.assertRaises(ValueError):
                self.client.complete([-1] + [0] * (n - 1))


class BigBoardTest(PackageTestCase):
    """Boards above the unary limit go through the streams, in chunks."""

    def test_streams(self):
        import numpy
        server = Server()
        try:
            with nqueens.Client(server.target) as client:
                solution = client.solve(BIG_N, "random").board
                self.assert_solution_extending(BIG_N, solution)

                # Dense (half the rows filled): the board goes up in chunks.
                composition = every_nth(solution, 2)
                result = client.complete(composition)
                self.assertEqual(result.outcome, "SOLVED")
                self.assert_solution_extending(BIG_N, result.board, composition)
                array = client.complete(numpy.array(composition)).board
                self.assertIsInstance(array, numpy.ndarray)
                self.assert_solution_extending(BIG_N, array.tolist(), composition)

                report = client.validate(result.board)
                self.assertTrue(report.valid and report.complete)

                attacking = list(solution)
                attacking[-1] = attacking[0]  # rows 1 and BIG_N share a column
                report = client.validate(attacking)
                self.assertFalse(report.valid)
                self.assertIn(((1, attacking[0]), (BIG_N, attacking[0]), "COLUMN"),
                              report.conflicts)
                with self.assertRaises(nqueens.Error) as raised:
                    client.complete(attacking)
                self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
                self.assertIn(f"(row 1, column {attacking[0]}) and (row {BIG_N}, "
                              f"column {attacking[0]})", raised.exception.message)
        finally:
            calls = server.stop()
        self.assertEqual({call["method"] for call in calls},
                         {"SolveStream", "CompleteStream", "ValidateStream"})
        self.assertTrue(all(call["n"] == BIG_N for call in calls))


class SecurityTest(PackageTestCase):
    """TLS with the test's own CA, and bearer tokens."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        path = functools.partial(os.path.join, cls.directory.name)
        new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        with open(path("ext.cnf"), "w") as extensions:
            extensions.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                             "extendedKeyUsage=serverAuth\n")
        for arguments in (
                ["req", "-x509", *new_key, "-days", "2", "-subj", "/CN=nqueens-test-ca",
                 "-keyout", path("ca.key"), "-out", path("ca.pem")],
                ["req", "-new", *new_key, "-subj", "/CN=nqueens-server",
                 "-keyout", path("server.key"), "-out", path("server.csr")],
                ["x509", "-req", "-days", "2", "-in", path("server.csr"),
                 "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "1",
                 "-extfile", path("ext.cnf"), "-out", path("server.pem")]):
            subprocess.run(["openssl", *arguments], check=True, timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cls.token = "a-token-for-the-python-client"
        with open(path("tokens.txt"), "w") as tokens:
            tokens.write(cls.token + "\n")
        cls.ca = path("ca.pem")
        cls.server = Server(f"--tls-cert={path('server.pem')}",
                            f"--tls-key={path('server.key')}",
                            f"--auth-token-file={path('tokens.txt')}")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.directory.cleanup()

    def test_tls_with_token(self):
        with nqueens.Client(self.server.target, tls=self.ca, token=self.token) as client:
            self.assert_solution_extending(8, client.solve(8).board)

    def test_refused_tokens(self):
        for token, message in ((None, "missing bearer token"),
                               ("not-the-token", "bearer token refused")):
            with nqueens.Client(self.server.target, tls=self.ca, token=token) as client:
                with self.assertRaises(nqueens.Error) as raised:
                    client.solve(8)
                self.assertEqual(raised.exception.code, grpc.StatusCode.UNAUTHENTICATED)
                self.assertIn(message, raised.exception.message)


def install_and_run(unittest_args):
    """Installs the package into a new virtual environment and runs this file
    there. It builds from a copy of clients/python and proto/, laid out as in
    the repository, so that the build leaves nothing in the checkout."""
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "src")
        ignore = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
        shutil.copytree(os.path.join(OPTIONS.source_dir, "clients", "python"),
                        os.path.join(source, "clients", "python"), ignore=ignore)
        shutil.copytree(os.path.join(OPTIONS.source_dir, "proto"),
                        os.path.join(source, "proto"), ignore=ignore)
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                       check=True, timeout=300)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                        "--no-index", "--no-build-isolation",
                        os.path.join(source, "clients", "python")],
                       check=True, timeout=300)
        return subprocess.run([python, os.path.abspath(__file__), "--installed",
                               f"--server={OPTIONS.server}", *unittest_args],
                              timeout=900).returncode


def main():
    global OPTIONS, nqueens
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the nqueens-server binary")
    parser.add_argument("--source-dir", help="the repository's top directory")
    parser.add_argument("--installed", action="store_true",
                        help="run the cases (in the environment holding the package)")
    OPTIONS, unittest_args = parser.parse_known_args()
    if not OPTIONS.installed:
        sys.exit(install_and_run(unittest_args))
    import nqueens
    unittest.main(argv=[sys.argv[0]] + unittest_args)


if __name__ == "__main__":
    main()

"""Every RPC through nqueens.Client, the blocking client, answers checked by
support.check_board."""
import os
import subprocess
import sys
import tempfile

import grpc

import nqueens
from support import (Server, ServerTestCase, TestCase, check_board, check_saved_proof, completions,
                     every_nth)

BIG_N = 200_000  # above the unary limit (65,536 rows): streamed in chunks
CORNER = [1, 0, 0, 0]  # 4-queens has the solutions 2 4 1 3 and 3 1 4 2: no corner queen
BINARY_MAGIC = b"NQCERT\r\n"  # docs/reference/certificates.md
TEXT_FIRST_LINE = b"nqueens-certificate 1\n"


class SmallChunks(grpc.StreamStreamClientInterceptor):
    """Asks CompleteStream for the smallest chunks, 3 bytes of certificate
    each (chunk_size 1): a small proof then comes in chunks after the header,
    as a long one does; counts the certificate chunks received."""

    def __init__(self):
        self.certificate_chunks = 0

    def intercept_stream_stream(self, continuation, details, requests):
        def small(messages):
            for message in messages:
                if message.WhichOneof("part") == "header":
                    message.header.chunk_size = 1
                yield message

        for response in continuation(details, small(requests)):
            self.certificate_chunks += response.WhichOneof("part") == "certificate"
            yield response


class CallsTest(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.client = nqueens.Client(cls.server.target)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        super().tearDownClass()

    def random_solution(self, n):
        # Sub-compositions of the explicit construction are completed by a
        # shortcut; a random solution's go through the pipeline.
        result = self.client.solve(n, "random", seed=1)
        self.assert_solution_extending(n, result.board)
        return result.board

    def test_numpy_is_imported_only_for_arrays(self):
        script = ("import sys, nqueens\n"
                  "client = nqueens.Client(sys.argv[1])\n"
                  "assert client.solve(8).outcome == 'OUTCOME_SOLVED'\n"
                  "assert client.complete([0] * 8).outcome == 'OUTCOME_SOLVED'\n"
                  "assert client.validate([2, 4, 0, 0]).valid\n"
                  "assert client.count(6).solutions == 4\n"
                  "assert 'numpy' not in sys.modules\n")
        subprocess.run([sys.executable, "-c", script, self.server.target],
                       check=True, timeout=60)

    def test_solve(self):
        for method in ("constructive", "random", "min-conflicts", "backtracking",
                       "genetic", "formula", "MIN_CONFLICTS"):
            for n in (1, 8, 30):
                result = self.client.solve(n, method)
                self.assertEqual(result.outcome, "OUTCOME_SOLVED", (method, n))
                self.assertIsInstance(result.board, list)
                self.assert_solution_extending(n, result.board)
        for n in (2, 3):
            result = self.client.solve(n)
            self.assertEqual((result.outcome, result.board), ("OUTCOME_UNSOLVABLE", None))

    def test_solve_options_and_stats(self):
        first = self.client.solve(1000, "random", seed=5)
        self.assertIsInstance(first.stats, nqueens.Stats)
        self.assertEqual((first.stats.seed, first.stats.method), (5, "RANDOM"))
        self.assertEqual(self.client.solve(1000, "random", seed=5).board, first.board)
        mirrored = self.client.solve(1000, symmetry=4).board
        self.assert_solution_extending(1000, mirrored)
        self.assertEqual(mirrored, [1001 - column for column in self.client.solve(1000).board])
        limited = self.client.solve(1000, "random", limits=nqueens.Limits(max_restarts=1 << 31))
        self.assert_solution_extending(1000, limited.board)
        self.assertTrue(any("max_restarts" in lowered for lowered in limited.stats.lowered_limits),
                        limited.stats.lowered_limits)

    def test_complete(self):
        solution = self.random_solution(1000)
        # Every 3rd queen travels dense, every 10th (fewer than n / 8) sparse.
        compositions = [every_nth(solution, stride) for stride in (3, 10)]
        # The exact search on 50 free rows, which it decides at once whatever
        # the solution; hundreds of free rows may take it past its budget.
        few_free = [0 if row % 20 == 0 else column for row, column in enumerate(solution)]
        for method, composition in [(method, composition) for composition in compositions
                                    for method in ("pipeline", "min-conflicts")] + [
                                        ("exact", few_free)]:
            result = self.client.complete(composition, method, seed=7)
            self.assertEqual(result.outcome, "OUTCOME_SOLVED", method)
            self.assertEqual(result.stats.seed, 7)
            self.assert_solution_extending(1000, result.board, composition)

    def test_complete_unsolvable_with_certificate(self):
        self.assertEqual(list(completions(CORNER)), [])
        result = self.client.complete(CORNER, want_certificate=True)
        self.assertEqual((result.outcome, result.board), ("OUTCOME_UNSOLVABLE", None))
        self.assertTrue(result.certificate.startswith(BINARY_MAGIC), result.certificate)
        with tempfile.TemporaryDirectory() as directory:
            paths = result.save_certificate(os.path.join(directory, "corner.cert"))
            self.assertEqual(paths, [os.path.join(directory, "corner.cert")])
            with open(paths[0], "rb") as saved:
                self.assertEqual(saved.read(), result.certificate)
            self.assertIn("has no completion", check_saved_proof(CORNER, paths))
        # A solved board has none, and says so.
        solved = self.client.complete([0, 0, 0, 0, 0, 0, 0, 1], want_certificate=True)
        with self.assertRaisesRegex(ValueError, "only an OUTCOME_UNSOLVABLE answer"):
            solved.save_certificate("never-written.cert")

    def test_a_text_certificate_when_asked(self):
        result = self.client.complete(CORNER, want_certificate=True, certificate_format="text")
        self.assertTrue(result.certificate.startswith(TEXT_FIRST_LINE), result.certificate)
        with tempfile.TemporaryDirectory() as directory:
            paths = result.save_certificate(os.path.join(directory, "corner.txt"))
            self.assertIn("has no completion", check_saved_proof(CORNER, paths))

    def test_a_certificate_in_chunks_arrives_whole(self):
        chunks = SmallChunks()
        with nqueens.Client(self.server.target, interceptors=[chunks]) as client:
            for certificate_format, start in (("binary", BINARY_MAGIC), ("text", TEXT_FIRST_LINE)):
                with self.subTest(certificate_format):
                    chunks.certificate_chunks = 0
                    result = client.complete(CORNER, want_certificate=True,
                                             certificate_format=certificate_format)
                    self.assertEqual(chunks.certificate_chunks,
                                     (len(result.certificate) + 2) // 3)
                    self.assertGreater(chunks.certificate_chunks, 1)
                    self.assertTrue(result.certificate.startswith(start), result.certificate)
                    with tempfile.TemporaryDirectory() as directory:
                        paths = result.save_certificate(os.path.join(directory, "corner.cert"))
                        self.assertIn("has no completion", check_saved_proof(CORNER, paths))

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

    def test_validate(self):
        solution = self.random_solution(50)
        report = self.client.validate(solution)
        self.assertEqual((report.valid, report.complete, report.queen_count), (True, True, 50))
        self.assertEqual(check_board(4, [1, 2, 0, 0]), (False, False))
        report = self.client.validate([1, 2, 0, 0])
        self.assertEqual((report.valid, report.attacking_pairs), (False, 1))
        self.assertEqual(report.conflicts, [((1, 1), (2, 2), "LINE_DIAGONAL")])
        report = self.client.validate([0, 0, 0])
        self.assertEqual((report.valid, report.complete, report.queen_count), (True, False, 0))

    def test_count(self):
        for n in range(1, 9):
            self.assertEqual(self.client.count(n).solutions, len(list(completions([0] * n))), n)
        self.assertEqual(self.client.count(8).fundamental, 12)
        for composition in ([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 4, 0, 0, 0, 0, 0],
                            [0, 3, 0, 0, 0, 0, 0, 1]):
            counted = self.client.count(composition)
            self.assertEqual(counted.solutions, len(list(completions(composition))), composition)
            self.assertIsNone(counted.fundamental)

    def test_count_progress(self):
        shares = []
        # 14-queens has 365,596 solutions (OEIS A000170); counting them takes
        # tens of milliseconds, many progress intervals of 1 ms.
        counted = self.client.count(14, progress=shares.append, progress_seconds=0.001)
        self.assertEqual(counted.solutions, 365_596)
        self.assertTrue(shares)
        self.assertTrue(all(0 <= share <= 1 for share in shares), shares)

    def test_enumerate(self):
        for n_or_board in (6, 8, [1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 4, 0, 0, 0, 0, 0]):
            boards = list(self.client.enumerate(n_or_board))
            composition = [0] * n_or_board if isinstance(n_or_board, int) else n_or_board
            expected = list(completions(composition))
            self.assertEqual(sorted(boards), sorted(expected), n_or_board)
            self.assertEqual(len(set(map(tuple, boards))), len(boards))
            for board in boards:
                self.assert_solution_extending(len(composition), board, composition)
        self.assertEqual(list(self.client.enumerate([1, 0, 0, 0])), [])

    def test_enumerate_limit_and_early_exit(self):
        first = list(self.client.enumerate(10, limit=5))
        self.assertEqual(len(first), 5)
        for board in first:
            self.assert_solution_extending(10, board)
        # Leaving the loop ends the call; the order is fixed.
        for index, board in enumerate(self.client.enumerate(10)):
            self.assertEqual(board, first[index])
            if index == 2:
                break

    def test_complete_batch(self):
        import numpy
        solution = self.random_solution(200)
        boards = [every_nth(solution, 2), [1, 0, 0, 0], [0, 3, 0, 0, 6, 0, 0, 0],
                  numpy.array(every_nth(solution, 3)), [0] * 8]
        answers = list(self.client.complete_batch(boards, seed=3))
        self.assertEqual([answer.index for answer in answers], [0, 1, 2, 3, 4])
        for index in (0, 3, 4):
            result = answers[index].result
            self.assertIsNone(answers[index].error)
            self.assertEqual((result.outcome, result.stats.seed), ("OUTCOME_SOLVED", 3))
            composition = list(boards[index])
            self.assert_solution_extending(len(composition), list(result.board), composition)
        self.assertIsInstance(answers[3].result.board, numpy.ndarray)
        self.assertEqual(answers[1].result.outcome, "OUTCOME_UNSOLVABLE")
        error = answers[2].error
        self.assertIsNone(answers[2].result)
        self.assertEqual(error.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("(row 2, column 3) and (row 5, column 6)", error.details())
        self.assertRegex(error.request_id(), "^[0-9a-f]{32}$")

    def test_complete_batch_of_many_messages(self):
        # 30,000 rows each: more than one request message (65,536 rows each).
        solution = self.random_solution(30_000)
        boards = [every_nth(solution, stride) for stride in (2, 3, 4)]
        answers = list(self.client.complete_batch(boards))
        self.assertEqual([answer.index for answer in answers], [0, 1, 2])
        for board, answer in zip(boards, answers):
            self.assert_solution_extending(30_000, answer.result.board, board)

    def test_health(self):
        self.assertEqual(self.client.health(), "SERVING")
        self.assertEqual(self.client.health("nqueens.v1.NQueensService"), "SERVING")
        with self.assertRaises(nqueens.Error) as raised:
            self.client.health("no.such.Service")
        self.assertEqual(raised.exception.code(), grpc.StatusCode.NOT_FOUND)


class BigBoardTest(TestCase):
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
                self.assertEqual(result.outcome, "OUTCOME_SOLVED")
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
                self.assertIn(((1, attacking[0]), (BIG_N, attacking[0]), "LINE_COLUMN"),
                              report.conflicts)
                with self.assertRaises(nqueens.Error) as raised:
                    client.complete(attacking)
                self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                self.assertIn(f"(row 1, column {attacking[0]}) and (row {BIG_N}, "
                              f"column {attacking[0]})", raised.exception.details())
        finally:
            calls = server.stop()
        self.assertEqual({call["method"] for call in calls},
                         {"SolveStream", "CompleteStream", "ValidateStream"})
        self.assertTrue(all(call["n"] == BIG_N for call in calls))

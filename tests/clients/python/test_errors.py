"""Failed calls (nqueens.Error), bad arguments (TypeError, ValueError) and a
missing grpcio, each in the client's own words."""
import subprocess
import sys

import grpc

import nqueens
from support import Server, TestCase

ATTACKING = [0, 3, 0, 0, 6, 0, 0, 0]  # rows 2 and 5 share a diagonal
ATTACKING_DETAILS = ("two queens attack each other: queens at (row 2, column 3) and "
                     "(row 5, column 6) share a diagonal")
# Words of protobuf's own errors, which a caller should never see.
PROTOBUF_WORDS = ("Protocol message", "has no", "Enum ", "field", "expected one of")


class ServerErrorTest(TestCase):

    def test_code_details_and_the_logged_request_id(self):
        server = Server()
        try:
            with nqueens.Client(server.target) as client:
                with self.assertRaises(grpc.RpcError) as raised:  # gRPC's own kind too
                    client.complete(ATTACKING)
                with self.assertRaises(nqueens.Error) as zero:
                    client.solve(0)
        finally:
            calls = server.stop()
        error = raised.exception
        self.assertIsInstance(error, nqueens.Error)
        self.assertEqual(error.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(error.details(), ATTACKING_DETAILS)
        self.assertRegex(error.request_id(), "^[0-9a-f]{32}$")
        self.assertEqual(str(error), f"INVALID_ARGUMENT: {ATTACKING_DETAILS} "
                                     f"(request id {error.request_id()})")
        self.assertEqual(zero.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(zero.exception.details(),
                         "n must be 1..2147483647 (the largest board this build supports), not 0")
        logged = {call["request_id"]: call for call in calls}
        for failed, method in ((error, "Complete"), (zero.exception, "Solve")):
            self.assertEqual(logged[failed.request_id()]["method"], method)
            self.assertEqual(logged[failed.request_id()]["code"], "INVALID_ARGUMENT")
        self.assertNotEqual(error.request_id(), zero.exception.request_id())

    def test_errors_of_streams_and_deadlines(self):
        server = Server()
        try:
            with nqueens.Client(server.target) as client:
                with self.assertRaises(nqueens.Error) as raised:
                    client.count([1, 1, 0, 0])
                self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                self.assertIn("attack", raised.exception.details())
                with self.assertRaises(nqueens.Error) as raised:
                    list(client.enumerate([0, 2, 2, 0]))
                self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                self.assertRegex(raised.exception.request_id(), "^[0-9a-f]{32}$")
                # 20-queens has 39,029,188,884 solutions: far more than a
                # millisecond's count.
                with self.assertRaises(nqueens.Error) as raised:
                    client.count(20, timeout=0.001)
                self.assertEqual(raised.exception.code(), grpc.StatusCode.DEADLINE_EXCEEDED)
        finally:
            server.stop()


class BadArgumentTest(TestCase):
    """Checked before any call: no server needed, and none is reached."""

    @classmethod
    def setUpClass(cls):
        cls.client = nqueens.Client("127.0.0.1:1")  # nothing listens there

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def assert_refused(self, kind, message, call, *args, **kwargs):
        error = super().assert_refused(kind, message, call, *args, **kwargs)
        for words in PROTOBUF_WORDS:
            self.assertNotIn(words, str(error))

    def test_methods_are_listed(self):
        self.assert_refused(
            ValueError, "unknown method 'NOPE': use one of random, min-conflicts, "
            "backtracking, genetic, formula, constructive", self.client.solve, 8, "NOPE")
        self.assert_refused(
            ValueError, "unknown method 'random': use one of min-conflicts, exact, pipeline",
            self.client.complete, [0] * 8, "random")
        self.assert_refused(
            TypeError, "method must be a str, one of min-conflicts, exact, pipeline; not int",
            self.client.complete_batch, [[0] * 8], 2)

    def test_limits(self):
        self.assert_refused(TypeError, "limits must be an nqueens.Limits, not dict",
                            self.client.solve, 8, limits={"max_backtrack": 5})
        self.assert_refused(ValueError,
                            "max_restarts must be from 0 to 4294967295, not 4294967296",
                            self.client.solve, 8, limits=nqueens.Limits(max_restarts=1 << 32))
        self.assert_refused(ValueError, "max_exact_seconds must be 0 seconds or more, not nan",
                            self.client.complete, [0] * 8,
                            limits=nqueens.Limits(max_exact_seconds=float("nan")))
        with self.assertRaises(TypeError):
            nqueens.Limits(max_backtrack=5)

    def test_numbers(self):
        self.assert_refused(TypeError, "n must be an int, not str", self.client.solve, "8")
        self.assert_refused(TypeError, "n must be an int, not float", self.client.count, 8.0)
        self.assert_refused(ValueError, "n must be from 0 to 18446744073709551615, not -1",
                            self.client.solve, -1)
        self.assert_refused(ValueError, "seed must be from 0 to 18446744073709551615, not -5",
                            self.client.solve, 8, seed=-5)
        self.assert_refused(ValueError, "symmetry must be from 0 to 7, not 8",
                            self.client.solve, 8, symmetry=8)
        self.assert_refused(ValueError, "limit must be from 0 to 18446744073709551615, not -1",
                            self.client.enumerate, 8, limit=-1)
        self.assert_refused(ValueError, "timeout must be more than 0 seconds, not 0",
                            self.client.validate, [0], timeout=0)
        self.assert_refused(TypeError, "timeout must be a number of seconds, not str",
                            self.client.health, timeout="1")
        self.assert_refused(TypeError, "want_certificate must be a bool, not str",
                            self.client.complete, [0], want_certificate="yes")
        self.assert_refused(ValueError, "certificate_format must be 'binary' or 'text', not 'pdf'",
                            self.client.complete, [0], want_certificate=True,
                            certificate_format="pdf")

    def test_boards(self):
        self.assert_refused(
            TypeError, "a board is a sequence of ints: board[i] is the 1-based column of "
            "row i + 1's queen, 0 for none; not str", self.client.complete, "1234")
        self.assert_refused(TypeError, "row 2's column must be an int, not float",
                            self.client.validate, [1, 2.0, 0])
        for n in (8, 200_000):  # unary, and streamed
            self.assert_refused(ValueError, "a board's columns are 1-based, 0 for an empty row",
                                self.client.complete, [-1] + [0] * (n - 1))
        self.assert_refused(ValueError, "board 1 has 65537 rows: a batch item has at most "
                            "65536; use complete() for bigger boards",
                            self.client.complete_batch, [[0] * 8, [0] * 65537])

    def test_numpy_boards(self):
        import numpy
        message = ("a numpy board is a one-dimensional array of integers: board[i] is the "
                   "column of row i + 1's queen, 0 for none")
        self.assert_refused(ValueError, message, self.client.validate,
                            numpy.zeros((4, 4), dtype=numpy.uint32))
        self.assert_refused(ValueError, message, self.client.validate, numpy.zeros(4))

    def test_channel_arguments(self):
        self.assert_refused(TypeError, "give a target or a channel: one of them, not both",
                            nqueens.Client)
        self.assert_refused(TypeError, "tls must be a bool or the path of a PEM file, not int",
                            nqueens.Client, "localhost:1", tls=1)


class MissingGrpcioTest(TestCase):

    def test_import_names_the_package(self):
        # None in sys.modules makes `import grpc` fail as if grpcio were absent.
        script = ("import sys\n"
                  "sys.modules['grpc'] = None\n"
                  "try:\n"
                  "    import nqueens\n"
                  "except ImportError as error:\n"
                  "    print(error, error.name, sep='\\n')\n")
        output = subprocess.run([sys.executable, "-c", script], check=True, timeout=60,
                                capture_output=True, text=True).stdout
        self.assertEqual(output, "the nqueens package needs grpcio (import grpc failed: "
                                 "import of grpc halted; None in sys.modules); install it with "
                                 "`pip install grpcio`, or on Debian `apt install "
                                 "python3-grpcio`\ngrpc\n")

"""Parts: one part of a search per call (parts=K, part_index=I), and a job
spread over every server behind a target (parts=K alone), against real
servers, one of which is stopped in the middle of a job."""
import asyncio
import os
import tempfile
import threading
import time
import unittest

import grpc

import nqueens
import nqueens.aio
from nqueens import spread
from support import Server, TestCase, check_board, check_saved_proof, completions

# OEIS A000170, and the fundamental solutions (A002562).
SOLUTIONS = {10: 724, 12: 14_200, 14: 365_596}
FUNDAMENTAL = {10: 92, 12: 1_787, 14: 45_752}
# Valid, and no completion (support.completions finds none).
DEAD_END = [1, 0, 0, 0, 3, 0, 0, 0, 0, 5]
NOWHERE = "127.0.0.1:1"  # nothing listens there
# No completion, which the exact search takes seconds of both cores to
# prove (examples/README.md; its 64 parts take about 10 s on the test's
# servers): a job of it is cut short by a 2 s deadline.
HARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples",
                    "excluded-diagonals-24.q")
DEADLINE_SECONDS = 2.0
# How long after its deadline a job may take to answer: a bound on hanging,
# not a measurement.
LATE_SECONDS = 10.0


def hard_board():
    with open(HARD) as file:
        return [int(column) for column in file.read().split()]


def check_cut_short(test, result, seconds):
    """A complete() job of the hard board that its deadline ended: what the
    CLI answers, OUTCOME_UNDECIDED (no exception, no proof) with the search
    its parts did, soon after the deadline."""
    test.assertEqual((result.outcome, result.board), ("OUTCOME_UNDECIDED", None))
    test.assertLess(seconds, DEADLINE_SECONDS + LATE_SECONDS)
    test.assertGreater(result.stats.exact_nodes, 0, result.stats)
    test.assertGreater(result.stats.exact_runs, 0, result.stats)
    test.assertTrue(0 < result.stats.exact_explored < 1, result.stats)
    test.assertLessEqual(result.stats.total_seconds, seconds)
    test.assertEqual((result.part_certificates, result.certificate_missing), ([], ""))


class CountCalls(grpc.UnaryStreamClientInterceptor):
    """Counts the Count calls a client starts, failed ones included."""

    def __init__(self):
        self.lock = threading.Lock()
        self.calls = 0

    def intercept_unary_stream(self, continuation, details, request):
        if details.method == "/nqueens.v1.NQueensService/Count":
            with self.lock:
                self.calls += 1
        return continuation(details, request)


class TwoServersTest(TestCase):
    """A job over two servers, "ipv4:A,B", and one part per call."""

    @classmethod
    def setUpClass(cls):
        cls.servers = [Server(), Server()]
        cls.target = "ipv4:" + ",".join(server.target for server in cls.servers)
        cls.client = nqueens.Client(cls.target)
        cls.single = nqueens.Client(cls.servers[0].target)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.single.close()
        calls = [server.stop() for server in cls.servers]
        if not all(any(call["method"] == "Count" for call in logged) for logged in calls):
            raise AssertionError("a server had no part of the spread counts")

    def test_count_equals_one_call(self):
        shares = []
        whole = self.single.count(12)
        spread_count = self.client.count(12, parts=16, progress=shares.append)
        self.assertEqual((whole.solutions, whole.fundamental), (SOLUTIONS[12], FUNDAMENTAL[12]))
        self.assertEqual((spread_count.solutions, spread_count.fundamental),
                         (whole.solutions, whole.fundamental))
        self.assertEqual(spread_count.nodes, sum(
            self.single.count(12, parts=16, part_index=index).nodes for index in range(16)))
        self.assertIsInstance(spread_count, nqueens.Count)
        # Once after each part at least, up to the whole job.
        self.assertGreaterEqual(len(shares), 16)
        self.assertEqual(shares[-1], 1.0)
        self.assertTrue(all(0 < share <= 1 for share in shares), shares)

    def test_parts_one_at_a_time_add_up(self):
        parts = [self.single.count(10, parts=5, part_index=index) for index in range(5)]
        self.assertEqual(sum(part.solutions for part in parts), SOLUTIONS[10])
        self.assertEqual(sum(part.fundamental for part in parts), FUNDAMENTAL[10])
        composition = [0, 0, 4] + [0] * 7
        whole = self.single.count(composition).solutions
        self.assertEqual(sum(self.single.count(composition, parts=3, part_index=index).solutions
                             for index in range(3)), whole)
        self.assertEqual(self.client.count(composition, parts=3).solutions, whole)
        self.assertIsNone(self.client.count(composition, parts=3).fundamental)

    def test_enumerate_every_solution_once_in_part_order(self):
        whole = list(self.single.enumerate(10))
        boards = list(self.client.enumerate(10, parts=7))
        self.assertEqual(len(boards), SOLUTIONS[10])
        self.assertEqual(len(set(map(tuple, boards))), len(boards))
        self.assertEqual(set(map(tuple, boards)), set(map(tuple, whole)))
        for board in boards:
            self.assertEqual(check_board(10, board), (True, True))
        by_part = [board for index in range(7)
                   for board in self.single.enumerate(10, parts=7, part_index=index)]
        self.assertEqual(boards, by_part)
        self.assertEqual(list(self.client.enumerate(10, parts=7, limit=50)), by_part[:50])
        composition = [0, 0, 4, 0, 0, 0, 0, 0]
        self.assertEqual(sorted(self.client.enumerate(composition, parts=4)),
                         sorted(completions(composition)))

    def test_complete_exact(self):
        composition = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]
        result = self.client.complete(composition, "exact", parts=8)
        self.assertEqual(result.outcome, "OUTCOME_SOLVED")
        self.assert_solution_extending(12, result.board, composition)
        self.assertEqual(list(completions(DEAD_END)), [])
        result = self.client.complete(DEAD_END, "exact", parts=3, want_certificate=True)
        self.assertEqual((result.outcome, result.board), ("OUTCOME_UNSOLVABLE", None))
        self.assertEqual(len(result.part_certificates), 3)
        self.assertTrue(all(result.part_certificates), result.part_certificates)
        self.assertEqual(result.certificate, b"")
        with tempfile.TemporaryDirectory() as directory:
            paths = result.save_certificate(os.path.join(directory, "dead.cert"))
            self.assertEqual([os.path.basename(path) for path in paths],
                             [f"dead.cert.part{index}-of-3" for index in range(3)])
            self.assertIn("prove together", check_saved_proof(DEAD_END, paths))
        for index in range(3):
            part = self.single.complete(DEAD_END, "exact", parts=3, part_index=index)
            self.assertEqual(part.outcome, "OUTCOME_UNSOLVABLE")

    def test_complete_at_its_deadline_is_undecided(self):
        board = hard_board()
        started = time.monotonic()
        result = self.client.complete(board, "exact", parts=64, timeout=DEADLINE_SECONDS)
        check_cut_short(self, result, time.monotonic() - started)
        # A part that finds a completion before the deadline still decides.
        composition = [0] * 11 + [5]
        result = self.client.complete(composition, "exact", parts=8, timeout=60)
        self.assertEqual(result.outcome, "OUTCOME_SOLVED")
        self.assert_solution_extending(12, result.board, composition)

    def test_a_part_error_ends_the_job(self):
        with self.assertRaises(nqueens.Error) as raised:
            self.client.count([1, 1, 0, 0], parts=4)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        # 20-queens: each of its 4 parts takes minutes.
        with self.assertRaises(nqueens.Error) as raised:
            self.client.count(20, parts=4, timeout=0.05)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.DEADLINE_EXCEEDED)

    def test_a_progress_that_raises_ends_the_job(self):
        def fail(share):
            raise RuntimeError(f"stopped at {share}")

        with self.assertRaisesRegex(RuntimeError, "^stopped at "):
            self.client.count(12, parts=8, progress=fail)

    def test_over_a_channel_given(self):
        channel = grpc.insecure_channel(self.servers[1].target)
        try:
            with nqueens.Client(channel=channel) as client:
                self.assertEqual(client.count(12, parts=8, window=3).solutions, SOLUTIONS[12])
            self.assertEqual(nqueens.Client(channel=channel).health(), "SERVING")
        finally:
            channel.close()


class ServerGoneTest(TestCase):

    def test_a_server_stopped_in_the_middle_of_a_job(self):
        stopped, survivor = Server(), Server()
        calls = CountCalls()
        stopped_log = []

        def stop_after_some_parts(share):
            # Called after each part: the first time a quarter of the job is
            # done, the first server drains its parts in flight and exits;
            # the parts it was to take go to the other.
            if share >= 0.25 and not stopped_log:
                stopped_log.append(stopped.stop())

        try:
            with nqueens.Client(f"ipv4:{stopped.target},{survivor.target}",
                                interceptors=[calls]) as client:
                result = client.count(14, parts=64, progress=stop_after_some_parts)
        finally:
            survivor_log = survivor.stop()
            if not stopped_log:
                stopped.stop()
        self.assertEqual((result.solutions, result.fundamental),
                         (SOLUTIONS[14], FUNDAMENTAL[14]))
        answered = [[call for call in log if call["method"] == "Count" and call["code"] == "OK"]
                    for log in (stopped_log[0], survivor_log)]
        self.assertGreater(len(answered[0]), 0, "the first server answered parts before it left")
        self.assertEqual(len(answered[0]) + len(answered[1]), 64, "every part answered once")
        self.assertGreater(calls.calls, 64, "a part sent to the stopped server was sent again")

    def test_an_address_nobody_listens_on(self):
        server = Server()
        try:
            with nqueens.Client(f"ipv4:{NOWHERE},{server.target}") as client:
                self.assertEqual(client.count(12, parts=8).solutions, SOLUTIONS[12])
        finally:
            server.stop()
        with nqueens.Client(f"ipv4:{NOWHERE}") as client:
            with self.assertRaises(nqueens.Error) as raised:
                client.count(8, parts=2)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.UNAVAILABLE)


class AioPartsTest(TestCase, unittest.IsolatedAsyncioTestCase):

    @classmethod
    def setUpClass(cls):
        cls.servers = [Server(), Server()]
        cls.target = "ipv4:" + ",".join(server.target for server in cls.servers)

    @classmethod
    def tearDownClass(cls):
        for server in cls.servers:
            server.stop()

    async def test_count_enumerate_complete(self):
        async with nqueens.aio.Client(self.target) as client:
            shares = []
            counted = await client.count(12, parts=16, progress=shares.append)
            self.assertEqual((counted.solutions, counted.fundamental),
                             (SOLUTIONS[12], FUNDAMENTAL[12]))
            self.assertEqual(shares[-1], 1.0)
            one = await client.count(12, parts=16, part_index=3)
            self.assertLess(one.solutions, SOLUTIONS[12])
            boards = [board async for board in client.enumerate(10, parts=5)]
            by_part = [board for index in range(5)
                       async for board in client.enumerate(10, parts=5, part_index=index)]
            self.assertEqual(boards, by_part)
            self.assertEqual(len(set(map(tuple, boards))), SOLUTIONS[10])
            result = await client.complete(DEAD_END, "exact", parts=4, want_certificate=True)
            self.assertEqual((result.outcome, len(result.part_certificates)),
                             ("OUTCOME_UNSOLVABLE", 4))
            with self.assertRaises(ValueError):
                await client.count(8, parts=0)

    async def test_complete_at_its_deadline_is_undecided(self):
        board = hard_board()
        started = time.monotonic()
        # One part in flight, which the deadline itself ends: grpc.aio hands
        # a cancelled call's late completion to the loop the call was made
        # on, which raises (on the next test's loop) once that has closed.
        async with nqueens.aio.Client(self.servers[0].target) as client:
            result = await client.complete(board, "exact", parts=64, window=1,
                                           timeout=DEADLINE_SECONDS)
        check_cut_short(self, result, time.monotonic() - started)

    async def test_a_server_nobody_listens_on(self):
        async with nqueens.aio.Client(f"ipv4:{self.servers[0].target},{NOWHERE}") as client:
            counted = await asyncio.wait_for(client.count(12, parts=8), 60)
        self.assertEqual(counted.solutions, SOLUTIONS[12])


class BadPartsTest(TestCase):
    """Checked before any call."""

    @classmethod
    def setUpClass(cls):
        cls.client = nqueens.Client(NOWHERE)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_parts_and_part_index(self):
        for call in (self.client.count, self.client.enumerate):
            self.assert_refused(ValueError, "parts must be 1 or more, not 0", call, 8, parts=0)
            self.assert_refused(ValueError, "parts must be from 1 to 65536, not 65537",
                                call, 8, parts=65537)
            self.assert_refused(TypeError, "parts must be an int, not str", call, 8, parts="4")
            self.assert_refused(ValueError, "part_index must be below parts (4), not 4",
                                call, 8, parts=4, part_index=4)
            self.assert_refused(ValueError, "part_index must be from 0 to "
                                "18446744073709551615, not -1", call, 8, parts=4, part_index=-1)
            self.assert_refused(TypeError, "part_index needs parts: the number of parts the "
                                "search is cut into", call, 8, part_index=1)
            self.assert_refused(ValueError, "window must be 1 or more, not 0",
                                call, 8, parts=4, window=0)
            self.assert_refused(ValueError, "resolve_every must be 0 seconds or more, not -1",
                                call, 8, parts=4, resolve_every=-1)
            self.assert_refused(TypeError, "resolve_every must be a number of seconds, not str",
                                call, 8, parts=4, resolve_every="5s")

    def test_complete_parts_are_for_the_exact_search(self):
        self.assert_refused(ValueError, "parts cut the exact search: give method 'exact', not "
                            "'pipeline'", self.client.complete, [0] * 8, parts=4)
        self.assert_refused(ValueError, "part_index must be below parts (2), not 2",
                            self.client.complete, [0] * 8, "exact", parts=2, part_index=2)
        for call in (self.client.complete, self.client.enumerate):
            self.assert_refused(TypeError, "progress is for a job spread over parts: give "
                                "parts without part_index", call, [0] * 8, progress=print)
        self.assert_refused(TypeError, "progress is for a job spread over parts: give parts "
                            "without part_index", self.client.enumerate, 8, parts=2,
                            part_index=0, progress=print)

    def test_server_targets(self):
        self.assertEqual(spread.server_targets("ipv4:127.0.0.1:5,127.0.0.2:6"),
                         ["ipv4:127.0.0.1:5", "ipv4:127.0.0.2:6"])
        self.assertEqual(spread.server_targets("ipv6:[::1]:5"), ["ipv6:[::1]:5"])
        self.assertEqual(spread.server_targets("127.0.0.1:7"), ["ipv4:127.0.0.1:7"])
        self.assertEqual(spread.server_targets("unix:/tmp/nqueens.sock"),
                         ["unix:/tmp/nqueens.sock"])
        for target in ("dns:///localhost:7", "dns:localhost:7", "localhost:7"):
            self.assertIn("ipv4:127.0.0.1:7", spread.server_targets(target), target)
        self.assertEqual(spread.name_of("[::1]:9"), ("::1", "9", ""))
        # A name's addresses are called as the name: its :authority, and
        # over TLS the name its certificate is checked against.
        options = spread.channel_options("dns:///localhost:7", True, [])
        self.assertIn(("grpc.default_authority", "localhost:7"), options)
        self.assertIn(("grpc.ssl_target_name_override", "localhost"), options)
        self.assertIn(("grpc.enable_retries", 0), options)
        options = spread.channel_options("ipv4:127.0.0.1:7", True, [])
        self.assertEqual(options, [("grpc.enable_retries", 0)])
        self.assertEqual(spread.name_of("//192.0.2.1:53/name"), ("name", "443", "192.0.2.1:53"))
        with self.assertRaises(nqueens.Error) as raised:
            spread.server_targets("dns:///no-such-host.invalid:7")
        self.assertEqual(raised.exception.code(), grpc.StatusCode.UNAVAILABLE)

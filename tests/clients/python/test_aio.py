"""nqueens.aio.Client, the asyncio client on grpc.aio: every RPC, errors and
interceptors, answers checked by support.check_board."""
import asyncio
import unittest

import grpc
import grpc.aio

import nqueens
import nqueens.aio
from support import ServerTestCase, completions, every_nth


class UnaryRecorder(grpc.aio.UnaryUnaryClientInterceptor):

    def __init__(self, calls):
        self.calls = calls

    async def intercept_unary_unary(self, continuation, details, request):
        self.calls.append(details.method.decode())  # bytes in grpc.aio
        return await continuation(details, request)


class StreamRecorder(grpc.aio.UnaryStreamClientInterceptor):

    def __init__(self, calls):
        self.calls = calls

    async def intercept_unary_stream(self, continuation, details, request):
        self.calls.append(details.method.decode())  # bytes in grpc.aio
        return await continuation(details, request)


class AioTest(ServerTestCase, unittest.IsolatedAsyncioTestCase):

    async def asyncSetUp(self):
        # A grpc.aio channel belongs to the event loop it was made on.
        self.calls = []
        self.client = nqueens.aio.Client(
            self.server.target,
            interceptors=[UnaryRecorder(self.calls), StreamRecorder(self.calls)])

    async def asyncTearDown(self):
        await self.client.close()

    async def test_solve_complete_validate(self):
        solution = (await self.client.solve(300, "random", seed=2)).board
        self.assert_solution_extending(300, solution)
        composition = every_nth(solution, 3)
        result = await self.client.complete(composition, seed=4)
        self.assertEqual((result.outcome, result.stats.seed), ("OUTCOME_SOLVED", 4))
        self.assert_solution_extending(300, result.board, composition)
        self.assertEqual((await self.client.complete([1, 0, 0, 0])).outcome, "OUTCOME_UNSOLVABLE")
        report = await self.client.validate([1, 2, 0, 0])
        self.assertEqual(report.conflicts, [((1, 1), (2, 2), "LINE_DIAGONAL")])

    async def test_streams(self):
        n = 100_000  # above the unary limit: SolveStream, CompleteStream, ValidateStream
        solution = (await self.client.solve(n, "random")).board
        self.assert_solution_extending(n, solution)
        composition = every_nth(solution, 2)
        result = await self.client.complete(composition)
        self.assert_solution_extending(n, result.board, composition)
        self.assertTrue((await self.client.validate(result.board)).complete)

    async def test_count_and_enumerate(self):
        shares = []
        counted = await self.client.count(12, progress=shares.append, progress_seconds=0.001)
        self.assertEqual(counted.solutions, 14_200)  # OEIS A000170
        self.assertTrue(all(0 <= share <= 1 for share in shares))
        composition = [0, 0, 4, 0, 0, 0, 0, 0]
        boards = [board async for board in self.client.enumerate(composition)]
        self.assertEqual(sorted(boards), sorted(completions(composition)))
        self.assertEqual(len([board async for board in self.client.enumerate(8, limit=7)]), 7)

    async def test_complete_batch(self):
        boards = [[0] * 8, [1, 0, 0, 0], [1, 1, 0, 0], [0] * 30]
        answers = [answer async for answer in self.client.complete_batch(boards)]
        self.assertEqual([answer.index for answer in answers], [0, 1, 2, 3])
        self.assert_solution_extending(8, answers[0].result.board)
        self.assertEqual(answers[1].result.outcome, "OUTCOME_UNSOLVABLE")
        self.assertEqual(answers[2].error.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assert_solution_extending(30, answers[3].result.board)

    async def test_health(self):
        self.assertEqual(await self.client.health(), "SERVING")

    async def test_errors(self):
        with self.assertRaises(nqueens.Error) as raised:
            await self.client.complete([0, 3, 0, 0, 6, 0, 0, 0],
                                       metadata=[("x-request-id", "aio-call")])
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("(row 2, column 3) and (row 5, column 6)", raised.exception.details())
        self.assertEqual(raised.exception.request_id(), "aio-call")
        with self.assertRaises(nqueens.Error) as raised:
            [board async for board in self.client.enumerate([2, 2, 0, 0])]
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertRegex(raised.exception.request_id(), "^[0-9a-f]{32}$")
        with self.assertRaises(ValueError):
            await self.client.solve(8, "nope")

    async def test_interceptors_and_own_channel(self):
        await self.client.solve(8)
        await asyncio.gather(self.client.health(), self.client.count(6))
        self.assertEqual(sorted(self.calls), sorted([
            "/nqueens.v1.NQueensService/Solve", "/grpc.health.v1.Health/Check",
            "/nqueens.v1.NQueensService/Count"]))
        async with grpc.aio.insecure_channel(self.server.target) as channel:
            client = nqueens.aio.Client(channel=channel)
            self.assert_solution_extending(8, (await client.solve(8)).board)
            await client.close()  # leaves the caller's channel open
            self.assertEqual(await nqueens.aio.Client(channel=channel).health(), "SERVING")

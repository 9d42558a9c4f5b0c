#!/usr/bin/python3
"""A Python client of the nqueens-server binary.

Uses the bare stubs committed in clients/python/nqueens/v1/ (the package's
client is tested by tests/clients), starts the server on 127.0.0.1 port 0,
calls the six board RPCs (the streams with small chunks) and checks every
board with its own O(n) validator, never trusting the server's.

Run by CTest:
  python_client_test.py --server PATH --source-dir DIR
"""
import importlib
import os
import sys

import grpc

import python_support

CHUNK_SIZE = 7



def check_board(n, columns):
    """(valid, complete) by the Python client tests' own O(n) check
    (tests/clients/python/support.py), never the server's."""
    support = os.path.join(python_support.OPTIONS.source_dir, "tests", "clients", "python")
    if support not in sys.path:
        sys.path.insert(0, support)
    return importlib.import_module("support").check_board(n, columns)


def every_nth(solution, stride):
    """A composition keeping every stride-th queen of solution."""
    return [column if row % stride == 0 else 0
            for row, column in enumerate(solution)]


def chunks(columns, size=CHUNK_SIZE):
    """(offset, columns) pairs covering the board in row order."""
    return [(offset, columns[offset:offset + size])
            for offset in range(0, len(columns), size)]


class NQueensClientTest(python_support.ServerTestCase):

    # --- helpers ---

    def assert_solution_extending(self, n, solution, composition):
        valid, complete = check_board(n, list(solution))
        self.assertTrue(valid and complete, f"not a solution of n = {n}")
        for row, column in enumerate(composition):
            if column:
                self.assertEqual(solution[row], column, f"row {row + 1} was moved")

    def solution(self, n):
        # A random solution: sub-compositions of the explicit construction are
        # much harder to complete for the pipeline.
        response = self.stub.Solve(self.pb.SolveRequest(n=n, method=self.pb.METHOD_RANDOM, seed=1))
        self.assert_solution_extending(n, response.columns, [])
        return list(response.columns)

    def queens(self, composition):
        return [self.pb.Queen(row=row, column=column)
                for row, column in enumerate(composition, start=1) if column]

    def read_result_stream(self, responses):
        """The header and the board of a SolveStream/CompleteStream response."""
        responses = iter(responses)
        first = next(responses)
        self.assertEqual(first.WhichOneof("part"), "header")
        board = []
        for message in responses:
            self.assertEqual(message.WhichOneof("part"), "chunk")
            self.assertEqual(message.chunk.offset, len(board))
            self.assertLessEqual(len(message.chunk.columns), CHUNK_SIZE)
            board.extend(message.chunk.columns)
        return first.header, board

    # --- the six RPCs ---

    def test_solve(self):
        for method in (self.pb.METHOD_CONSTRUCTIVE, self.pb.METHOD_RANDOM):
            for n in (1, 8, 1000):
                response = self.stub.Solve(self.pb.SolveRequest(n=n, method=method))
                self.assertEqual(response.outcome, self.pb.OUTCOME_SOLVED)
                self.assert_solution_extending(n, response.columns, [])
            for n in (2, 3):
                response = self.stub.Solve(self.pb.SolveRequest(n=n, method=method))
                self.assertEqual(response.outcome, self.pb.OUTCOME_UNSOLVABLE)

    def test_complete_dense_and_sparse(self):
        composition = every_nth(self.solution(1000), 3)
        dense = self.stub.Complete(self.pb.CompleteRequest(n=1000, columns=composition))
        self.assertEqual(dense.outcome, self.pb.OUTCOME_SOLVED)
        self.assert_solution_extending(1000, dense.columns, composition)
        sparse = self.stub.Complete(self.pb.CompleteRequest(
            n=1000, queens=self.queens(composition), seed=7))
        self.assertEqual(sparse.outcome, self.pb.OUTCOME_SOLVED)
        self.assertEqual(sparse.stats.seed, 7)
        self.assert_solution_extending(1000, sparse.columns, composition)

    def test_complete_unsolvable(self):
        # 4-queens has the solutions 2 4 1 3 and 3 1 4 2: no corner queen.
        response = self.stub.Complete(self.pb.CompleteRequest(
            n=4, queens=[self.pb.Queen(row=1, column=1)]))
        self.assertEqual(response.outcome, self.pb.OUTCOME_UNSOLVABLE)

    def test_validate(self):
        good = self.stub.Validate(self.pb.ValidateRequest(n=50, columns=self.solution(50)))
        self.assertTrue(good.valid and good.complete)
        bad = self.stub.Validate(self.pb.ValidateRequest(n=4, columns=[1, 2, 0, 0]))
        self.assertFalse(bad.valid)
        self.assertEqual(bad.attacking_pairs, 1)
        self.assertEqual((bad.conflicts[0].first.row, bad.conflicts[0].second.row), (1, 2))

    def test_solve_stream(self):
        header, board = self.read_result_stream(self.stub.SolveStream(self.pb.SolveStreamRequest(
            n=100, method=self.pb.METHOD_RANDOM, chunk_size=CHUNK_SIZE)))
        self.assertEqual(header.outcome, self.pb.OUTCOME_SOLVED)
        self.assert_solution_extending(100, board, [])

    def test_complete_stream(self):
        composition = every_nth(self.solution(100), 2)
        requests = [self.pb.CompleteStreamRequest(header=self.pb.CompleteStreamHeader(
            n=100, chunk_size=CHUNK_SIZE))]
        requests += [self.pb.CompleteStreamRequest(chunk=self.pb.BoardChunk(
            offset=offset, columns=part)) for offset, part in chunks(composition)]
        header, board = self.read_result_stream(self.stub.CompleteStream(iter(requests)))
        self.assertEqual(header.outcome, self.pb.OUTCOME_SOLVED)
        self.assert_solution_extending(100, board, composition)

    def validate_stream(self, board):
        requests = [self.pb.ValidateStreamRequest(
            header=self.pb.ValidateStreamHeader(n=len(board)))]
        requests += [self.pb.ValidateStreamRequest(chunk=self.pb.BoardChunk(
            offset=offset, columns=part)) for offset, part in chunks(board)]
        return self.stub.ValidateStream(iter(requests))

    def test_validate_stream(self):
        solution = self.solution(100)
        self.assertEqual(check_board(100, solution), (True, True))
        response = self.validate_stream(solution)
        self.assertTrue(response.valid and response.complete)

        attacking = [0] * 100
        attacking[0] = attacking[99] = 5  # rows 1 and 100 share column 5
        self.assertEqual(check_board(100, attacking), (False, False))
        response = self.validate_stream(attacking)
        self.assertFalse(response.valid)
        self.assertEqual(response.attacking_pairs, 1)
        conflict = response.conflicts[0]
        self.assertEqual((conflict.first.row, conflict.second.row, conflict.line),
                         (1, 100, self.pb.LINE_COLUMN))

    # --- bad input ---

    def test_attacking_queens_are_named(self):
        with self.assertRaises(grpc.RpcError) as raised:
            self.stub.Complete(self.pb.CompleteRequest(n=8, columns=[0, 3, 0, 0, 6, 0, 0, 0]))
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("(row 2, column 3) and (row 5, column 6)", raised.exception.details())

    def test_stream_without_header(self):
        chunk = self.pb.ValidateStreamRequest(chunk=self.pb.BoardChunk(offset=0, columns=[1]))
        with self.assertRaises(grpc.RpcError) as raised:
            self.stub.ValidateStream(iter([chunk]))
        self.assertEqual(raised.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("the first message must be a header", raised.exception.details())


def main():
    python_support.main(__doc__.splitlines()[0])


if __name__ == "__main__":
    main()

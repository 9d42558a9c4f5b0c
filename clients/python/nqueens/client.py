"""The client: one channel to nqueens-server and a method per RPC.

Boards are the service's array Q: board[i] is the 1-based column of the queen
in row i + 1, 0 for an empty row. They go in as sequences of ints or as numpy
arrays; boards come back as lists, or as numpy arrays when the input was one
(or numpy=True). numpy is imported only then, so it is optional.
"""
import contextlib
import dataclasses
import json
import numbers
from typing import Callable, List, Optional, Tuple

import grpc

from nqueens.v1 import nqueens_pb2 as pb
from nqueens.v1 import nqueens_pb2_grpc as pb_grpc

# proto/wire/limits.h, which the server and the C++ client share.
MAX_MESSAGE_BYTES = 64 << 20
MAX_CHUNK_SIZE = 65536
STREAMING_THRESHOLD = 65536  # boards of more rows go through the streams
MAX_SPARSE_QUEENS = 1 << 20

# As client/channel.cc: calls spread over every server a target names, and a
# call refused by a server that shuts down is retried (CANCELLED too: such a
# server cancels calls not yet handed to a handler, grpc/grpc#41785).
_SERVICE_CONFIG = json.dumps({
    "loadBalancingConfig": [{"round_robin": {}}],
    "methodConfig": [{
        "name": [{"service": "nqueens.v1.NQueens"}],
        "retryPolicy": {
            "maxAttempts": 5,
            "initialBackoff": "0.1s",
            "maxBackoff": "2s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"],
        },
    }],
})


class Error(Exception):
    """A failed call: `code` is its grpc.StatusCode, `message` the reason
    (for INVALID_ARGUMENT, the row and column at fault)."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


@dataclasses.dataclass
class Result:
    """What solve() and complete() answer."""
    outcome: str  # "SOLVED", "UNSOLVABLE" (proved) or "UNDECIDED"
    board: object  # the full board when SOLVED, else None
    stats: pb.Stats  # the seed (pass it back to reproduce), method, times
    certificate: bytes = b""  # complete(want_certificate=True), UNSOLVABLE
    certificate_missing: str = ""  # why there is no certificate


@dataclasses.dataclass
class Validation:
    valid: bool  # no two queens attack each other
    complete: bool  # valid and a queen in every row
    queen_count: int
    attacking_pairs: int
    # The first few: ((row, column), (row, column), line), 1-based, line
    # "COLUMN", "DIAGONAL" or "ANTI_DIAGONAL".
    conflicts: List[Tuple[Tuple[int, int], Tuple[int, int], str]]


@dataclasses.dataclass
class Count:
    solutions: int
    fundamental: Optional[int]  # up to symmetry; for the empty board only
    nodes: int
    elapsed_seconds: float


class Client:
    """A connection to nqueens-server at `target` ("host:port", or a gRPC
    target naming several servers, e.g. "dns:///nqueens:50051").

    tls: False for plaintext, True for TLS trusting the system's CAs, or the
    path of a PEM file of the CAs to trust. token: sent with every call as
    `authorization: Bearer <token>` (servers run with --auth-token-file).
    """

    def __init__(self, target: str, tls=False, token: Optional[str] = None):
        options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                   ("grpc.service_config", _SERVICE_CONFIG)]
        if tls is False or tls is None:
            self._channel = grpc.insecure_channel(target, options)
        else:
            roots = None
            if tls is not True:
                with open(tls, "rb") as file:
                    roots = file.read()
            credentials = grpc.ssl_channel_credentials(roots)
            self._channel = grpc.secure_channel(target, credentials, options)
        self._stub = pb_grpc.NQueensStub(self._channel)
        self._metadata = [("authorization", f"Bearer {token}")] if token else None

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def solve(self, n: int, method: str = "constructive", *, seed=None,
              variant: int = 0, symmetry: int = 0, timeout=None,
              numpy: bool = False, **limits) -> Result:
        """A full solution of the n x n board.

        method: a value of nqueens.v1.Method in lower case with hyphens,
        as the CLI spells it ("constructive", "min-conflicts", ...; "formula"
        takes member `variant` of the explicit families);
        symmetry 0-7 maps the result by a symmetry of the square; limits:
        max_backtracks, max_restarts, max_exact_nodes, max_exact_seconds.
        """
        request = pb.SolveRequest(
            n=n, method=_enum(pb.Method, method), seed=seed, variant=variant,
            symmetry=symmetry, limits=pb.Limits(**limits))
        with _errors():
            if n <= STREAMING_THRESHOLD:
                response = self._stub.Solve(request, timeout=timeout,
                                            metadata=self._metadata)
                return _result(response, response.columns, n, numpy)
            header, board = _collect(self._stub.SolveStream(
                request, timeout=timeout, metadata=self._metadata))
            return _result(header, board, n, numpy)

    def complete(self, board, method: str = "pipeline", *, seed=None,
                 want_certificate: bool = False, timeout=None,
                 numpy: Optional[bool] = None, **limits) -> Result:
        """Extends a composition to a full solution keeping its queens, or
        proves none exists (outcome "UNSOLVABLE").

        method: "pipeline", "min-conflicts" or "exact"; limits as in solve().
        """
        columns, was_numpy = _columns(board)
        n, queens = len(columns), _sparse_queens(columns)
        numpy = was_numpy if numpy is None else numpy
        options = dict(seed=seed, limits=pb.Limits(**limits),
                       method=_enum(pb.CompleteMethod, method, "COMPLETE_METHOD_"),
                       want_certificate=want_certificate)
        with _errors():
            if n <= STREAMING_THRESHOLD:
                response = self._stub.Complete(
                    pb.CompleteRequest(n=n, **_board_fields(columns, queens), **options),
                    timeout=timeout, metadata=self._metadata)
                return _result(response, response.columns, n, numpy)
            first = pb.CompleteStreamRequest(header=pb.CompleteStreamHeader(
                n=n, queens=queens or [], **options))
            header, solution = _collect(self._stub.CompleteStream(
                _board_stream(first, columns, queens), timeout=timeout,
                metadata=self._metadata))
            return _result(header, solution, n, numpy)

    def validate(self, board, *, max_conflicts: int = 0,
                 timeout=None) -> Validation:
        """Checks a board for attacking queens and completeness;
        max_conflicts bounds the conflicts listed (0: the server's 10)."""
        columns, _ = _columns(board)
        n, queens = len(columns), _sparse_queens(columns)
        with _errors():
            if n <= STREAMING_THRESHOLD:
                response = self._stub.Validate(
                    pb.ValidateRequest(n=n, max_conflicts=max_conflicts,
                                       **_board_fields(columns, queens)),
                    timeout=timeout, metadata=self._metadata)
            else:
                first = pb.ValidateStreamRequest(header=pb.ValidateStreamHeader(
                    n=n, queens=queens or [], max_conflicts=max_conflicts))
                response = self._stub.ValidateStream(
                    _board_stream(first, columns, queens), timeout=timeout,
                    metadata=self._metadata)
        return Validation(
            valid=response.valid, complete=response.complete,
            queen_count=response.queen_count,
            attacking_pairs=response.attacking_pairs,
            conflicts=[((c.first.row, c.first.column),
                        (c.second.row, c.second.column), pb.Line.Name(c.line))
                       for c in response.conflicts])

    def count(self, n_or_board, *, timeout=None,
              progress: Optional[Callable[[float], None]] = None,
              progress_seconds: float = 0.0) -> Count:
        """The number of solutions of the n x n board (an int), or of
        completions of a composition with at most 64 free rows (a board).

        progress, if given, is called with the share of the search done
        while the server counts, every progress_seconds (0: 1 s).
        """
        if isinstance(n_or_board, numbers.Integral):
            request = pb.CountRequest(n=int(n_or_board))
        else:
            columns, _ = _columns(n_or_board)
            request = pb.CountRequest(
                n=len(columns), **_board_fields(columns, _sparse_queens(columns)))
        request.progress_seconds = progress_seconds
        result = None
        with _errors():
            for message in self._stub.Count(request, timeout=timeout,
                                            metadata=self._metadata):
                if message.WhichOneof("part") == "result":
                    result = message.result
                elif progress is not None:
                    progress(message.progress.fraction_done)
        if result is None:
            raise _malformed("no count")
        return Count(
            solutions=result.solutions,
            fundamental=result.fundamental if result.HasField("fundamental") else None,
            nodes=result.nodes, elapsed_seconds=result.elapsed_seconds)


@contextlib.contextmanager
def _errors():
    """Turns a failed call into Error."""
    try:
        yield
    except grpc.RpcError as error:
        raise Error(error.code(), error.details()) from error


def _malformed(what):
    return Error(grpc.StatusCode.INTERNAL, f"server sent a malformed result: {what}")


def _enum(enum, name, prefix=""):
    """The value of a method name such as "min-conflicts"; ValueError names it."""
    return enum.Value(prefix + name.upper().replace("-", "_"))


def _columns(board):
    """The board as a list of ints, and whether it was a numpy array."""
    is_array = type(board).__module__ == "numpy"  # tells without numpy
    if is_array and board.ndim != 1:
        raise ValueError("a board is one-dimensional: board[i] is the "
                         "column of row i + 1's queen, 0 for none")
    columns = board.tolist() if is_array else list(board)
    # Checked here: in a stream, the message would fail on gRPC's thread and
    # the call would end only CANCELLED. Too large a column the server names.
    if columns and (min(columns) < 0 or max(columns) >= 1 << 32):
        raise ValueError("a board's columns are 1-based, 0 for an empty row")
    return columns, is_array


def _sparse_queens(columns):
    """The board's queens when it travels as a list of them, else None: with
    few queens, as the C++ client decides (client/remote_backend.cc)."""
    count = len(columns) - columns.count(0)
    if count < len(columns) / 8 and count <= MAX_SPARSE_QUEENS:
        return [pb.Queen(row=row, column=column)
                for row, column in enumerate(columns, start=1) if column]
    return None


def _board_fields(columns, queens):
    """A unary request's board: sparse or dense."""
    return {"queens": queens} if queens is not None else {"columns": columns}


def _board_stream(first, columns, queens):
    """A request stream: its header, then, unless the header holds the board
    as queens, the board in row-order chunks (proto/wire/chunks.h)."""
    yield first
    if queens is None:
        for offset in range(0, len(columns), MAX_CHUNK_SIZE):
            yield type(first)(chunk=pb.BoardChunk(
                offset=offset, columns=columns[offset:offset + MAX_CHUNK_SIZE]))


def _collect(responses):
    """A result stream's header, then its board, in chunks when SOLVED."""
    header, board = None, []
    for message in responses:
        if message.WhichOneof("part") == "header":
            if header is not None:
                raise _malformed("a second result header")
            header = message.header
        elif header is None or header.outcome != pb.SOLVED:
            raise _malformed("a board chunk without a SOLVED header")
        elif message.chunk.offset != len(board):
            raise _malformed(f"a chunk at row {message.chunk.offset + 1}, "
                             f"expected row {len(board) + 1}")
        else:
            board.extend(message.chunk.columns)
    if header is None:
        raise _malformed("no result header")
    return header, board


def _result(message, columns, n, numpy):
    """A Result from a SolveResponse, CompleteResponse or ResultHeader."""
    if message.outcome == pb.OUTCOME_UNSPECIFIED:
        raise _malformed("no outcome")
    board = None
    if message.outcome == pb.SOLVED:
        if len(columns) != n:
            raise _malformed(f"a board of {len(columns)} rows for n = {n}")
        board = _board_out(columns, numpy)
    return Result(
        outcome=pb.Outcome.Name(message.outcome), board=board,
        stats=message.stats,
        # SolveResponse has no certificate fields.
        certificate=getattr(message, "certificate", b""),
        certificate_missing=getattr(message, "certificate_missing", ""))


def _board_out(columns, numpy):
    if not numpy:
        return list(columns)
    import numpy as np  # only for callers who use arrays: numpy is optional
    return np.fromiter(columns, dtype=np.uint32, count=len(columns))

"""Client: the blocking client, a method per RPC of nqueens.v1.NQueens and
the health check. Boards above 65,536 rows go through the streaming RPCs by
themselves, in chunks, as with the C++ CLI."""
import contextlib
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple,
                    Union)

import grpc

from nqueens import channel as channels
from nqueens import requests, results
from nqueens.errors import raised_as_error, request_id_in
from nqueens.requests import STREAMING_THRESHOLD, Board, Limits, Metadata, uint
from nqueens.results import BatchAnswer, Count, Result, Validation
from nqueens.v1 import nqueens_pb2 as pb
from nqueens.v1 import nqueens_pb2_grpc as pb_grpc

Interceptor = Union[grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                    grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor]
CallArguments = Dict[str, Any]  # a stub call's timeout and metadata


class Client:
    """Calls nqueens-server at `target` ("host:port", or a gRPC target naming
    several servers, e.g. "dns:///nqueens:50051"), or over `channel`.

    tls: False for plaintext, True for TLS trusting the system's CAs, or the
    path of a PEM file of the CAs to trust. token: sent with every call as
    `authorization: Bearer <token>` (servers run with --auth-token-file).
    options: gRPC channel options, over this package's defaults.
    interceptors: gRPC client interceptors, around every call.
    metadata: (key, value) pairs sent with every call; each call may add its own.
    channel: a grpc.Channel of the caller's instead of target, tls and
    options; close() leaves it open.

    A failed call raises nqueens.Error; a bad argument TypeError or ValueError.
    """

    def __init__(self, target: Optional[str] = None, *, tls: channels.Tls = False,
                 token: Optional[str] = None, options: channels.Options = (),
                 interceptors: Sequence[Interceptor] = (), metadata: Optional[Metadata] = None,
                 channel: Optional[grpc.Channel] = None):
        if (target is None) == (channel is None):
            raise TypeError("give a target or a channel: one of them, not both")
        if channel is not None and (tls or options):
            raise TypeError("tls and options are for the channel the client makes: "
                            "set them on the channel given instead")
        self._metadata = channels.client_metadata(token, metadata)
        self._owned: Optional[grpc.Channel] = None
        if channel is None:
            merged = channels.options_with_defaults(options)
            credentials = channels.credentials(tls)
            channel = self._owned = (
                grpc.insecure_channel(target, merged) if credentials is None
                else grpc.secure_channel(target, credentials, merged))
        channel = grpc.intercept_channel(channel, *interceptors)
        self._stub = pb_grpc.NQueensStub(channel)
        self._health = channel.unary_unary(channels.HEALTH_CHECK)  # bytes in, bytes out

    def close(self) -> None:
        """Closes the channel the client made (not one it was given)."""
        if self._owned is not None:
            self._owned.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _call(self, timeout: Optional[float], metadata: Optional[Metadata]
              ) -> Iterator[Tuple[CallArguments, str]]:
        """A call's arguments and request id; a failure in the block raises
        Error with that id."""
        timeout = requests.timeout_of(timeout)
        sent, request_id = requests.call_metadata(metadata, self._metadata)
        with raised_as_error(request_id):
            yield {"timeout": timeout, "metadata": sent}, request_id

    def solve(self, n: int, method: str = "constructive", *, seed: Optional[int] = None,
              variant: int = 0, symmetry: int = 0, limits: Optional[Limits] = None,
              numpy: bool = False, timeout: Optional[float] = None,
              metadata: Optional[Metadata] = None) -> Result:
        """A full solution of the n x n board.

        method: a value of nqueens.v1.Method in lower case, "-" between words
        ("constructive", "random", "min-conflicts", "backtracking", "genetic",
        "formula"; "formula" builds member `variant` of the explicit families);
        symmetry 0-7 maps the result by a symmetry of the square; seed: unset,
        the server picks one (result.stats.seed); numpy: the board as an array.
        """
        request = requests.solve_request(n, method, seed, variant, symmetry, limits)
        with self._call(timeout, metadata) as (call, _):
            if request.n <= STREAMING_THRESHOLD:
                response = self._stub.Solve(request, **call)
                return results.result_of(response, response.columns, request.n, numpy)
            stream = results.ResultStream(request.n, numpy)
            for message in self._stub.SolveStream(request, **call):
                stream.add(message)
            return stream.result()

    def complete(self, board: Board, method: str = "pipeline", *, seed: Optional[int] = None,
                 limits: Optional[Limits] = None, want_certificate: bool = False,
                 numpy: Optional[bool] = None, timeout: Optional[float] = None,
                 metadata: Optional[Metadata] = None) -> Result:
        """Extends a composition to a full solution keeping its queens, or
        proves none exists (outcome "UNSOLVABLE", with a certificate if
        want_certificate). method: "pipeline", "min-conflicts" or "exact".
        The board comes back as it went (a list or a numpy array) unless
        numpy says which."""
        columns, was_array = requests.columns_of(board)
        options = requests.complete_options(method, seed, limits, want_certificate)
        numpy = was_array if numpy is None else numpy
        n = len(columns)
        with self._call(timeout, metadata) as (call, _):
            if n <= STREAMING_THRESHOLD:
                response = self._stub.Complete(pb.CompleteRequest(
                    n=n, **requests.board_fields(columns), **options), **call)
                return results.result_of(response, response.columns, n, numpy)
            stream = results.ResultStream(n, numpy)
            for message in self._stub.CompleteStream(
                    requests.complete_stream(columns, options), **call):
                stream.add(message)
            return stream.result()

    def validate(self, board: Board, *, max_conflicts: int = 0,
                 timeout: Optional[float] = None,
                 metadata: Optional[Metadata] = None) -> Validation:
        """Checks a board for attacking queens and completeness;
        max_conflicts bounds the conflicts listed (0: the server's 10)."""
        columns, _ = requests.columns_of(board)
        max_conflicts = uint("max_conflicts", max_conflicts, 32)
        with self._call(timeout, metadata) as (call, _):
            if len(columns) <= STREAMING_THRESHOLD:
                response = self._stub.Validate(pb.ValidateRequest(
                    n=len(columns), max_conflicts=max_conflicts,
                    **requests.board_fields(columns)), **call)
            else:
                response = self._stub.ValidateStream(
                    requests.validate_stream(columns, max_conflicts), **call)
        return results.validation_of(response)

    def count(self, n_or_board: Union[int, Board], *,
              progress: Optional[Callable[[float], None]] = None,
              progress_seconds: float = 0.0, timeout: Optional[float] = None,
              metadata: Optional[Metadata] = None) -> Count:
        """The number of solutions of the n x n board (an int), or of
        completions of a composition with at most 64 free rows (a board).
        progress, if given, is called with the share of the search done
        while the server counts, every progress_seconds (0: 1 s)."""
        request = requests.count_request(n_or_board, progress_seconds)
        result = None
        with self._call(timeout, metadata) as (call, request_id):
            for message in self._stub.Count(request, **call):
                if message.WhichOneof("part") == "result":
                    result = message.result
                elif progress is not None:
                    progress(message.progress.fraction_done)
        return results.count_of(result, request_id)

    def enumerate(self, n_or_board: Union[int, Board], *, limit: int = 0,
                  timeout: Optional[float] = None,
                  metadata: Optional[Metadata] = None) -> Iterator[List[int]]:
        """Every solution of the n x n board (an int), or completion of a
        composition (a board), in a fixed order, up to `limit` (0: all).
        The call starts at the first next(); leaving the loop early ends it."""
        request = requests.enumerate_request(n_or_board, limit)
        requests.timeout_of(timeout)  # checked now, not at the first next()
        return self._enumerate(request, timeout, metadata)

    def _enumerate(self, request: pb.EnumerateRequest, timeout: Optional[float],
                   metadata: Optional[Metadata]) -> Iterator[List[int]]:
        with self._call(timeout, metadata) as (call, _):
            responses = self._stub.Enumerate(request, **call)
            try:
                for message in responses:
                    for board in message.boards:
                        yield list(board.columns)
            finally:
                responses.cancel()  # a no-op once the stream has ended

    def complete_batch(self, boards: Iterable[Board], method: str = "pipeline", *,
                       seed: Optional[int] = None, limits: Optional[Limits] = None,
                       want_certificate: bool = False, timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> Iterator[BatchAnswer]:
        """complete() for many boards of at most 65,536 rows over one call
        (CompleteBatch): an answer per board in their order, each with its
        result or its own error. Options as in complete(), for every board.
        The call starts at the first next(); leaving the loop early ends it."""
        options = requests.complete_options(method, seed, limits, want_certificate)
        messages, items = requests.batch_requests(boards, options)
        requests.timeout_of(timeout)
        return self._complete_batch(messages, items, timeout, metadata)

    def _complete_batch(self, messages: List[pb.CompleteBatchRequest],
                        items: List[Tuple[int, bool]], timeout: Optional[float],
                        metadata: Optional[Metadata]) -> Iterator[BatchAnswer]:
        with self._call(timeout, metadata) as (call, request_id):
            responses = self._stub.CompleteBatch(iter(messages), **call)
            try:
                for message in responses:
                    request_id = request_id_in(responses.initial_metadata(), request_id)
                    yield from results.batch_answers(message, items, request_id)
            finally:
                responses.cancel()

    def health(self, service: str = "", *, timeout: Optional[float] = None,
               metadata: Optional[Metadata] = None) -> str:
        """grpc.health.v1 Check: "SERVING", or "NOT_SERVING" while the server
        shuts down; of the server ("") or of a service ("nqueens.v1.NQueens")."""
        request = channels.health_request(service)
        with self._call(timeout, metadata) as (call, _):
            return channels.health_status(self._health(request, **call))

"""Client: the blocking client, a method per RPC of nqueens.v1.NQueensService and
the health check. Boards above 65,536 rows go through the streaming RPCs by
themselves, in chunks, as with the C++ CLI."""
import contextlib
import time
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple,
                    Union)

import grpc

from nqueens import channel as channels
from nqueens import requests, results, spread
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

    count(), enumerate() and complete(method="exact") take parts=K: the
    search cut into K parts, spread over every server behind the target
    (each address of "ipv4:a,b", each address "dns:///name:port" or
    "name:port" resolves to), `window` parts in flight on each; a part whose
    server fails goes to another, and the answer is what one call would
    answer. With a channel given, the parts all go over it.
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
        # What a spread job needs to open a channel to each server.
        self._target, self._tls, self._options = target, tls, options
        self._interceptors = interceptors
        # Only a channel it made itself is known to be plaintext.
        self._plaintext = channel is None and not tls
        if channel is None:
            merged = channels.options_with_defaults(options)
            credentials = channels.credentials(tls)
            channel = self._owned = (
                grpc.insecure_channel(target, merged) if credentials is None
                else grpc.secure_channel(target, credentials, merged))
        channel = grpc.intercept_channel(channel, *interceptors)
        self._stub = pb_grpc.NQueensServiceStub(channel)
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
        with raised_as_error(request_id, self._plaintext):
            yield {"timeout": timeout, "metadata": sent}, request_id

    @contextlib.contextmanager
    def _spread(self, part_count: int, window: int, call: Callable[..., Any],
                progress: Optional[spread.Progress], completes: bool = False
                ) -> Iterator[spread.Threads]:
        """A job of part_count parts (of complete() when `completes`) over a
        client per server behind the target, each on a channel of its own,
        closed after the job; with a channel given, over this client alone."""
        servers = spread.clients_per_server(
            self, self._target, self._tls, self._options,
            lambda target, options: Client(target, tls=self._tls, options=options,
                                           interceptors=self._interceptors,
                                           metadata=self._metadata))

        def close() -> None:
            for server in servers:
                server.close()

        job = spread.Job(part_count, len(servers), completes)
        with spread.Threads(job, servers, window, call, progress,
                            close if self._target is not None else None) as run:
            yield run

    def solve(self, n: int, method: str = "constructive", *, seed: Optional[int] = None,
              variant: int = 0, symmetry: int = 0, limits: Optional[Limits] = None,
              numpy: bool = False, timeout: Optional[float] = None,
              metadata: Optional[Metadata] = None) -> Result:
        """A full solution of the n x n board.

        method: a value of nqueens.v1.Method without its METHOD_ prefix, in
        lower case, "-" between words ("constructive", "random",
        "min-conflicts", "backtracking", "genetic", "formula"; "formula"
        builds member `variant` of the explicit families);
        symmetry 0-7 maps the result by a symmetry of the square; seed: unset,
        the server picks one (result.stats.seed); numpy: the board as an array.
        """
        request = requests.solve_request(n, method, seed, variant, symmetry, limits)
        with self._call(timeout, metadata) as (call, _):
            if request.n <= STREAMING_THRESHOLD:
                response = self._stub.Solve(request, **call)
                return results.result_of(response, response.columns, request.n, numpy)
            stream = results.ResultStream(request.n, numpy)
            for message in self._stub.SolveStream(
                    requests.solve_stream_request(request), **call):
                stream.add(message)
            return stream.result()

    def complete(self, board: Board, method: str = "pipeline", *, seed: Optional[int] = None,
                 limits: Optional[Limits] = None, want_certificate: bool = False,
                 certificate_format: str = "binary",
                 numpy: Optional[bool] = None, parts: Optional[int] = None,
                 part_index: Optional[int] = None, window: int = 2,
                 progress: Optional[Callable[[float], None]] = None,
                 timeout: Optional[float] = None,
                 metadata: Optional[Metadata] = None) -> Result:
        """Extends a composition to a full solution keeping its queens, or
        proves none exists (outcome "OUTCOME_UNSOLVABLE", with a certificate
        if want_certificate: "binary", compact, or "text", for reading, as
        certificate_format says; result.save_certificate writes it).
        method: "pipeline", "min-conflicts" or "exact".
        The board comes back as it went (a list or a numpy array) unless
        numpy says which.

        method "exact" only: parts=K and part_index=I search part I of K
        (OUTCOME_UNSOLVABLE: that part holds no completion); parts=K alone
        spreads the K parts over the servers, `window` in flight on each:
        OUTCOME_SOLVED as soon as a part is (the others are cancelled),
        OUTCOME_UNSOLVABLE if every part is (result.part_certificates:
        theirs, in part order), else OUTCOME_UNDECIDED, as when the job's
        timeout passes first (the parts in flight are cancelled; stats: the
        parts done). progress(share of the parts done)."""
        columns, was_array = requests.columns_of(board)
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format, parts, part_index)
        numpy = was_array if numpy is None else numpy
        if requests.spreads(parts, part_index, window):
            return self._spread_complete(columns, options, numpy, window, progress, timeout,
                                         metadata)
        requests.no_progress(progress)
        return self._complete(columns, options, numpy, timeout, metadata)

    def _spread_complete(self, columns: List[int], options: Dict[str, Any], numpy: bool,
                         window: int, progress: Optional[Callable[[float], None]],
                         timeout: Optional[float], metadata: Optional[Metadata]) -> Result:
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Client, part: int, _: spread.Report) -> Result:
            return server._complete(columns, {**options, "part_index": part}, numpy,
                                    deadline.left(), metadata)

        with self._spread(options["part_count"], window, call, progress, completes=True) as run:
            job = run.finish()
        return spread.completion(job, time.monotonic() - started)

    def _complete(self, columns: List[int], options: Dict[str, Any], numpy: bool,
                  timeout: Optional[float], metadata: Optional[Metadata]) -> Result:
        n = len(columns)
        with self._call(timeout, metadata) as (call, _):
            if not requests.streams_completion(n, options):
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
              progress_seconds: float = 0.0, parts: Optional[int] = None,
              part_index: Optional[int] = None, window: int = 2,
              timeout: Optional[float] = None, metadata: Optional[Metadata] = None) -> Count:
        """The number of solutions of the n x n board (an int), or of
        completions of a composition with at most 64 free rows (a board).
        progress, if given, is called with the share of the search done
        while the server counts, every progress_seconds (0: 1 s).

        parts=K and part_index=I count part I of K (the K parts' counts add
        up to the whole); parts=K alone spreads the K parts over the
        servers, `window` in flight on each, and answers their sum
        (elapsed_seconds: the job's time); progress is then the job's share
        done, and timeout the job's."""
        request = requests.count_request(n_or_board, progress_seconds, parts, part_index)
        if not requests.spreads(parts, part_index, window):
            return self._count(request, progress, timeout, metadata)
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Client, part: int, report: spread.Report) -> Count:
            return server._count(requests.with_part(request, part), report, deadline.left(),
                                 metadata)

        with self._spread(request.part_count, window, call, progress) as run:
            job = run.finish()
        return spread.count_total(job.results.values(), time.monotonic() - started)

    def _count(self, request: pb.CountRequest, progress: Optional[Callable[[float], None]],
               timeout: Optional[float], metadata: Optional[Metadata]) -> Count:
        result = None
        with self._call(timeout, metadata) as (call, request_id):
            for message in self._stub.Count(request, **call):
                if message.WhichOneof("part") == "result":
                    result = message.result
                elif progress is not None:
                    progress(message.progress.fraction_done)
        return results.count_of(result, request_id)

    def enumerate(self, n_or_board: Union[int, Board], *, limit: int = 0,
                  parts: Optional[int] = None, part_index: Optional[int] = None,
                  window: int = 2, progress: Optional[Callable[[float], None]] = None,
                  timeout: Optional[float] = None,
                  metadata: Optional[Metadata] = None) -> Iterator[List[int]]:
        """Every solution of the n x n board (an int), or completion of a
        composition (a board), in a fixed order, up to `limit` (0: all).
        The call starts at the first next(); leaving the loop early ends it.

        parts=K and part_index=I: the solutions of part I of K; parts=K
        alone spreads the K parts over the servers, `window` in flight on
        each, and yields part 0's solutions, then part 1's...: every
        solution once, in another order than the whole's. progress(share of
        the parts done); timeout: the job's."""
        request = requests.enumerate_request(n_or_board, limit, parts, part_index)
        requests.timeout_of(timeout)  # checked now, not at the first next()
        if requests.spreads(parts, part_index, window):
            return self._spread_enumerate(request, window, progress, timeout, metadata)
        requests.no_progress(progress)
        return self._enumerate(request, timeout, metadata)

    def _spread_enumerate(self, request: pb.EnumerateRequest, window: int,
                          progress: Optional[Callable[[float], None]],
                          timeout: Optional[float],
                          metadata: Optional[Metadata]) -> Iterator[List[int]]:
        deadline = spread.Deadline(timeout)

        def call(server: Client, part: int, _: spread.Report) -> List[List[int]]:
            return list(server._enumerate(requests.with_part(request, part), deadline.left(),
                                          metadata))

        sent = 0
        with self._spread(request.part_count, window, call, progress) as run:
            for part in range(request.part_count):
                for board in run.result(part):
                    yield board
                    sent += 1
                    if sent == request.limit:
                        return

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
                       want_certificate: bool = False, certificate_format: str = "binary",
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> Iterator[BatchAnswer]:
        """complete() for many boards of at most 65,536 rows over one call
        (CompleteBatch): an answer per board in their order, each with its
        result or its own error. Options as in complete(), for every board.
        The call starts at the first next(); leaving the loop early ends it."""
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format)
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
        shuts down; of the server ("") or of a service ("nqueens.v1.NQueensService")."""
        request = channels.health_request(service)
        with self._call(timeout, metadata) as (call, _):
            return channels.health_status(self._health(request, **call))

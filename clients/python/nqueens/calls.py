"""Calls: the RPCs of nqueens.v1.NQueensService and the health check, written
once for both clients as grpc.aio code. nqueens.aio.Client awaits them on
the event loop; nqueens.Client runs them to their end at once, over a
blocking channel whose answers are ready when awaited (blocking.py). Boards
above 65,536 rows go through the streaming RPCs by themselves, in chunks,
as with the C++ CLI.

Base holds what both clients are made of; a client says how it opens a
channel (_open), what its calls go over (_calls_over), how it closes, and
how it drives a spread job (_drive). Calls holds the public calls:
nqueens.aio.Client inherits them, nqueens.Client (a Base) wraps them
(blocking.method)."""
import contextlib
import time
from typing import (Any, AsyncContextManager, AsyncIterator, Callable, Coroutine, Dict,
                    Iterable, Iterator, List, Optional, Sequence, Tuple, Union)

import grpc

from nqueens import channel as channels
from nqueens import requests, results, spread
from nqueens.errors import raised_as_error, request_id_in
from nqueens.requests import STREAMING_THRESHOLD, Board, Limits, Metadata, uint
from nqueens.results import BatchAnswer, Count, Result, Validation
from nqueens.v1 import nqueens_pb2 as pb
from nqueens.v1 import nqueens_pb2_grpc as pb_grpc

CallArguments = Dict[str, Any]  # a stub call's timeout and metadata
PartCall = Callable[[Any, int, spread.Report], Coroutine[Any, Any, Any]]  # a part on a server


class Base:
    """What nqueens.Client and nqueens.aio.Client are made of: their channel,
    a call's arguments and request id, a spread job, and the calls' parts
    that a spread job sends to each server."""

    # The arguments that make the client's own channel, so that they cannot
    # come with a channel given.
    _MADE_WITH: Tuple[str, ...] = ("tls", "options")

    def __init__(self, target: Optional[str] = None, *, tls: channels.Tls = False,
                 token: Optional[str] = None, options: channels.Options = (),
                 interceptors: Sequence[Any] = (), metadata: Optional[Metadata] = None,
                 channel: Any = None):
        if (target is None) == (channel is None):
            raise TypeError("give a target or a channel: one of them, not both")
        given = {"tls": tls, "options": options, "interceptors": interceptors}
        if channel is not None and any(given[name] for name in self._MADE_WITH):
            names = ", ".join(self._MADE_WITH[:-1]) + " and " + self._MADE_WITH[-1]
            raise TypeError(f"{names} are for the channel the client makes: set them on the "
                            "channel given instead")
        self._metadata = channels.client_metadata(token, metadata)
        self._owned: Any = None
        # What a spread job needs to open a channel to each server.
        self._target, self._tls, self._options = target, tls, options
        self._interceptors = interceptors
        # Only a channel it made itself is known to be plaintext.
        self._plaintext = channel is None and not tls
        if target is not None:
            merged = channels.options_with_defaults(options)
            channel = self._owned = self._open(target, channels.credentials(tls), merged)
        channel = self._calls_over(channel)
        self._stub = pb_grpc.NQueensServiceStub(channel)
        self._health = channel.unary_unary(channels.HEALTH_CHECK)  # bytes in, bytes out

    def _open(self, target: str, credentials: Optional[grpc.ChannelCredentials],
              options: channels.Options) -> Any:
        """A channel of the client's own to target."""
        raise NotImplementedError

    def _calls_over(self, channel: Any) -> Any:
        """What the stub is made over: a channel whose answers are awaited as
        grpc.aio's (`channel` itself, or blocking.Channel around it)."""
        raise NotImplementedError

    def _drive(self, job: spread.Job, servers: List[Any], window: int, call: PartCall,
               progress: Optional[spread.Progress], owned: bool,
               look_up: Optional[spread.LookUp]) -> AsyncContextManager[Any]:
        """What runs a job over `servers` (and those look_up finds): a
        spread.Tasks or the like, whose result(part) and finish() are
        awaited; its servers closed after it when `owned`."""
        raise NotImplementedError

    def _spread(self, part_count: int, window: int, resolve_every: Optional[float],
                call: PartCall, progress: Optional[spread.Progress], completes: bool = False
                ) -> AsyncContextManager[Any]:
        """A job of part_count parts (of complete() when `completes`) over a
        client per server behind the target, each on a channel of its own,
        closed after the job, the target looked up again every
        resolve_every seconds (spread.look_up); with a channel given, over
        this client alone."""
        if self._target is None:
            job = spread.Job(part_count, ["the channel given"], completes)
            return self._drive(job, [self], window, call, progress, False, None)
        options = spread.channel_options(self._target, self._tls, self._options)

        def make(server: str) -> Base:
            return type(self)(server, tls=self._tls, options=options,
                              interceptors=self._interceptors, metadata=self._metadata)

        targets = spread.server_targets(self._target)
        job = spread.Job(part_count, targets, completes)
        return self._drive(job, [make(target) for target in targets], window, call, progress,
                           True, spread.look_up(self._target, resolve_every, make))

    @contextlib.contextmanager
    def _call(self, timeout: Optional[float], metadata: Optional[Metadata]
              ) -> Iterator[Tuple[CallArguments, str]]:
        """A call's arguments and request id; a failure in the block (awaits
        included) raises Error with that id."""
        timeout = requests.timeout_of(timeout)
        sent, request_id = requests.call_metadata(metadata, self._metadata)
        with raised_as_error(request_id, self._plaintext):
            yield {"timeout": timeout, "metadata": sent}, request_id

    async def _complete(self, columns: List[int], options: Dict[str, Any], numpy: bool,
                        timeout: Optional[float], metadata: Optional[Metadata]) -> Result:
        n = len(columns)
        with self._call(timeout, metadata) as (call, _):
            if not requests.streams_completion(n, options):
                response = await self._stub.Complete(pb.CompleteRequest(
                    n=n, **requests.board_fields(columns), **options), **call)
                return results.result_of(response, response.columns, n, numpy)
            stream = results.ResultStream(n, numpy)
            async for message in self._stub.CompleteStream(
                    requests.complete_stream(columns, options), **call):
                stream.add(message)
            return stream.result()

    async def _count(self, request: pb.CountRequest,
                     progress: Optional[Callable[[float], None]], timeout: Optional[float],
                     metadata: Optional[Metadata]) -> Count:
        result = None
        with self._call(timeout, metadata) as (call, request_id):
            async for message in self._stub.Count(request, **call):
                if message.WhichOneof("part") == "result":
                    result = message.result
                elif progress is not None:
                    progress(message.progress.fraction_done)
        return results.count_of(result, request_id)

    async def _spread_enumerate(self, request: pb.EnumerateRequest, window: int,
                                resolve_every: Optional[float],
                                progress: Optional[Callable[[float], None]],
                                timeout: Optional[float],
                                metadata: Optional[Metadata]) -> AsyncIterator[List[int]]:
        deadline = spread.Deadline(timeout)

        async def call(server: Base, part: int, _: spread.Report) -> List[List[int]]:
            return [board async for board in server._enumerate(
                requests.with_part(request, part), deadline.left(), metadata)]

        sent = 0
        async with self._spread(request.part_count, window, resolve_every, call,
                                progress) as run:
            for part in range(request.part_count):
                for board in await run.result(part):
                    yield board
                    sent += 1
                    if sent == request.limit:
                        return

    async def _enumerate(self, request: pb.EnumerateRequest, timeout: Optional[float],
                         metadata: Optional[Metadata]) -> AsyncIterator[List[int]]:
        with self._call(timeout, metadata) as (call, _):
            responses = self._stub.Enumerate(request, **call)
            try:
                async for message in responses:
                    for board in message.boards:
                        yield list(board.columns)
            finally:
                responses.cancel()  # a no-op once the stream has ended

    async def _complete_batch(self, messages: List[pb.CompleteBatchRequest],
                              items: List[Tuple[int, bool]], timeout: Optional[float],
                              metadata: Optional[Metadata]) -> AsyncIterator[BatchAnswer]:
        with self._call(timeout, metadata) as (call, request_id):
            responses = self._stub.CompleteBatch(iter(messages), **call)
            try:
                async for message in responses:
                    request_id = request_id_in(await responses.initial_metadata(),
                                               request_id)
                    for answer in results.batch_answers(message, items, request_id):
                        yield answer
            finally:
                responses.cancel()


class Calls(Base):
    """The calls, as grpc.aio code: nqueens.aio.Client's methods, and what
    nqueens.Client makes its blocking ones from (self is a Base, which
    nqueens.Client is too)."""

    async def solve(self: Base, n: int, method: str = "constructive", *,
                    seed: Optional[int] = None, variant: int = 0, symmetry: int = 0,
                    limits: Optional[Limits] = None, numpy: bool = False,
                    timeout: Optional[float] = None,
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
                response = await self._stub.Solve(request, **call)
                return results.result_of(response, response.columns, request.n, numpy)
            stream = results.ResultStream(request.n, numpy)
            async for message in self._stub.SolveStream(
                    requests.solve_stream_request(request), **call):
                stream.add(message)
            return stream.result()

    async def complete(self: Base, board: Board, method: str = "pipeline", *,
                       seed: Optional[int] = None, limits: Optional[Limits] = None,
                       want_certificate: bool = False, certificate_format: str = "binary",
                       numpy: Optional[bool] = None,
                       parts: Optional[int] = None, part_index: Optional[int] = None,
                       window: int = 2,
                       resolve_every: Optional[float] = spread.RESOLVE_EVERY_SECONDS,
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
        spreads the K parts over the servers, `window` in flight on each
        (the target's name looked up again every resolve_every seconds, as
        nqueens.Client says): OUTCOME_SOLVED as soon as a part is (the others are cancelled),
        OUTCOME_UNSOLVABLE if every part is (result.part_certificates:
        theirs, in part order), else OUTCOME_UNDECIDED, as when the job's
        timeout passes first (the parts in flight are cancelled; stats: the
        parts done). progress(share of the parts done), on the event loop
        for nqueens.aio."""
        columns, was_array = requests.columns_of(board)
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format, parts, part_index)
        numpy = was_array if numpy is None else numpy
        if not requests.spreads(parts, part_index, window, resolve_every):
            requests.no_progress(progress)
            return await self._complete(columns, options, numpy, timeout, metadata)
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Base, part: int, _: spread.Report) -> Coroutine[Any, Any, Result]:
            return server._complete(columns, {**options, "part_index": part}, numpy,
                                    deadline.left(), metadata)

        async with self._spread(options["part_count"], window, resolve_every, call, progress,
                                completes=True) as run:
            job = await run.finish()
        return spread.completion(job, time.monotonic() - started)

    async def validate(self: Base, board: Board, *, max_conflicts: int = 0,
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> Validation:
        """Checks a board for attacking queens and completeness;
        max_conflicts bounds the conflicts listed (0: the server's 10)."""
        columns, _ = requests.columns_of(board)
        max_conflicts = uint("max_conflicts", max_conflicts, 32)
        with self._call(timeout, metadata) as (call, _):
            if len(columns) <= STREAMING_THRESHOLD:
                response = await self._stub.Validate(pb.ValidateRequest(
                    n=len(columns), max_conflicts=max_conflicts,
                    **requests.board_fields(columns)), **call)
            else:
                response = await self._stub.ValidateStream(
                    requests.validate_stream(columns, max_conflicts), **call)
        return results.validation_of(response)

    async def count(self: Base, n_or_board: Union[int, Board], *,
                    progress: Optional[Callable[[float], None]] = None,
                    progress_seconds: float = 0.0, parts: Optional[int] = None,
                    part_index: Optional[int] = None, window: int = 2,
                    resolve_every: Optional[float] = spread.RESOLVE_EVERY_SECONDS,
                    timeout: Optional[float] = None,
                    metadata: Optional[Metadata] = None) -> Count:
        """The number of solutions of the n x n board (an int), or of
        completions of a composition with at most 64 free rows (a board).
        progress, if given, is called with the share of the search done
        while the server counts, every progress_seconds (0: 1 s), on the
        event loop for nqueens.aio.

        parts=K and part_index=I count part I of K (the K parts' counts add
        up to the whole); parts=K alone spreads the K parts over the
        servers, `window` in flight on each, and answers their sum
        (elapsed_seconds: the job's time); progress is then the job's share
        done, and timeout the job's; resolve_every: as nqueens.Client says."""
        request = requests.count_request(n_or_board, progress_seconds, parts, part_index)
        if not requests.spreads(parts, part_index, window, resolve_every):
            return await self._count(request, progress, timeout, metadata)
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Base, part: int, report: spread.Report) -> Coroutine[Any, Any, Count]:
            return server._count(requests.with_part(request, part), report, deadline.left(),
                                 metadata)

        async with self._spread(request.part_count, window, resolve_every, call,
                                progress) as run:
            job = await run.finish()
        return spread.count_total(job.results.values(), time.monotonic() - started)

    def enumerate(self: Base, n_or_board: Union[int, Board], *, limit: int = 0,
                  parts: Optional[int] = None, part_index: Optional[int] = None,
                  window: int = 2,
                  resolve_every: Optional[float] = spread.RESOLVE_EVERY_SECONDS,
                  progress: Optional[Callable[[float], None]] = None,
                  timeout: Optional[float] = None,
                  metadata: Optional[Metadata] = None) -> AsyncIterator[List[int]]:
        """Every solution of the n x n board (an int), or completion of a
        composition (a board), in a fixed order, up to `limit` (0: all).
        The call starts at the first next(); leaving the loop early ends it.
        (nqueens.aio: `async for board in client.enumerate(8)`.)

        parts=K and part_index=I: the solutions of part I of K; parts=K
        alone spreads the K parts over the servers, `window` in flight on
        each, and yields part 0's solutions, then part 1's...: every
        solution once, in another order than the whole's. progress(share of
        the parts done); timeout: the job's; resolve_every: as
        nqueens.Client says."""
        request = requests.enumerate_request(n_or_board, limit, parts, part_index)
        requests.timeout_of(timeout)  # checked now, not at the first next()
        if requests.spreads(parts, part_index, window, resolve_every):
            return self._spread_enumerate(request, window, resolve_every, progress, timeout,
                                          metadata)
        requests.no_progress(progress)
        return self._enumerate(request, timeout, metadata)

    def complete_batch(self: Base, boards: Iterable[Board], method: str = "pipeline", *,
                       seed: Optional[int] = None, limits: Optional[Limits] = None,
                       want_certificate: bool = False, certificate_format: str = "binary",
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> AsyncIterator[BatchAnswer]:
        """complete() for many boards of at most 65,536 rows over one call
        (CompleteBatch): an answer per board in their order, each with its
        result or its own error. Options as in complete(), for every board.
        The call starts at the first next(); leaving the loop early ends it.
        (nqueens.aio: `async for answer in ...`.)"""
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format)
        messages, items = requests.batch_requests(boards, options)
        requests.timeout_of(timeout)
        return self._complete_batch(messages, items, timeout, metadata)

    async def health(self: Base, service: str = "", *, timeout: Optional[float] = None,
                     metadata: Optional[Metadata] = None) -> str:
        """grpc.health.v1 Check: "SERVING", or "NOT_SERVING" while the server
        shuts down; of the server ("") or of a service ("nqueens.v1.NQueensService")."""
        request = channels.health_request(service)
        with self._call(timeout, metadata) as (call, _):
            return channels.health_status(await self._health(request, **call))

"""nqueens.aio.Client: nqueens.Client on grpc.aio, for asyncio programs.

The same methods, arguments and answers; each is a coroutine, except
enumerate() and complete_batch(), which return async iterators.
"""
import contextlib
import time
from typing import (Any, AsyncIterator, Awaitable, Callable, Dict, Iterable, Iterator, List,
                    Optional, Sequence, Tuple, Union)

import grpc
import grpc.aio

from nqueens import channel as channels
from nqueens import requests, results, spread
from nqueens.errors import raised_as_error, request_id_in
from nqueens.requests import STREAMING_THRESHOLD, Board, Limits, Metadata, uint
from nqueens.results import BatchAnswer, Count, Result, Validation
from nqueens.v1 import nqueens_pb2 as pb
from nqueens.v1 import nqueens_pb2_grpc as pb_grpc

CallArguments = Dict[str, Any]  # a stub call's timeout and metadata


class Client:
    """As nqueens.Client; interceptors are grpc.aio's client interceptors,
    and a channel given is a grpc.aio.Channel (with its interceptors set
    where it was made: grpc.aio takes them only then)."""

    def __init__(self, target: Optional[str] = None, *, tls: channels.Tls = False,
                 token: Optional[str] = None, options: channels.Options = (),
                 interceptors: Sequence[grpc.aio.ClientInterceptor] = (),
                 metadata: Optional[Metadata] = None,
                 channel: Optional[grpc.aio.Channel] = None):
        if (target is None) == (channel is None):
            raise TypeError("give a target or a channel: one of them, not both")
        if channel is not None and (tls or options or interceptors):
            raise TypeError("tls, options and interceptors are for the channel the client "
                            "makes: set them on the channel given instead")
        self._metadata = channels.client_metadata(token, metadata)
        self._owned: Optional[grpc.aio.Channel] = None
        # What a spread job needs to open a channel to each server.
        self._target, self._tls, self._options = target, tls, options
        self._interceptors = interceptors
        # Only a channel it made itself is known to be plaintext.
        self._plaintext = channel is None and not tls
        if channel is None:
            merged = channels.options_with_defaults(options)
            credentials = channels.credentials(tls)
            channel = self._owned = (
                grpc.aio.insecure_channel(target, merged, interceptors=interceptors)
                if credentials is None else
                grpc.aio.secure_channel(target, credentials, merged, interceptors=interceptors))
        self._stub = pb_grpc.NQueensServiceStub(channel)
        self._health = channel.unary_unary(channels.HEALTH_CHECK)  # bytes in, bytes out

    async def close(self) -> None:
        """Closes the channel the client made (not one it was given)."""
        if self._owned is not None:
            await self._owned.close()

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.close()

    @contextlib.contextmanager
    def _call(self, timeout: Optional[float], metadata: Optional[Metadata]
              ) -> Iterator[Tuple[CallArguments, str]]:
        """A call's arguments and request id; a failure in the block (awaits
        included) raises Error with that id."""
        timeout = requests.timeout_of(timeout)
        sent, request_id = requests.call_metadata(metadata, self._metadata)
        with raised_as_error(request_id, self._plaintext):
            yield {"timeout": timeout, "metadata": sent}, request_id

    @contextlib.asynccontextmanager
    async def _spread(self, part_count: int, window: int, call: Callable[..., Awaitable[Any]],
                      progress: Optional[spread.Progress], completes: bool = False
                      ) -> AsyncIterator[spread.Tasks]:
        """As nqueens.Client._spread, on tasks."""
        servers = spread.clients_per_server(
            self, self._target, self._tls, self._options,
            lambda target, options: Client(target, tls=self._tls, options=options,
                                           interceptors=self._interceptors,
                                           metadata=self._metadata))

        async def close() -> None:
            for server in servers:
                await server.close()

        job = spread.Job(part_count, len(servers), completes)
        async with spread.Tasks(job, servers, window, call, progress,
                                close if self._target is not None else None) as run:
            yield run

    async def solve(self, n: int, method: str = "constructive", *, seed: Optional[int] = None,
                    variant: int = 0, symmetry: int = 0, limits: Optional[Limits] = None,
                    numpy: bool = False, timeout: Optional[float] = None,
                    metadata: Optional[Metadata] = None) -> Result:
        """As nqueens.Client.solve."""
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

    async def complete(self, board: Board, method: str = "pipeline", *,
                       seed: Optional[int] = None, limits: Optional[Limits] = None,
                       want_certificate: bool = False, certificate_format: str = "binary",
                       numpy: Optional[bool] = None,
                       parts: Optional[int] = None, part_index: Optional[int] = None,
                       window: int = 2, progress: Optional[Callable[[float], None]] = None,
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> Result:
        """As nqueens.Client.complete; progress is called on the event loop."""
        columns, was_array = requests.columns_of(board)
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format, parts, part_index)
        numpy = was_array if numpy is None else numpy
        if not requests.spreads(parts, part_index, window):
            requests.no_progress(progress)
            return await self._complete(columns, options, numpy, timeout, metadata)
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Client, part: int, _: spread.Report) -> Awaitable[Result]:
            return server._complete(columns, {**options, "part_index": part}, numpy,
                                    deadline.left(), metadata)

        async with self._spread(options["part_count"], window, call, progress,
                                completes=True) as run:
            job = await run.finish()
        return spread.completion(job, time.monotonic() - started)

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

    async def validate(self, board: Board, *, max_conflicts: int = 0,
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> Validation:
        """As nqueens.Client.validate."""
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

    async def count(self, n_or_board: Union[int, Board], *,
                    progress: Optional[Callable[[float], None]] = None,
                    progress_seconds: float = 0.0, parts: Optional[int] = None,
                    part_index: Optional[int] = None, window: int = 2,
                    timeout: Optional[float] = None,
                    metadata: Optional[Metadata] = None) -> Count:
        """As nqueens.Client.count; progress is called on the event loop."""
        request = requests.count_request(n_or_board, progress_seconds, parts, part_index)
        if not requests.spreads(parts, part_index, window):
            return await self._count(request, progress, timeout, metadata)
        deadline, started = spread.Deadline(timeout), time.monotonic()

        def call(server: Client, part: int, report: spread.Report) -> Awaitable[Count]:
            return server._count(requests.with_part(request, part), report, deadline.left(),
                                 metadata)

        async with self._spread(request.part_count, window, call, progress) as run:
            job = await run.finish()
        return spread.count_total(job.results.values(), time.monotonic() - started)

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

    def enumerate(self, n_or_board: Union[int, Board], *, limit: int = 0,
                  parts: Optional[int] = None, part_index: Optional[int] = None,
                  window: int = 2, progress: Optional[Callable[[float], None]] = None,
                  timeout: Optional[float] = None,
                  metadata: Optional[Metadata] = None) -> AsyncIterator[List[int]]:
        """As nqueens.Client.enumerate: `async for board in client.enumerate(8)`."""
        request = requests.enumerate_request(n_or_board, limit, parts, part_index)
        requests.timeout_of(timeout)  # checked now, not at the first iteration
        if requests.spreads(parts, part_index, window):
            return self._spread_enumerate(request, window, progress, timeout, metadata)
        requests.no_progress(progress)
        return self._enumerate(request, timeout, metadata)

    async def _spread_enumerate(self, request: pb.EnumerateRequest, window: int,
                                progress: Optional[Callable[[float], None]],
                                timeout: Optional[float],
                                metadata: Optional[Metadata]) -> AsyncIterator[List[int]]:
        deadline = spread.Deadline(timeout)

        async def call(server: Client, part: int, _: spread.Report) -> List[List[int]]:
            return [board async for board in server._enumerate(
                requests.with_part(request, part), deadline.left(), metadata)]

        sent = 0
        async with self._spread(request.part_count, window, call, progress) as run:
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

    def complete_batch(self, boards: Iterable[Board], method: str = "pipeline", *,
                       seed: Optional[int] = None, limits: Optional[Limits] = None,
                       want_certificate: bool = False, certificate_format: str = "binary",
                       timeout: Optional[float] = None,
                       metadata: Optional[Metadata] = None) -> AsyncIterator[BatchAnswer]:
        """As nqueens.Client.complete_batch: `async for answer in ...`."""
        options = requests.complete_options(method, seed, limits, want_certificate,
                                            certificate_format)
        messages, items = requests.batch_requests(boards, options)
        requests.timeout_of(timeout)
        return self._complete_batch(messages, items, timeout, metadata)

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

    async def health(self, service: str = "", *, timeout: Optional[float] = None,
                     metadata: Optional[Metadata] = None) -> str:
        """As nqueens.Client.health."""
        request = channels.health_request(service)
        with self._call(timeout, metadata) as (call, _):
            return channels.health_status(await self._health(request, **call))

"""The shared calls (calls.py, grpc.aio code) run by the blocking client: over
a blocking channel whose every answer is ready when awaited, a call's
coroutine never suspends, so that it runs to its end in one step, on the
caller's thread, with no event loop."""
from __future__ import annotations  # ParamSpec: for type checkers alone before 3.10

import contextlib
import functools
import inspect
import typing
from typing import (Any, AsyncGenerator, AsyncIterator, Callable, Coroutine, Iterator, Optional,
                    TypeVar)

import grpc

from nqueens import spread

T = TypeVar("T")
if typing.TYPE_CHECKING:
    from typing_extensions import ParamSpec
    P = ParamSpec("P")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """The value of a coroutine whose awaits are all ready (Channel's)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a blocking call waited on something that is not ready")


def iterate(items: AsyncGenerator[T, None]) -> Iterator[T]:
    """An async generator whose awaits are all ready, as an iterator; leaving
    the loop early closes it (ending its call)."""
    try:
        while True:
            try:
                item: T = run(items.__anext__())  # type: ignore[arg-type]
            except StopAsyncIteration:
                return
            yield item
    finally:
        run(items.aclose())  # type: ignore[arg-type]


def method(coroutine_function: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    """A shared coroutine method as a blocking one, with its signature and
    documentation."""
    @functools.wraps(coroutine_function)
    def blocking(*arguments: P.args, **keywords: P.kwargs) -> T:
        return run(coroutine_function(*arguments, **keywords))
    return blocking


def iterator_method(function: Callable[P, AsyncIterator[T]]) -> Callable[P, Iterator[T]]:
    """A shared method that answers an async generator as one that answers
    an iterator; its arguments are checked at once, as the shared one's."""
    @functools.wraps(function)
    def blocking(*arguments: P.args, **keywords: P.kwargs) -> Iterator[T]:
        return iterate(function(*arguments, **keywords))  # type: ignore[arg-type]

    signature = inspect.signature(function)
    item, = typing.get_args(signature.return_annotation)  # AsyncIterator[item]
    blocking.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=Iterator[item])  # type: ignore[valid-type]
    return blocking


async def ready(value: T) -> T:
    return value


class _Stream:
    """A blocking call's stream of answers as a grpc.aio one: each next
    message, and the initial metadata, ready when awaited."""

    def __init__(self, call: Any):
        self._call = call
        self._messages = iter(call)

    def __aiter__(self) -> "_Stream":
        return self

    async def __anext__(self) -> Any:
        try:
            return next(self._messages)
        except StopIteration:
            raise StopAsyncIteration from None

    async def initial_metadata(self) -> Any:
        return self._call.initial_metadata()

    def cancel(self) -> bool:
        return self._call.cancel()  # type: ignore[no-any-return]


def _answered(callable_: Any) -> Callable[..., Any]:
    """A blocking multicallable with one answer: that answer, ready."""
    return lambda *arguments, **keywords: ready(callable_(*arguments, **keywords))


def _streamed(callable_: Any) -> Callable[..., Any]:
    """A blocking multicallable with a stream of answers, as a _Stream."""
    return lambda *arguments, **keywords: _Stream(callable_(*arguments, **keywords))


class Channel:
    """A grpc.Channel as the shared calls use a grpc.aio one: the stub and the
    health check made over it answer with awaitables that are ready (the
    call blocks before), and with async iterators over a stream."""

    def __init__(self, channel: grpc.Channel):
        self._channel = channel

    def unary_unary(self, *arguments: Any, **keywords: Any) -> Callable[..., Any]:
        return _answered(self._channel.unary_unary(*arguments, **keywords))

    def stream_unary(self, *arguments: Any, **keywords: Any) -> Callable[..., Any]:
        return _answered(self._channel.stream_unary(*arguments, **keywords))

    def unary_stream(self, *arguments: Any, **keywords: Any) -> Callable[..., Any]:
        return _streamed(self._channel.unary_stream(*arguments, **keywords))

    def stream_stream(self, *arguments: Any, **keywords: Any) -> Callable[..., Any]:
        return _streamed(self._channel.stream_stream(*arguments, **keywords))


class _Run:
    """spread.Threads as the shared calls await a job: results ready."""

    def __init__(self, threads: spread.Threads):
        self._threads = threads

    async def result(self, part: int) -> Any:
        return self._threads.result(part)

    async def finish(self) -> spread.Job:
        return self._threads.finish()


@contextlib.asynccontextmanager
async def threads(job: spread.Job, servers: Any, window: int,
                  call: Callable[..., Coroutine[Any, Any, Any]],
                  progress: Optional[spread.Progress],
                  close: Optional[Callable[[Any], None]],
                  look_up: Optional[spread.LookUp]) -> AsyncIterator[_Run]:
    """spread.Threads for a job whose part calls are shared coroutines (run
    to their end on the slots' threads), entered and awaited without
    suspending."""
    with spread.Threads(job, servers, window, lambda *arguments: run(call(*arguments)),
                        progress, close, look_up) as running:
        yield _Run(running)

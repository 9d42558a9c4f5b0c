"""One job spread over every server behind a target: the search cut into
parts (part_index, part_count: disjoint, together the whole, the same cut on
every server), `window` parts in flight on each server, a part whose server
failed sent again to another (parts are idempotent), and the parts' answers
combined into what one call would answer.

The servers behind a name change as they come and go: a driver given a
LookUp looks the name up again while the job runs, and the job follows
(Job.follow), as the CLI's does (client/parts/parts_job.h).

Job holds the rules and does no I/O, so that the blocking client (Threads)
and the asyncio client (Tasks) drive a job the same way; the answers are
combined by count_total, completion and calls.py's enumerate."""
import asyncio
import dataclasses
import heapq
import ipaddress
import re
import threading
import time
from typing import (Any, Awaitable, Callable, Dict, Iterable, List, NamedTuple, Optional,
                    Sequence, Set, Tuple)

import grpc

from nqueens import channel as channels
from nqueens import dns_lookup
from nqueens import requests
from nqueens.errors import Error
from nqueens.results import BlockStats, Count, Result, Stats
from nqueens.v1 import nqueens_pb2 as pb

# A part's failures that another server need not share: its server went
# away, is shutting down (it refuses calls with UNAVAILABLE and cancels those
# not yet handled, grpc/grpc#41785), or dropped the call. Such a part is sent
# again; any other error ends the job, as it would end one call.
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
                       grpc.StatusCode.ABORTED})
# A server that fails this many parts in a row is left out of the job. It
# waits 0.1 s after its first failure, then twice as long after each, as the
# channel's own retries (channel.py): a restart gets about 1.5 s.
MAX_FAILURES = 5
FIRST_PAUSE_SECONDS = 0.1
# How often a job looks its target's name up again, as the CLI's
# --resolve-every (client/flags.cc): two small DNS queries cost nothing
# beside a job of parts, and a server that comes up waits at most that long
# for its first part.
RESOLVE_EVERY_SECONDS = 5.0

Report = Callable[[float], None]  # a part's share done, as its server says
Progress = Callable[[float], None]  # the job's share done

# A target without a scheme, "host", "host:port" or "[v6 address]:port",
# which gRPC resolves as dns:///target.
_BARE_TARGET = re.compile(r"(\[[^\]]+\]|[^:/\[\]]+)(:\d+)?")


class Name(NamedTuple):
    """The host name a target gives, its port, and the DNS server to ask
    ("": the system's resolver)."""
    host: str
    port: str
    dns_server: str = ""


def server_targets(target: str) -> List[str]:
    """A gRPC target per server behind `target`, as the CLI finds them: each
    address of an "ipv4:" or "ipv6:" list; each address the host of a "dns:"
    target or of a bare "host:port" has now (dns_lookup.look_up_host: a
    headless Service's ready pods); any other target is one server."""
    scheme, _, rest = target.partition(":")
    name = dns_name(target)
    if scheme in ("ipv4", "ipv6"):
        found = [f"{scheme}:{address}" for address in rest.split(",") if address]
    elif name is not None:
        found = resolved(name)
    else:
        found = [target]
    if not found:
        raise Error(grpc.StatusCode.UNAVAILABLE, f"no server address in {target!r}")
    return found


def dns_name(target: str) -> Optional[Name]:
    """The name a "dns:" or bare target gives, else None."""
    if target.startswith("dns:"):
        return name_of(target[len("dns:"):])
    if _BARE_TARGET.fullmatch(target):
        return name_of(target)
    return None


def name_of(rest: str) -> Name:
    """What follows "dns:": "//authority/host:port", "host:port", "[v6
    address]:port", or a host alone (port 443, as gRPC)."""
    dns_server = ""
    if rest.startswith("//"):
        dns_server, _, rest = rest[2:].partition("/")
    if rest.startswith("["):
        host, _, port = rest[1:].partition("]")
        return Name(host, port[1:] or "443", dns_server)
    host, colon, port = rest.rpartition(":")
    return Name(host, port, dns_server) if colon else Name(rest, "443", dns_server)


def host_name(target: str) -> Optional[Name]:
    """The name of a target that names its servers by a host name, whose
    addresses may change while a job runs; None for a target of addresses."""
    name = dns_name(target)
    return name if name is not None and not is_address(name.host) else None


def resolved(name: Name) -> List[str]:
    """An "ipv4:" or "ipv6:" target per address of the name's host, in the
    answer's order; an address as host is that one."""
    addresses = [name.host] if is_address(name.host) else dns_lookup.look_up_host(
        name.host, name.dns_server)
    return [f"ipv6:[{address}]:{name.port}" if ":" in address else f"ipv4:{address}:{name.port}"
            for address in addresses]


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def channel_options(target: str, tls: channels.Tls,
                    options: channels.Options) -> List[Tuple[str, Any]]:
    """The options of the channel to each server behind `target`. The
    channels do not retry (the job sends a failed part again itself, to
    another server). The calls to an address a name resolved to carry that
    name as their :authority, as one channel to the name would, and over TLS
    the server's certificate is checked against that name."""
    added: List[Tuple[str, Any]] = [("grpc.enable_retries", 0)]
    name = host_name(target)
    if name is not None:
        added.append(("grpc.default_authority", f"{name.host}:{name.port}"))
        if tls:
            added.append(("grpc.ssl_target_name_override", name.host))
    given = dict(options)
    return [(key, value) for key, value in added if key not in given] + list(options)


@dataclasses.dataclass(frozen=True)
class LookUp:
    """How a job finds its servers again while it runs, since a name's
    addresses change as servers come and go: every `every` seconds,
    targets() gives the gRPC targets of the servers the name gives now (an
    Error keeps the job's servers as they are), and make(target) a client
    to a server that joins."""
    targets: Callable[[], List[str]]
    make: Callable[[str], Any]
    every: float


def look_up(target: str, every: Optional[float], make: Callable[[str], Any]) -> Optional[LookUp]:
    """The LookUp of `target`'s servers every `every` seconds, for a target
    that names them by a host name; None, the servers fixed, for a target
    of addresses or an `every` of None or 0."""
    if not every or host_name(target) is None:
        return None
    return LookUp(lambda: server_targets(target), make, every)


class Deadline:
    """A job's timeout, which its parts share: each call gets what is left."""

    def __init__(self, timeout: Optional[float]):
        timeout = requests.timeout_of(timeout)
        self._end = None if timeout is None else time.monotonic() + timeout

    def left(self) -> Optional[float]:
        if self._end is None:
            return None
        left = self._end - time.monotonic()
        if left <= 0:
            raise Error(grpc.StatusCode.DEADLINE_EXCEEDED, "the job's timeout passed")
        return left


def code_of(error: BaseException) -> Optional[grpc.StatusCode]:
    """The status code of a failed call, else None."""
    if isinstance(error, grpc.RpcError) and callable(getattr(error, "code", None)):
        return error.code()  # type: ignore[no-any-return]
    return None


@dataclasses.dataclass
class _Server:
    """A server's standing in a job."""
    target: str
    failures: int = 0  # in a row
    dropped: bool = False  # it failed MAX_FAILURES parts in a row
    named: bool = True  # by the last look-up

    def takes_parts(self) -> bool:
        return self.named and not self.dropped


class Job:
    """The parts of one job and the servers they go to, by index: those it
    started with, then those that joined, in the order they did. Each of a
    server's slots (its window) sends one part at a time. A part that failed
    on a server goes back to the pending parts, for a server it has not
    failed on while one that takes parts is still in the job. A driver holds
    a lock around every call.

    A job of complete() (`completes`) ends, as the CLI's, at its first
    OUTCOME_SOLVED part (self.answer), and at its deadline with the parts
    done so far (completion() answers OUTCOME_UNDECIDED, as one call's
    search gives up) rather than with DEADLINE_EXCEEDED."""

    def __init__(self, part_count: int, targets: Sequence[str], completes: bool = False):
        self.part_count = part_count
        self.results: Dict[int, Any] = {}  # finished parts' results, until taken
        self.answer: Any = None  # complete(): the first OUTCOME_SOLVED part's result
        self.error: Optional[BaseException] = None
        self._completes = completes
        self._done: Set[int] = set()
        self._pending = list(range(part_count))  # a heap: the first parts first
        self._failed_on: Dict[int, Set[int]] = {}
        self._servers = [_Server(target) for target in targets]
        self._shares: Dict[int, float] = {}  # the parts in flight: their share done
        self._stopped = False

    def over(self) -> bool:
        return (self._stopped or self.error is not None or self.answer is not None
                or len(self._done) == self.part_count)

    def stop(self) -> None:
        self._stopped = True

    def fail(self, error: BaseException) -> None:
        if not self.over():
            self.error = error

    def target(self, server: int) -> str:
        return self._servers[server].target

    def follow(self, targets: Sequence[str]) -> List[int]:
        """After a look-up that gave `targets`: a server they give for the
        first time joins the job (the indices of those that did, for the
        driver to start their slots); one that was dropped takes parts
        again, on trial: its next failure drops it again, since a server
        still named need not be up; one they no longer give takes no new
        parts, and its parts in flight still count."""
        if self.over():
            return []
        known = {server.target for server in self._servers}
        new = [target for target in dict.fromkeys(targets) if target not in known]
        joined = list(range(len(self._servers), len(self._servers) + len(new)))
        self._servers += [_Server(target) for target in new]
        named = set(targets)
        for server in self._servers:
            server.named = server.target in named
            if server.named and server.dropped:
                server.dropped, server.failures = False, MAX_FAILURES - 1
        return joined

    def _fits(self, server: int, part: int) -> bool:
        failed = self._failed_on.get(part, set())
        return server not in failed or all(
            at in failed for at, other in enumerate(self._servers) if other.takes_parts())

    def ready_for(self, server: int) -> bool:
        return self._servers[server].takes_parts() and any(
            self._fits(server, part) for part in self._pending)

    def take(self, server: int) -> int:
        """The first pending part the server may take (ready_for holds)."""
        skipped = []
        while not self._fits(server, self._pending[0]):
            skipped.append(heapq.heappop(self._pending))
        part = heapq.heappop(self._pending)
        for other in skipped:
            heapq.heappush(self._pending, other)
        self._shares[part] = 0.0
        return part

    def progressed(self, part: int, share: float) -> None:
        if part in self._shares:
            self._shares[part] = min(max(share, 0.0), 1.0)

    def share(self) -> float:
        """The job's share done: its finished parts and those in flight."""
        return (len(self._done) + sum(self._shares.values())) / self.part_count

    def succeeded(self, server: int, part: int, result: Any) -> bool:
        """Records a part's result; False if the job is over already."""
        self._shares.pop(part, None)
        self._servers[server].failures = 0
        if self.over():
            return False
        self._done.add(part)
        self.results[part] = result
        if self._completes and solved(result):
            self.answer = result
        return True

    def failed(self, server: int, part: int, error: BaseException) -> Optional[float]:
        """Records a part's failure: the seconds its server waits before it
        takes another part, or None when the job is over."""
        self._shares.pop(part, None)
        if self.over():
            return None
        code = code_of(error)
        # Every part's call has the job's deadline, so this is the job's:
        # complete() gives up with the parts done.
        if self._completes and code == grpc.StatusCode.DEADLINE_EXCEEDED:
            self._stopped = True
            return None
        if code not in RETRYABLE:
            self.error = error
            return None
        heapq.heappush(self._pending, part)
        self._failed_on.setdefault(part, set()).add(server)
        state = self._servers[server]
        state.failures += 1
        state.dropped = state.failures >= MAX_FAILURES
        if all(other.dropped for other in self._servers):
            self.error = error
            return None
        return 0.0 if state.dropped else FIRST_PAUSE_SECONDS * 2 ** (state.failures - 1)


class Threads:
    """Drives a Job on threads, `window` per server. call(server, part,
    report) sends one part and returns its result, calling report(its share
    done) meanwhile if it can; progress(the job's share done) is called on
    these threads, one call at a time. With look_up, a thread looks the
    servers up again every look_up.every, and those that join get `window`
    threads of their own. Leaving the block ends the job, and close(server)
    (which closes a server's own channel, for each server) cancels the parts
    in flight; without close they run to their end, unheeded."""

    def __init__(self, job: Job, servers: Sequence[Any], window: int,
                 call: Callable[[Any, int, Report], Any], progress: Optional[Progress] = None,
                 close: Optional[Callable[[Any], None]] = None,
                 look_up: Optional[LookUp] = None):
        self.job = job
        self._servers, self._call = list(servers), call
        self._progress, self._close = progress, close
        self._window, self._look_up = window, look_up
        self._condition = threading.Condition()
        self._threads: List[threading.Thread] = []

    def __enter__(self) -> "Threads":
        with self._condition:
            for server in range(len(self._servers)):
                self._start_slots(server)
        if self._look_up is not None:
            # Not joined: a look-up under way may take seconds, and it
            # changes nothing once the job is over.
            threading.Thread(target=self._follow, args=(self._look_up,), daemon=True).start()
        return self

    def __exit__(self, *exception: object) -> None:
        with self._condition:
            self.job.stop()
            self._condition.notify_all()
            servers, threads = list(self._servers), list(self._threads)
        if self._close is not None:
            for server in servers:
                self._close(server)
            for thread in threads:
                thread.join()

    def result(self, part: int) -> Any:
        """The result of `part` once it is in, taken out of the job."""
        self._wait(lambda: part in self.job.results)
        with self._condition:
            return self.job.results.pop(part)

    def finish(self) -> Job:
        """The job once it is over; its error raised."""
        self._wait(self.job.over)
        return self.job

    def _wait(self, ready: Callable[[], bool]) -> None:
        with self._condition:
            self._condition.wait_for(lambda: ready() or self.job.over())
            if self.job.error is not None:
                raise self.job.error

    def _start_slots(self, server: int) -> None:
        for _ in range(self._window):
            thread = threading.Thread(target=self._slot, args=(server,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _follow(self, look_up: LookUp) -> None:
        """Every look_up.every until the job is over, the servers the look-up
        gives take parts and the others not (Job.follow)."""
        job, condition = self.job, self._condition
        while True:
            with condition:
                if condition.wait_for(job.over, timeout=look_up.every):
                    return
            try:
                targets = look_up.targets()
            except Error:
                continue  # the servers stay as they are
            with condition:
                for server in job.follow(targets):
                    self._servers.append(look_up.make(job.target(server)))
                    self._start_slots(server)
                condition.notify_all()

    def _report(self, part: int, share: float) -> None:
        with self._condition:
            self.job.progressed(part, share)
            if self._progress is not None:
                self._progress(self.job.share())

    def _slot(self, server: int) -> None:
        job, condition = self.job, self._condition
        while True:
            with condition:
                condition.wait_for(lambda: job.over() or job.ready_for(server))
                if job.over():
                    return
                part, client = job.take(server), self._servers[server]
            try:
                result = self._call(client, part, lambda share: self._report(part, share))
            except Exception as error:  # whatever a part raises, the job judges it
                with condition:
                    pause = job.failed(server, part, error)
                    condition.notify_all()
                    if pause is None:
                        return
                    condition.wait_for(job.over, timeout=pause)
                continue
            with condition:
                if job.succeeded(server, part, result):
                    told(self._progress, job)
                condition.notify_all()


class Tasks:
    """Threads for asyncio: a task per slot, call a coroutine function,
    progress called on the event loop, and the look-up's own blocking work
    on the loop's default executor. Leaving the block cancels the parts in
    flight, then awaits close(server) for each server."""

    def __init__(self, job: Job, servers: Sequence[Any], window: int,
                 call: Callable[[Any, int, Report], Awaitable[Any]],
                 progress: Optional[Progress] = None,
                 close: Optional[Callable[[Any], Awaitable[None]]] = None,
                 look_up: Optional[LookUp] = None):
        self.job = job
        self._servers, self._call = list(servers), call
        self._progress, self._close = progress, close
        self._window, self._look_up = window, look_up
        self._tasks: List["asyncio.Future[None]"] = []

    async def __aenter__(self) -> "Tasks":
        self._condition = asyncio.Condition()  # of the running loop
        for server in range(len(self._servers)):
            self._start_slots(server)
        if self._look_up is not None:
            self._tasks.append(asyncio.ensure_future(self._follow(self._look_up)))
        return self

    async def __aexit__(self, *exception: object) -> None:
        self.job.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._close is not None:
            for server in self._servers:
                await self._close(server)

    async def result(self, part: int) -> Any:
        await self._wait(lambda: part in self.job.results)
        return self.job.results.pop(part)

    async def finish(self) -> Job:
        await self._wait(self.job.over)
        return self.job

    async def _wait(self, ready: Callable[[], bool]) -> None:
        async with self._condition:
            await self._condition.wait_for(lambda: ready() or self.job.over())
        if self.job.error is not None:
            raise self.job.error

    def _start_slots(self, server: int) -> None:
        self._tasks += [asyncio.ensure_future(self._slot(server)) for _ in range(self._window)]

    async def _follow(self, look_up: LookUp) -> None:
        """Threads._follow, until the job is over or the block is left."""
        loop = asyncio.get_running_loop()
        while not self.job.over():
            await asyncio.sleep(look_up.every)
            try:
                targets = await loop.run_in_executor(None, look_up.targets)
            except Error:
                continue  # the servers stay as they are
            async with self._condition:
                for server in self.job.follow(targets):
                    self._servers.append(look_up.make(self.job.target(server)))
                    self._start_slots(server)
                self._condition.notify_all()

    def _report(self, part: int, share: float) -> None:
        self.job.progressed(part, share)
        if self._progress is not None:
            self._progress(self.job.share())

    async def _slot(self, server: int) -> None:
        job, condition = self.job, self._condition
        while True:
            async with condition:
                await condition.wait_for(lambda: job.over() or job.ready_for(server))
                if job.over():
                    return
                part, client = job.take(server), self._servers[server]
            try:
                result = await self._call(client, part, lambda share: self._report(part, share))
            except Exception as error:  # whatever a part raises, the job judges it
                async with condition:
                    pause = job.failed(server, part, error)
                    condition.notify_all()
                if pause is None:
                    return
                await asyncio.sleep(pause)
                continue
            async with condition:
                if job.succeeded(server, part, result):
                    told(self._progress, job)
                condition.notify_all()


def told(progress: Optional[Progress], job: Job) -> None:
    """progress(the job's share done); its failure ends the job."""
    if progress is None:
        return
    try:
        progress(job.share())
    except Exception as error:  # the caller's: raised where the job is awaited
        job.fail(error)


def count_total(counts: Iterable[Count], seconds: float) -> Count:
    """The job's count: its parts' added up; elapsed_seconds is the job's
    time (`seconds`, as the caller saw it)."""
    counts = list(counts)
    fundamentals = [count.fundamental for count in counts]
    return Count(solutions=sum(count.solutions for count in counts),
                 fundamental=None if None in fundamentals else sum(fundamentals),  # type: ignore
                 nodes=sum(count.nodes for count in counts), elapsed_seconds=seconds)


def solved(result: Result) -> bool:
    return result.outcome == "OUTCOME_SOLVED"


def completion(job: Job, seconds: float) -> Result:
    """The job's completion, as the CLI's: the first OUTCOME_SOLVED part's
    result; else OUTCOME_UNSOLVABLE if every part was, else
    OUTCOME_UNDECIDED (a part was, or the deadline came first), with the
    stats of the parts done merged and, when unsolvable, their certificates
    in part order."""
    if job.answer is not None:
        return job.answer  # type: ignore[no-any-return]
    parts = [job.results[index] for index in sorted(job.results)]
    unsolvable = len(parts) == job.part_count and all(
        part.outcome == "OUTCOME_UNSOLVABLE" for part in parts)
    missing = [f"part {index}: {part.certificate_missing}"
               for index, part in enumerate(parts) if part.certificate_missing]
    return Result(outcome="OUTCOME_UNSOLVABLE" if unsolvable else "OUTCOME_UNDECIDED",
                  board=None, stats=merged_stats(parts, job.part_count, seconds),
                  certificate_missing="; ".join(missing) if unsolvable else "",
                  part_certificates=[part.certificate for part in parts]
                  if unsolvable and any(part.certificate for part in parts) else [])


def merged_stats(parts: List[Result], part_count: int, seconds: float) -> Stats:
    """The first part's stats (a server's empty ones when no part was done),
    with the search's counters added up over the parts done, exact_explored
    the share of the whole searched (their sum over part_count, as the CLI
    counts it), every lowered limit, and the job's time."""
    blocks: Dict[str, Tuple[int, float]] = {}
    for part in parts:
        for block in part.stats.blocks:
            backtracks, spent = blocks.get(block.block, (0, 0.0))
            blocks[block.block] = (backtracks + block.backtracks_to, spent + block.seconds)
    stats = [part.stats for part in parts]
    return dataclasses.replace(
        stats[0] if stats else Stats.from_proto(pb.Stats()), total_seconds=seconds,
        backtracks=sum(each.backtracks for each in stats),
        restarts=sum(each.restarts for each in stats),
        blocks=[BlockStats(name, *totals) for name, totals in blocks.items()],
        exact_nodes=sum(each.exact_nodes for each in stats),
        exact_runs=sum(each.exact_runs for each in stats),
        exact_explored=sum(each.exact_explored for each in stats) / part_count,
        lowered_limits=sorted({limit for each in stats for limit in each.lowered_limits}))

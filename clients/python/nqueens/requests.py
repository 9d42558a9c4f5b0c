"""The caller's arguments, checked, as the service's request messages.

Every check happens here, before a call starts, so that a bad argument is a
TypeError or ValueError in this package's words: protobuf's own would name
its internals, and in a request stream it would fail on gRPC's thread and
end the call only CANCELLED. Shared by the blocking and the asyncio client.
"""
import dataclasses
import numbers
import secrets
from collections.abc import Iterable
from typing import (TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple,
                    TypeVar, Union)

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from nqueens.v1 import nqueens_pb2 as pb

if TYPE_CHECKING:
    import numpy.typing

# proto/wire/limits.h, which the server and the C++ client share.
MAX_CHUNK_SIZE = 65536
STREAMING_THRESHOLD = 65536  # boards of more rows go through the streams
MAX_SPARSE_QUEENS = 1 << 20
BATCH_MESSAGE_ROWS = 65536  # CompleteBatch: items per message, by their rows
MAX_PART_COUNT = 65536  # core/include/nqueens/parts.h: kMaxPartCount

REQUEST_ID_KEY = "x-request-id"  # proto/wire/request_id.h

# A board: board[i] is the 1-based column of row i + 1's queen, 0 if empty.
Board = Union[Sequence[int], "numpy.typing.NDArray[Any]"]
Metadata = Sequence[Tuple[str, Union[str, bytes]]]
Message = TypeVar("Message", pb.CompleteStreamRequest, pb.ValidateStreamRequest)


@dataclasses.dataclass(frozen=True)
class Limits:
    """Search limits of solve(), complete() and complete_batch(); 0 is the
    server's default, and the server lowers each to its maximum (the result's
    stats.lowered_limits say which)."""
    max_backtracks: int = 0
    max_restarts: int = 0
    max_exact_nodes: int = 0
    max_exact_seconds: float = 0.0

    def to_proto(self) -> pb.Limits:
        return pb.Limits(max_backtracks=uint("max_backtracks", self.max_backtracks),
                         max_restarts=uint("max_restarts", self.max_restarts, 32),
                         max_exact_nodes=uint("max_exact_nodes", self.max_exact_nodes),
                         max_exact_seconds=seconds("max_exact_seconds",
                                                   self.max_exact_seconds))


def uint(name: str, value: object, bits: int = 64) -> int:
    """value as an unsigned integer field of `bits` bits."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value < 1 << bits:
        raise ValueError(f"{name} must be from 0 to {(1 << bits) - 1}, not {value}")
    return int(value)


def seconds(name: str, value: object) -> float:
    """value as a number of seconds, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    if not 0 <= value < float("inf"):  # also refuses NaN
        raise ValueError(f"{name} must be 0 seconds or more, not {value}")
    return float(value)


def at_least_one(name: str, value: object) -> int:
    """value as a count of 1 or more."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be 1 or more, not {value}")
    return int(value)


def timeout_of(timeout: Optional[float]) -> Optional[float]:
    """A call's deadline, in seconds from now; None: none."""
    if timeout is not None and seconds("timeout", timeout) == 0:
        raise ValueError("timeout must be more than 0 seconds, not 0")
    return None if timeout is None else float(timeout)


def limits_of(limits: Optional[Limits]) -> pb.Limits:
    if limits is None:
        return pb.Limits()
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be an nqueens.Limits, not {type(limits).__name__}")
    return limits.to_proto()


def method_names(enum: EnumTypeWrapper, prefix: str) -> List[str]:
    """An enum's values as the CLI spells them, without the enum's prefix:
    "min-conflicts". Not the zero value, *_UNSPECIFIED: each call's default
    method is named instead."""
    return [name[len(prefix):].lower().replace("_", "-") for name in enum.keys()
            if enum.Value(name) != 0]


def method_value(enum: EnumTypeWrapper, name: object, prefix: str) -> int:
    """The value of a method name such as "min-conflicts" or "min_conflicts"."""
    names = method_names(enum, prefix)
    if not isinstance(name, str):
        raise TypeError(f"method must be a str, one of {', '.join(names)}; "
                        f"not {type(name).__name__}")
    spelled = name.lower().replace("_", "-")
    if spelled not in names:
        raise ValueError(f"unknown method {name!r}: use one of {', '.join(names)}")
    return int(enum.Value(prefix + spelled.upper().replace("-", "_")))


def columns_of(board: Board) -> Tuple[List[int], bool]:
    """The board as a list of ints, and whether it was a numpy array."""
    if type(board).__module__ == "numpy":  # tells without importing numpy
        array: Any = board
        if array.ndim != 1 or array.dtype.kind not in "iu":
            raise ValueError("a numpy board is a one-dimensional array of integers: "
                             "board[i] is the column of row i + 1's queen, 0 for none")
        columns = array.tolist()
    elif isinstance(board, (str, bytes)) or not isinstance(board, Iterable):
        raise TypeError("a board is a sequence of ints: board[i] is the 1-based "
                        f"column of row i + 1's queen, 0 for none; not {type(board).__name__}")
    else:
        columns = list(board)
        if not all(type(column) is int for column in columns):  # the fast common case
            for row, column in enumerate(columns, start=1):
                if isinstance(column, bool) or not isinstance(column, numbers.Integral):
                    raise TypeError(f"row {row}'s column must be an int, "
                                    f"not {type(column).__name__}")
            columns = [int(column) for column in columns]
    if columns and (min(columns) < 0 or max(columns) >= 1 << 32):
        raise ValueError("a board's columns are 1-based, 0 for an empty row")
    return columns, type(board).__module__ == "numpy"


def sparse_queens(columns: List[int]) -> Optional[List[pb.Queen]]:
    """The board's queens when it travels as a list of them, else None: with
    few queens, as the C++ client decides (client/backends/remote_backend.cc)."""
    count = len(columns) - columns.count(0)
    if count < len(columns) / 8 and count <= MAX_SPARSE_QUEENS:
        return [pb.Queen(row=row, column=column)
                for row, column in enumerate(columns, start=1) if column]
    return None


def board_fields(columns: List[int]) -> Dict[str, Any]:
    """A unary request's board: sparse or dense."""
    queens = sparse_queens(columns)
    return {"queens": queens} if queens is not None else {"columns": columns}


def n_or_board_fields(n_or_board: Union[int, Board]) -> Dict[str, Any]:
    """Count and Enumerate: an int is the empty n x n board."""
    if isinstance(n_or_board, numbers.Number):
        return {"n": uint("n", n_or_board)}
    columns, _ = columns_of(n_or_board)  # type: ignore[arg-type]
    return {"n": len(columns), **board_fields(columns)}


def part_fields(parts: Optional[int], part_index: Optional[int]) -> Dict[str, int]:
    """A request's part_index and part_count: part `part_index` of the search
    cut into `parts`; the whole search without parts. A job spread over its
    parts (parts without part_index) starts from part 0's request."""
    if parts is None:
        if part_index is not None:
            raise TypeError("part_index needs parts: the number of parts the search is cut into")
        return {}
    count = at_least_one("parts", parts)
    if count > MAX_PART_COUNT:
        raise ValueError(f"parts must be from 1 to {MAX_PART_COUNT}, not {count}")
    index = 0 if part_index is None else uint("part_index", part_index)
    if index >= count:
        raise ValueError(f"part_index must be below parts ({count}), not {index}")
    return {"part_index": index, "part_count": count}


def spreads(parts: Optional[int], part_index: Optional[int], window: int,
            resolve_every: Optional[float]) -> bool:
    """Whether a call is a job spread over every server (parts without
    part_index), `window` parts in flight on each, the servers looked up
    again every resolve_every seconds (None or 0: never); window and
    resolve_every checked either way."""
    at_least_one("window", window)
    if resolve_every is not None:
        seconds("resolve_every", resolve_every)
    return parts is not None and part_index is None


def no_progress(progress: object) -> None:
    """complete() and enumerate() tell their progress over parts only."""
    if progress is not None:
        raise TypeError("progress is for a job spread over parts: give parts without part_index")


def with_part(request: Any, part_index: int) -> Any:
    """A copy of a request (with its part_count set) asking for another part."""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.part_index = part_index
    return copy


def count_request(n_or_board: Union[int, Board], progress_seconds: float,
                  parts: Optional[int] = None,
                  part_index: Optional[int] = None) -> pb.CountRequest:
    return pb.CountRequest(**n_or_board_fields(n_or_board),
                           progress_seconds=seconds("progress_seconds", progress_seconds),
                           **part_fields(parts, part_index))


def enumerate_request(n_or_board: Union[int, Board], limit: int, parts: Optional[int] = None,
                      part_index: Optional[int] = None) -> pb.EnumerateRequest:
    return pb.EnumerateRequest(**n_or_board_fields(n_or_board), limit=uint("limit", limit),
                               **part_fields(parts, part_index))


def solve_request(n: int, method: str, seed: Optional[int], variant: int,
                  symmetry: int, limits: Optional[Limits]) -> pb.SolveRequest:
    if uint("symmetry", symmetry, 32) > 7:
        raise ValueError(f"symmetry must be from 0 to 7, not {symmetry}")
    return pb.SolveRequest(
        n=uint("n", n), method=method_value(pb.Method, method, "METHOD_"),
        seed=None if seed is None else uint("seed", seed),
        variant=uint("variant", variant), symmetry=symmetry, limits=limits_of(limits))


def solve_stream_request(request: pb.SolveRequest) -> pb.SolveStreamRequest:
    """The same request for SolveStream, whose message has SolveRequest's
    fields with the same numbers (and chunk_size, 0: the largest chunks)."""
    return pb.SolveStreamRequest.FromString(request.SerializeToString())


def complete_options(method: str, seed: Optional[int], limits: Optional[Limits],
                     want_certificate: bool, certificate_format: str,
                     parts: Optional[int] = None,
                     part_index: Optional[int] = None) -> Dict[str, Any]:
    """The fields CompleteRequest and CompleteStreamHeader share."""
    if not isinstance(want_certificate, bool):
        raise TypeError(f"want_certificate must be a bool, not {type(want_certificate).__name__}")
    value = method_value(pb.CompleteMethod, method, "COMPLETE_METHOD_")
    part = part_fields(parts, part_index)
    if part and value != pb.COMPLETE_METHOD_EXACT:
        raise ValueError(f"parts cut the exact search: give method 'exact', not {method!r}")
    return dict(method=value, seed=None if seed is None else uint("seed", seed),
                limits=limits_of(limits), want_certificate=want_certificate,
                certificate_format=certificate_format_value(certificate_format), **part)


def certificate_format_value(name: str) -> int:
    """"binary" or "text" as a CertificateFormat; never UNSPECIFIED, which
    would get the text of API 1.0, whole in one message."""
    if name not in ("binary", "text"):
        raise ValueError(f"certificate_format must be 'binary' or 'text', not {name!r}")
    return pb.CertificateFormat.Value(f"CERTIFICATE_FORMAT_{name.upper()}")


def streams_completion(n: int, options: Dict[str, Any]) -> bool:
    """Whether complete() goes through CompleteStream: for a board too big for
    one message, or for a certificate, which may be (it comes in chunks)."""
    return n > STREAMING_THRESHOLD or options["want_certificate"]


def board_stream(first: Message, chunked: List[int]) -> Iterator[Message]:
    """A request stream: its header, then the board `chunked` (empty when the
    header holds the board as queens) in row-order chunks (proto/wire/chunks.h)."""
    yield first
    for offset in range(0, len(chunked), MAX_CHUNK_SIZE):
        yield type(first)(chunk=pb.BoardChunk(
            offset=offset, columns=chunked[offset:offset + MAX_CHUNK_SIZE]))


def complete_stream(columns: List[int],
                    options: Dict[str, Any]) -> Iterator[pb.CompleteStreamRequest]:
    queens = sparse_queens(columns)
    first = pb.CompleteStreamRequest(header=pb.CompleteStreamHeader(
        n=len(columns), queens=queens or [], **options))
    return board_stream(first, columns if queens is None else [])


def validate_stream(columns: List[int], max_conflicts: int) -> Iterator[pb.ValidateStreamRequest]:
    queens = sparse_queens(columns)
    first = pb.ValidateStreamRequest(header=pb.ValidateStreamHeader(
        n=len(columns), queens=queens or [], max_conflicts=max_conflicts))
    return board_stream(first, columns if queens is None else [])


def batch_requests(boards: Iterable[Board], options: Dict[str, Any]) -> Tuple[
        List[pb.CompleteBatchRequest], List[Tuple[int, bool]]]:
    """CompleteBatch's request messages, a few items each, and each item's n
    and whether its board was a numpy array (its answer comes back as one)."""
    if isinstance(boards, (str, bytes)) or not isinstance(boards, Iterable):
        raise TypeError(f"boards must be an iterable of boards, not {type(boards).__name__}")
    messages: List[pb.CompleteBatchRequest] = []
    items: List[Tuple[int, bool]] = []
    rows = BATCH_MESSAGE_ROWS
    for index, board in enumerate(boards):
        columns, is_array = columns_of(board)
        if len(columns) > STREAMING_THRESHOLD:
            raise ValueError(f"board {index} has {len(columns)} rows: a batch item has at most "
                             f"{STREAMING_THRESHOLD}; use complete() for bigger boards")
        if rows + len(columns) > BATCH_MESSAGE_ROWS:
            messages.append(pb.CompleteBatchRequest())
            rows = 0
        messages[-1].items.append(pb.CompleteRequest(
            n=len(columns), **board_fields(columns), **options))
        rows += len(columns)
        items.append((len(columns), is_array))
    return messages, items


def call_metadata(*parts: Optional[Metadata]) -> Tuple[List[Tuple[str, Union[str, bytes]]], str]:
    """The metadata of one call, the call's own first, and its request id:
    the first x-request-id given (the one the server keeps), else a new one."""
    metadata = [(key, value) for part in parts if part for key, value in part]
    for key, value in metadata:
        if key == REQUEST_ID_KEY:
            return metadata, value if isinstance(value, str) else value.decode()
    request_id = secrets.token_hex(16)  # as wire::NewRequestId
    return metadata + [(REQUEST_ID_KEY, request_id)], request_id

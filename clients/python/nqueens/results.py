"""The service's answers as plain typed objects: Result, Stats, Validation,
Count, BatchAnswer. Shared by the blocking and the asyncio client."""
import dataclasses
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Tuple, Union

from nqueens.errors import Error, malformed, status_code
from nqueens.v1 import nqueens_pb2 as pb

if TYPE_CHECKING:
    import numpy.typing

# A board that came back: a list, or a uint32 numpy array when asked for.
BoardOut = Union[List[int], "numpy.typing.NDArray[Any]"]
Square = Tuple[int, int]  # (row, column), 1-based


@dataclasses.dataclass(frozen=True)
class BlockStats:
    block: str  # a name of nqueens.v1.Block: "BLOCK_PROJECTION", "BLOCK_EXACT", ...
    backtracks_to: int  # backtracks that returned to this block
    seconds: float  # time spent in this block


@dataclasses.dataclass(frozen=True)
class Stats:
    """How the server found a result (proto: nqueens.v1.Stats)."""
    seed: int  # the seed used: pass it back to reproduce the run
    # What ran (proto: method_used): a Method or CompleteMethod name without
    # its prefix, "CONSTRUCTIVE", "PIPELINE", ...
    method: str
    total_seconds: float
    queens_given: int
    start_block: str
    backtracks: int
    restarts: int
    blocks: List[BlockStats]
    exact_nodes: int
    exact_runs: int
    exact_explored: float
    lowered_limits: List[str]  # the limits the server lowered to its maximum
    search_nodes: int  # BACKTRACKING
    generations: int  # GENETIC
    repairs: int  # MIN_CONFLICTS: queen moves
    formula: str  # FORMULA: the family and its parameters

    @classmethod
    def from_proto(cls, stats: pb.Stats) -> "Stats":
        return cls(
            seed=stats.seed, method=stats.method_used, total_seconds=stats.total_seconds,
            queens_given=stats.queens_given, start_block=pb.Block.Name(stats.start_block),
            backtracks=stats.backtracks, restarts=stats.restarts,
            blocks=[BlockStats(pb.Block.Name(block.block), block.backtracks_to, block.seconds)
                    for block in stats.blocks],
            exact_nodes=stats.exact_nodes, exact_runs=stats.exact_runs,
            exact_explored=stats.exact_explored, lowered_limits=list(stats.lowered_limits),
            search_nodes=stats.search_nodes, generations=stats.generations,
            repairs=stats.repairs, formula=stats.formula)


@dataclasses.dataclass(frozen=True)
class Result:
    """What solve() and complete() answer."""
    # "OUTCOME_SOLVED", "OUTCOME_UNSOLVABLE" (proved) or "OUTCOME_UNDECIDED"
    # (limits reached): a name of nqueens.v1.Outcome.
    outcome: str
    board: Optional[BoardOut]  # the full board when OUTCOME_SOLVED, else None
    stats: Stats
    # complete(want_certificate=True), OUTCOME_UNSOLVABLE: the proof, in the
    # certificate_format asked (binary by default; docs/reference/certificates.md).
    certificate: bytes = b""
    certificate_missing: str = ""  # why there is no certificate
    # complete(parts=K, want_certificate=True), OUTCOME_UNSOLVABLE: each part's
    # certificate, in part order (certificate is then empty); together they
    # prove the whole (nqueens-check-certificate BOARD CERT0 CERT1 ...).
    part_certificates: List[bytes] = dataclasses.field(default_factory=list)

    def save_certificate(self, path: str) -> List[str]:
        """Writes the proof of an OUTCOME_UNSOLVABLE answer to `path`, or
        each part's to PATH.partI-of-K as the CLI's --certificate does; the
        paths written, in order, for `nqueens-check-certificate BOARD PATH...`.
        ValueError when there is none, saying why."""
        if self.certificate:
            files = [(path, self.certificate)]
        elif self.part_certificates:
            count = len(self.part_certificates)
            files = [(f"{path}.part{index}-of-{count}", proof)
                     for index, proof in enumerate(self.part_certificates)]
        else:
            raise ValueError("no certificate to save: " + (
                self.certificate_missing or
                "only an OUTCOME_UNSOLVABLE answer of complete(want_certificate=True) has one"))
        for name, proof in files:
            with open(name, "wb") as file:
                file.write(proof)
        return [name for name, _ in files]


@dataclasses.dataclass(frozen=True)
class Validation:
    valid: bool  # no two queens attack each other
    complete: bool  # valid and a queen in every row
    queen_count: int
    attacking_pairs: int
    # The first few: (square, square, line), line "LINE_COLUMN",
    # "LINE_DIAGONAL" or "LINE_ANTI_DIAGONAL".
    conflicts: List[Tuple[Square, Square, str]]


@dataclasses.dataclass(frozen=True)
class Count:
    solutions: int
    fundamental: Optional[int]  # up to symmetry; for the empty board only
    nodes: int
    elapsed_seconds: float


@dataclasses.dataclass(frozen=True)
class BatchAnswer:
    """One item of complete_batch(): its result, or its own error (the
    other items go on)."""
    index: int  # of the board in the boards given, from 0
    result: Optional[Result]
    error: Optional[Error]


def board_out(columns: Iterable[int], n: int, numpy: bool) -> BoardOut:
    if not numpy:
        return list(columns)
    import numpy as np  # only for callers who use arrays: numpy is optional
    return np.fromiter(columns, dtype=np.uint32, count=n)


def result_of(message: Union[pb.SolveResponse, pb.CompleteResponse, pb.ResultHeader],
              columns: Iterable[int], n: int, numpy: bool,
              request_id: Optional[str] = None, certificate: bytes = b"") -> Result:
    """certificate: one that came in chunks after the message, not in it."""
    if message.outcome == pb.OUTCOME_UNSPECIFIED:
        raise malformed("no outcome", request_id)
    board = None
    if message.outcome == pb.OUTCOME_SOLVED:
        columns = list(columns)
        if len(columns) != n:
            raise malformed(f"a board of {len(columns)} rows for n = {n}", request_id)
        board = board_out(columns, n, numpy)
    return Result(
        outcome=pb.Outcome.Name(message.outcome), board=board,
        stats=Stats.from_proto(message.stats),
        # SolveResponse has no certificate fields.
        certificate=getattr(message, "certificate", b"") or certificate,
        certificate_missing=getattr(message, "certificate_missing", ""))


class ResultStream:
    """Assembles a SolveStream or CompleteStream answer: a header, then the
    board in chunks when OUTCOME_SOLVED, or a certificate that the header
    announces (certificate_size) but does not hold, in chunks."""

    def __init__(self, n: int, numpy: bool):
        self.n, self.numpy = n, numpy
        self.header: Optional[pb.ResultHeader] = None
        self.board: List[int] = []
        self.certificate = bytearray()

    def add(self, message: Union[pb.SolveStreamResponse, pb.CompleteStreamResponse]) -> None:
        part = message.WhichOneof("part")
        if part == "header":
            if self.header is not None:
                raise malformed("a second result header")
            self.header = message.header
        elif part == "certificate":
            self.add_certificate(message.certificate)  # type: ignore[union-attr]
        elif self.header is None or self.header.outcome != pb.OUTCOME_SOLVED:
            raise malformed("a board chunk without an OUTCOME_SOLVED header")
        elif message.chunk.offset != len(self.board):
            raise malformed(f"a chunk at row {message.chunk.offset + 1}, "
                            f"expected row {len(self.board) + 1}")
        else:
            self.board.extend(message.chunk.columns)

    def add_certificate(self, chunk: pb.CertificateChunk) -> None:
        if self.header is None or self.header.certificate or not self.header.certificate_size:
            raise malformed("a certificate chunk that no result header announced")
        if chunk.offset != len(self.certificate):
            raise malformed(f"a certificate chunk at byte {chunk.offset}, "
                            f"expected byte {len(self.certificate)}")
        if len(self.certificate) + len(chunk.data) > self.header.certificate_size:
            raise malformed(f"certificate chunks past its size of "
                            f"{self.header.certificate_size} bytes")
        self.certificate += chunk.data

    def result(self) -> Result:
        if self.header is None:
            raise malformed("no result header")
        if not self.header.certificate and len(self.certificate) != self.header.certificate_size:
            raise malformed(f"the certificate's chunks end at byte {len(self.certificate)} "
                            f"of {self.header.certificate_size}")
        return result_of(self.header, self.board, self.n, self.numpy,
                         certificate=bytes(self.certificate))


def validation_of(response: Union[pb.ValidateResponse, pb.ValidateStreamResponse]
                  ) -> Validation:
    return Validation(
        valid=response.valid, complete=response.complete,
        queen_count=response.queen_count, attacking_pairs=response.attacking_pairs,
        conflicts=[((c.first.row, c.first.column), (c.second.row, c.second.column),
                    pb.Line.Name(c.line)) for c in response.conflicts])


def count_of(result: Optional[pb.CountResult], request_id: str) -> Count:
    if result is None:
        raise malformed("no count", request_id)
    return Count(
        solutions=result.solutions,
        fundamental=result.fundamental if result.HasField("fundamental") else None,
        nodes=result.nodes, elapsed_seconds=result.elapsed_seconds)


def batch_answers(message: pb.CompleteBatchResponse, items: List[Tuple[int, bool]],
                  request_id: str) -> List[BatchAnswer]:
    """A CompleteBatch message's answers; items: each item's n and whether
    its board was a numpy array."""
    answers = []
    for answer in message.answers:
        if answer.index >= len(items):
            raise malformed(f"an answer to item {answer.index} of {len(items)}", request_id)
        n, numpy = items[answer.index]
        if answer.WhichOneof("result") == "error":
            error = Error(status_code(answer.error.code), answer.error.message, request_id)
            answers.append(BatchAnswer(answer.index, None, error))
        else:
            response = answer.response
            answers.append(BatchAnswer(answer.index, result_of(
                response, response.columns, n, numpy, request_id), None))
    return answers

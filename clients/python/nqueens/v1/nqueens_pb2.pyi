from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

BLOCK_CONSTRUCTION: Block
BLOCK_EXACT: Block
BLOCK_FINISH: Block
BLOCK_FINISH_PREPARE: Block
BLOCK_PROJECTION: Block
BLOCK_RANDOM_PAIRING: Block
BLOCK_RAND_RAND: Block
BLOCK_UNSPECIFIED: Block
CERTIFICATE_FORMAT_BINARY: CertificateFormat
CERTIFICATE_FORMAT_TEXT: CertificateFormat
CERTIFICATE_FORMAT_UNSPECIFIED: CertificateFormat
COMPLETE_METHOD_EXACT: CompleteMethod
COMPLETE_METHOD_MIN_CONFLICTS: CompleteMethod
COMPLETE_METHOD_PIPELINE: CompleteMethod
COMPLETE_METHOD_UNSPECIFIED: CompleteMethod
DESCRIPTOR: _descriptor.FileDescriptor
LINE_ANTI_DIAGONAL: Line
LINE_COLUMN: Line
LINE_DIAGONAL: Line
LINE_UNSPECIFIED: Line
METHOD_BACKTRACKING: Method
METHOD_CONSTRUCTIVE: Method
METHOD_FORMULA: Method
METHOD_GENETIC: Method
METHOD_MIN_CONFLICTS: Method
METHOD_RANDOM: Method
METHOD_UNSPECIFIED: Method
OUTCOME_SOLVED: Outcome
OUTCOME_UNDECIDED: Outcome
OUTCOME_UNSOLVABLE: Outcome
OUTCOME_UNSPECIFIED: Outcome

class BatchItemError(_message.Message):
    __slots__ = ["code", "message"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class BlockStats(_message.Message):
    __slots__ = ["backtracks_to", "block", "seconds"]
    BACKTRACKS_TO_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    backtracks_to: int
    block: Block
    seconds: float
    def __init__(self, block: _Optional[_Union[Block, str]] = ..., backtracks_to: _Optional[int] = ..., seconds: _Optional[float] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ["columns"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, columns: _Optional[_Iterable[int]] = ...) -> None: ...

class BoardChunk(_message.Message):
    __slots__ = ["columns", "offset"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    offset: int
    def __init__(self, offset: _Optional[int] = ..., columns: _Optional[_Iterable[int]] = ...) -> None: ...

class CertificateChunk(_message.Message):
    __slots__ = ["data", "offset"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    offset: int
    def __init__(self, offset: _Optional[int] = ..., data: _Optional[bytes] = ...) -> None: ...

class CompleteBatchAnswer(_message.Message):
    __slots__ = ["error", "index", "response"]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    error: BatchItemError
    index: int
    response: CompleteResponse
    def __init__(self, index: _Optional[int] = ..., response: _Optional[_Union[CompleteResponse, _Mapping]] = ..., error: _Optional[_Union[BatchItemError, _Mapping]] = ...) -> None: ...

class CompleteBatchRequest(_message.Message):
    __slots__ = ["items"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[CompleteRequest]
    def __init__(self, items: _Optional[_Iterable[_Union[CompleteRequest, _Mapping]]] = ...) -> None: ...

class CompleteBatchResponse(_message.Message):
    __slots__ = ["answers"]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[CompleteBatchAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[CompleteBatchAnswer, _Mapping]]] = ...) -> None: ...

class CompleteRequest(_message.Message):
    __slots__ = ["certificate_format", "columns", "limits", "method", "n", "part_count", "part_index", "queens", "seed", "want_certificate"]
    CERTIFICATE_FORMAT_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    PART_COUNT_FIELD_NUMBER: _ClassVar[int]
    PART_INDEX_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    WANT_CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    certificate_format: CertificateFormat
    columns: _containers.RepeatedScalarFieldContainer[int]
    limits: Limits
    method: CompleteMethod
    n: int
    part_count: int
    part_index: int
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    seed: int
    want_certificate: bool
    def __init__(self, n: _Optional[int] = ..., columns: _Optional[_Iterable[int]] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., seed: _Optional[int] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., method: _Optional[_Union[CompleteMethod, str]] = ..., want_certificate: bool = ..., part_index: _Optional[int] = ..., part_count: _Optional[int] = ..., certificate_format: _Optional[_Union[CertificateFormat, str]] = ...) -> None: ...

class CompleteResponse(_message.Message):
    __slots__ = ["certificate", "certificate_missing", "columns", "n", "outcome", "stats"]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_MISSING_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    certificate: bytes
    certificate_missing: str
    columns: _containers.RepeatedScalarFieldContainer[int]
    n: int
    outcome: Outcome
    stats: Stats
    def __init__(self, outcome: _Optional[_Union[Outcome, str]] = ..., columns: _Optional[_Iterable[int]] = ..., stats: _Optional[_Union[Stats, _Mapping]] = ..., n: _Optional[int] = ..., certificate: _Optional[bytes] = ..., certificate_missing: _Optional[str] = ...) -> None: ...

class CompleteStreamHeader(_message.Message):
    __slots__ = ["certificate_format", "chunk_size", "limits", "method", "n", "part_count", "part_index", "queens", "seed", "want_certificate"]
    CERTIFICATE_FORMAT_FIELD_NUMBER: _ClassVar[int]
    CHUNK_SIZE_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    PART_COUNT_FIELD_NUMBER: _ClassVar[int]
    PART_INDEX_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    WANT_CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    certificate_format: CertificateFormat
    chunk_size: int
    limits: Limits
    method: CompleteMethod
    n: int
    part_count: int
    part_index: int
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    seed: int
    want_certificate: bool
    def __init__(self, n: _Optional[int] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., seed: _Optional[int] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., chunk_size: _Optional[int] = ..., method: _Optional[_Union[CompleteMethod, str]] = ..., want_certificate: bool = ..., part_index: _Optional[int] = ..., part_count: _Optional[int] = ..., certificate_format: _Optional[_Union[CertificateFormat, str]] = ...) -> None: ...

class CompleteStreamRequest(_message.Message):
    __slots__ = ["chunk", "header"]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    chunk: BoardChunk
    header: CompleteStreamHeader
    def __init__(self, header: _Optional[_Union[CompleteStreamHeader, _Mapping]] = ..., chunk: _Optional[_Union[BoardChunk, _Mapping]] = ...) -> None: ...

class CompleteStreamResponse(_message.Message):
    __slots__ = ["certificate", "chunk", "header"]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    certificate: CertificateChunk
    chunk: BoardChunk
    header: ResultHeader
    def __init__(self, header: _Optional[_Union[ResultHeader, _Mapping]] = ..., chunk: _Optional[_Union[BoardChunk, _Mapping]] = ..., certificate: _Optional[_Union[CertificateChunk, _Mapping]] = ...) -> None: ...

class Conflict(_message.Message):
    __slots__ = ["first", "line", "second"]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: Queen
    line: Line
    second: Queen
    def __init__(self, first: _Optional[_Union[Queen, _Mapping]] = ..., second: _Optional[_Union[Queen, _Mapping]] = ..., line: _Optional[_Union[Line, str]] = ...) -> None: ...

class CountProgress(_message.Message):
    __slots__ = ["elapsed_seconds", "fraction_done", "nodes"]
    ELAPSED_SECONDS_FIELD_NUMBER: _ClassVar[int]
    FRACTION_DONE_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    elapsed_seconds: float
    fraction_done: float
    nodes: int
    def __init__(self, fraction_done: _Optional[float] = ..., nodes: _Optional[int] = ..., elapsed_seconds: _Optional[float] = ...) -> None: ...

class CountRequest(_message.Message):
    __slots__ = ["columns", "n", "part_count", "part_index", "progress_seconds", "queens"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    PART_COUNT_FIELD_NUMBER: _ClassVar[int]
    PART_INDEX_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_SECONDS_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    n: int
    part_count: int
    part_index: int
    progress_seconds: float
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    def __init__(self, n: _Optional[int] = ..., columns: _Optional[_Iterable[int]] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., progress_seconds: _Optional[float] = ..., part_index: _Optional[int] = ..., part_count: _Optional[int] = ...) -> None: ...

class CountResponse(_message.Message):
    __slots__ = ["progress", "result"]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    progress: CountProgress
    result: CountResult
    def __init__(self, progress: _Optional[_Union[CountProgress, _Mapping]] = ..., result: _Optional[_Union[CountResult, _Mapping]] = ...) -> None: ...

class CountResult(_message.Message):
    __slots__ = ["elapsed_seconds", "fundamental", "n", "nodes", "solutions"]
    ELAPSED_SECONDS_FIELD_NUMBER: _ClassVar[int]
    FUNDAMENTAL_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    SOLUTIONS_FIELD_NUMBER: _ClassVar[int]
    elapsed_seconds: float
    fundamental: int
    n: int
    nodes: int
    solutions: int
    def __init__(self, n: _Optional[int] = ..., solutions: _Optional[int] = ..., fundamental: _Optional[int] = ..., nodes: _Optional[int] = ..., elapsed_seconds: _Optional[float] = ...) -> None: ...

class EnumerateRequest(_message.Message):
    __slots__ = ["columns", "limit", "n", "part_count", "part_index", "queens"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    PART_COUNT_FIELD_NUMBER: _ClassVar[int]
    PART_INDEX_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    limit: int
    n: int
    part_count: int
    part_index: int
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    def __init__(self, n: _Optional[int] = ..., columns: _Optional[_Iterable[int]] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., limit: _Optional[int] = ..., part_index: _Optional[int] = ..., part_count: _Optional[int] = ...) -> None: ...

class EnumerateResponse(_message.Message):
    __slots__ = ["boards"]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    boards: _containers.RepeatedCompositeFieldContainer[Board]
    def __init__(self, boards: _Optional[_Iterable[_Union[Board, _Mapping]]] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ["max_backtracks", "max_exact_nodes", "max_exact_seconds", "max_restarts"]
    MAX_BACKTRACKS_FIELD_NUMBER: _ClassVar[int]
    MAX_EXACT_NODES_FIELD_NUMBER: _ClassVar[int]
    MAX_EXACT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_RESTARTS_FIELD_NUMBER: _ClassVar[int]
    max_backtracks: int
    max_exact_nodes: int
    max_exact_seconds: float
    max_restarts: int
    def __init__(self, max_backtracks: _Optional[int] = ..., max_restarts: _Optional[int] = ..., max_exact_nodes: _Optional[int] = ..., max_exact_seconds: _Optional[float] = ...) -> None: ...

class Queen(_message.Message):
    __slots__ = ["column", "row"]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    column: int
    row: int
    def __init__(self, row: _Optional[int] = ..., column: _Optional[int] = ...) -> None: ...

class ResultHeader(_message.Message):
    __slots__ = ["certificate", "certificate_missing", "certificate_size", "n", "outcome", "stats"]
    CERTIFICATE_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_MISSING_FIELD_NUMBER: _ClassVar[int]
    CERTIFICATE_SIZE_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    certificate: bytes
    certificate_missing: str
    certificate_size: int
    n: int
    outcome: Outcome
    stats: Stats
    def __init__(self, outcome: _Optional[_Union[Outcome, str]] = ..., stats: _Optional[_Union[Stats, _Mapping]] = ..., n: _Optional[int] = ..., certificate: _Optional[bytes] = ..., certificate_missing: _Optional[str] = ..., certificate_size: _Optional[int] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ["limits", "method", "n", "seed", "symmetry", "variant"]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SYMMETRY_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    limits: Limits
    method: Method
    n: int
    seed: int
    symmetry: int
    variant: int
    def __init__(self, n: _Optional[int] = ..., method: _Optional[_Union[Method, str]] = ..., seed: _Optional[int] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., variant: _Optional[int] = ..., symmetry: _Optional[int] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ["columns", "n", "outcome", "stats"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    n: int
    outcome: Outcome
    stats: Stats
    def __init__(self, outcome: _Optional[_Union[Outcome, str]] = ..., columns: _Optional[_Iterable[int]] = ..., stats: _Optional[_Union[Stats, _Mapping]] = ..., n: _Optional[int] = ...) -> None: ...

class SolveStreamRequest(_message.Message):
    __slots__ = ["chunk_size", "limits", "method", "n", "seed", "symmetry", "variant"]
    CHUNK_SIZE_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SYMMETRY_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    chunk_size: int
    limits: Limits
    method: Method
    n: int
    seed: int
    symmetry: int
    variant: int
    def __init__(self, n: _Optional[int] = ..., method: _Optional[_Union[Method, str]] = ..., seed: _Optional[int] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., chunk_size: _Optional[int] = ..., variant: _Optional[int] = ..., symmetry: _Optional[int] = ...) -> None: ...

class SolveStreamResponse(_message.Message):
    __slots__ = ["chunk", "header"]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    chunk: BoardChunk
    header: ResultHeader
    def __init__(self, header: _Optional[_Union[ResultHeader, _Mapping]] = ..., chunk: _Optional[_Union[BoardChunk, _Mapping]] = ...) -> None: ...

class Stats(_message.Message):
    __slots__ = ["backtracks", "blocks", "exact_explored", "exact_nodes", "exact_runs", "formula", "generations", "lowered_limits", "method_used", "queens_given", "repairs", "restarts", "search_nodes", "seed", "start_block", "total_seconds"]
    BACKTRACKS_FIELD_NUMBER: _ClassVar[int]
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    EXACT_EXPLORED_FIELD_NUMBER: _ClassVar[int]
    EXACT_NODES_FIELD_NUMBER: _ClassVar[int]
    EXACT_RUNS_FIELD_NUMBER: _ClassVar[int]
    FORMULA_FIELD_NUMBER: _ClassVar[int]
    GENERATIONS_FIELD_NUMBER: _ClassVar[int]
    LOWERED_LIMITS_FIELD_NUMBER: _ClassVar[int]
    METHOD_USED_FIELD_NUMBER: _ClassVar[int]
    QUEENS_GIVEN_FIELD_NUMBER: _ClassVar[int]
    REPAIRS_FIELD_NUMBER: _ClassVar[int]
    RESTARTS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_NODES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    START_BLOCK_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    backtracks: int
    blocks: _containers.RepeatedCompositeFieldContainer[BlockStats]
    exact_explored: float
    exact_nodes: int
    exact_runs: int
    formula: str
    generations: int
    lowered_limits: _containers.RepeatedScalarFieldContainer[str]
    method_used: str
    queens_given: int
    repairs: int
    restarts: int
    search_nodes: int
    seed: int
    start_block: Block
    total_seconds: float
    def __init__(self, seed: _Optional[int] = ..., queens_given: _Optional[int] = ..., start_block: _Optional[_Union[Block, str]] = ..., backtracks: _Optional[int] = ..., restarts: _Optional[int] = ..., blocks: _Optional[_Iterable[_Union[BlockStats, _Mapping]]] = ..., total_seconds: _Optional[float] = ..., exact_nodes: _Optional[int] = ..., lowered_limits: _Optional[_Iterable[str]] = ..., method_used: _Optional[str] = ..., search_nodes: _Optional[int] = ..., generations: _Optional[int] = ..., repairs: _Optional[int] = ..., formula: _Optional[str] = ..., exact_runs: _Optional[int] = ..., exact_explored: _Optional[float] = ...) -> None: ...

class ValidateRequest(_message.Message):
    __slots__ = ["columns", "max_conflicts", "n", "queens"]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    MAX_CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedScalarFieldContainer[int]
    max_conflicts: int
    n: int
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    def __init__(self, n: _Optional[int] = ..., columns: _Optional[_Iterable[int]] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., max_conflicts: _Optional[int] = ...) -> None: ...

class ValidateResponse(_message.Message):
    __slots__ = ["attacking_pairs", "complete", "conflicts", "n", "queen_count", "valid"]
    ATTACKING_PAIRS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    QUEEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    attacking_pairs: int
    complete: bool
    conflicts: _containers.RepeatedCompositeFieldContainer[Conflict]
    n: int
    queen_count: int
    valid: bool
    def __init__(self, valid: bool = ..., complete: bool = ..., queen_count: _Optional[int] = ..., attacking_pairs: _Optional[int] = ..., conflicts: _Optional[_Iterable[_Union[Conflict, _Mapping]]] = ..., n: _Optional[int] = ...) -> None: ...

class ValidateStreamHeader(_message.Message):
    __slots__ = ["max_conflicts", "n", "queens"]
    MAX_CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    QUEENS_FIELD_NUMBER: _ClassVar[int]
    max_conflicts: int
    n: int
    queens: _containers.RepeatedCompositeFieldContainer[Queen]
    def __init__(self, n: _Optional[int] = ..., queens: _Optional[_Iterable[_Union[Queen, _Mapping]]] = ..., max_conflicts: _Optional[int] = ...) -> None: ...

class ValidateStreamRequest(_message.Message):
    __slots__ = ["chunk", "header"]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    chunk: BoardChunk
    header: ValidateStreamHeader
    def __init__(self, header: _Optional[_Union[ValidateStreamHeader, _Mapping]] = ..., chunk: _Optional[_Union[BoardChunk, _Mapping]] = ...) -> None: ...

class ValidateStreamResponse(_message.Message):
    __slots__ = ["attacking_pairs", "complete", "conflicts", "n", "queen_count", "valid"]
    ATTACKING_PAIRS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    QUEEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    attacking_pairs: int
    complete: bool
    conflicts: _containers.RepeatedCompositeFieldContainer[Conflict]
    n: int
    queen_count: int
    valid: bool
    def __init__(self, valid: bool = ..., complete: bool = ..., queen_count: _Optional[int] = ..., attacking_pairs: _Optional[int] = ..., conflicts: _Optional[_Iterable[_Union[Conflict, _Mapping]]] = ..., n: _Optional[int] = ...) -> None: ...

class Outcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Method(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CompleteMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CertificateFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Block(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Line(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

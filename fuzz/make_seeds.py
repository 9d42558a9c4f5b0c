#!/usr/bin/python3
"""Writes the seed corpora in fuzz/corpus/ (run once; the files are committed).

Seeds are small, valid-looking inputs that take each target past its first
checks at once; the fuzzer mutates from there. Input layouts are described
at the top of each fuzz_*.cc.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "docs", "examples")
SOLUTION_8 = [1, 7, 5, 8, 2, 4, 6, 3]


def write(target, name, data):
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def board_chunk(offset, columns):
    """A BoardChunk (offset = 1, packed columns = 2) as a serialized
    CompleteStreamRequest, whose field 2 is the chunk."""
    chunk = b""
    if offset:
        chunk += b"\x08" + varint(offset)
    if columns:
        packed = b"".join(varint(c) for c in columns)
        chunk += b"\x12" + varint(len(packed)) + packed
    return b"\x12" + varint(len(chunk)) + chunk


def chunk_stream(n, records, flags=1):
    data = bytes([flags]) + struct.pack("<Q", n)
    for kind, payload in records:
        data += bytes([kind]) + struct.pack("<H", len(payload)) + payload
    return data


def built_chunk(shift, repeats, columns):
    return struct.pack("<bB", shift, repeats) + b"".join(
        struct.pack("<H", c) for c in columns)


def board_parsers():
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith((".q", ".matrix", ".sparse")):
            shutil.copy(os.path.join(EXAMPLES, name),
                        os.path.join(HERE, "corpus", "fuzz_board_parsers", name))
    write("fuzz_board_parsers", "solution-8.bin",
          struct.pack("<8I", *SOLUTION_8))
    write("fuzz_board_parsers", "empty-4.q", "0 0 0 0\n")
    write("fuzz_board_parsers", "dots-4.matrix", ". Q . .\n. . . Q\nQ . . .\n. . Q .\n")
    write("fuzz_board_parsers", "byte-order-mark-sparse", b"\xef\xbb\xbf100110010")
    write("fuzz_board_parsers", "size-only.sparse", "1000\n")
    write("fuzz_board_parsers", "comments.q", "# a comment\n\n2 4  # row 2\n1 3\n")


def chunk_assembler():
    first, second = SOLUTION_8[:5], SOLUTION_8[5:]
    write("fuzz_chunk_assembler", "two-wire-chunks",
          chunk_stream(8, [(0, board_chunk(0, first)), (0, board_chunk(5, second))]))
    write("fuzz_chunk_assembler", "built-chunks",
          chunk_stream(8, [(1, built_chunk(0, 0, first)), (1, built_chunk(0, 0, second))]))
    write("fuzz_chunk_assembler", "reserved",
          chunk_stream(8, [(0, board_chunk(0, SOLUTION_8))], flags=3))
    write("fuzz_chunk_assembler", "overlap",
          chunk_stream(8, [(0, board_chunk(0, first)), (0, board_chunk(4, second))]))
    write("fuzz_chunk_assembler", "column-above-n",
          chunk_stream(4, [(1, built_chunk(0, 0, [1, 2, 5, 0]))]))
    write("fuzz_chunk_assembler", "huge-n", chunk_stream(
        2**64 - 1, [(1, built_chunk(0, 0, [7, 9]))], flags=2))
    write("fuzz_chunk_assembler", "repeated-chunk",
          chunk_stream(70000, [(1, built_chunk(0, 255, list(range(1, 300))))]))


def complete_validate():
    def case(n, flags, columns, seed=1):
        return bytes([n, flags]) + struct.pack("<Q", seed) + bytes(columns)
    write("fuzz_complete_validate", "composition-8",
          case(8, 0, [c if i % 2 else 0 for i, c in enumerate(SOLUTION_8)]))
    write("fuzz_complete_validate", "solution-8", case(8, 0, SOLUTION_8))
    write("fuzz_complete_validate", "attacking-8", case(8, 0, [1, 2, 0, 0, 0, 0, 0, 0]))
    write("fuzz_complete_validate", "unsolvable-3", case(3, 0, [0, 0, 0]))
    write("fuzz_complete_validate", "greedy-10", case(10, 1, [3, 7, 1, 9, 2, 0, 5, 8, 4, 6]))
    write("fuzz_complete_validate", "empty-32", case(32, 0, [0] * 32))
    write("fuzz_complete_validate", "out-of-range-5", case(5, 2, [6, 0, 0, 0, 0]))


def message(field, payload):
    """A length-delimited field of a protobuf message."""
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def packed(field, values):
    return message(field, b"".join(varint(v) for v in values))


def n_field(n):
    return b"\x08" + varint(n)


def stream(*messages):
    """The stream layout of fuzz_request_handlers: 2-byte lengths."""
    return b"".join(struct.pack("<H", len(m)) + m for m in messages)


def request_handlers():
    composition = [c if i % 2 else 0 for i, c in enumerate(SOLUTION_8)]
    queen = message(3, b"\x08\x01\x10\x01")  # row 1, column 1
    write("fuzz_request_handlers", "solve-8", b"\x00" + n_field(8))
    write("fuzz_request_handlers", "solve-random-100", b"\x00" + n_field(100) + b"\x10\x01")
    write("fuzz_request_handlers", "complete-dense-8",
          b"\x01" + n_field(8) + packed(2, composition))
    write("fuzz_request_handlers", "complete-sparse-8", b"\x01" + n_field(8) + queen)
    write("fuzz_request_handlers", "validate-8", b"\x02" + n_field(8) + packed(2, SOLUTION_8))
    write("fuzz_request_handlers", "solve-stream-100",
          b"\x03" + n_field(100) + b"\x28\x10")  # chunk_size 16
    header = message(1, n_field(8))
    chunk = message(2, packed(2, composition))
    write("fuzz_request_handlers", "complete-stream-8", b"\x04" + stream(header, chunk))
    write("fuzz_request_handlers", "validate-stream-8",
          b"\x05" + stream(header, message(2, packed(2, SOLUTION_8))))
    write("fuzz_request_handlers", "count-8", b"\x06" + n_field(8))
    write("fuzz_request_handlers", "count-completions-8",
          b"\x06" + n_field(8) + packed(2, composition))
    write("fuzz_request_handlers", "enumerate-6-limit-2", b"\x07" + n_field(6) + b"\x20\x02")
    for method in range(2, 6):  # METHOD_MIN_CONFLICTS .. METHOD_FORMULA
        write("fuzz_request_handlers", f"solve-method-{method}-20",
              b"\x00" + n_field(20) + bytes([0x10, method]))
    write("fuzz_request_handlers", "solve-symmetry-3-8",
          b"\x00" + n_field(8) + b"\x38\x03")  # symmetry 3
    write("fuzz_request_handlers", "complete-exact-8",
          b"\x01" + n_field(8) + packed(2, composition) + b"\x30\x02")  # COMPLETE_METHOD_EXACT
    dense = message(1, n_field(8) + packed(2, composition))
    sparse = message(1, n_field(8) + queen)
    write("fuzz_request_handlers", "complete-batch-8",
          b"\x08" + stream(dense + sparse, dense))  # two messages, three items


if __name__ == "__main__":
    shutil.rmtree(os.path.join(HERE, "corpus"), ignore_errors=True)
    os.makedirs(os.path.join(HERE, "corpus", "fuzz_board_parsers"))
    board_parsers()
    chunk_assembler()
    complete_validate()
    request_handlers()

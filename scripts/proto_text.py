"""Reads proto/nqueens/v1/nqueens.proto as text: its declarations and the
comments attached to them, for scripts/generate-openapi.py and
scripts/generate-reference.py. Python's standard library only, so that the
site builds without protoc's Python bindings.

It reads the part of proto3 that file uses: a package, top-level messages
(fields, `repeated`, `optional`, oneofs, `reserved`), enums and services.
Anything else (imports, options, nested types, maps, block comments) stops it
with the line, rather than being dropped from the documents.

Comments attach as protoc attaches them: the `//` lines right above a
declaration lead it; a comment after it on its line trails it, and so does a
run of `//` lines right below it that a blank line or `}` ends. One
difference: `//` lines aligned under a trailing comment continue it (protoc
drops them).
"""
import re
import sys
from dataclasses import dataclass, field as member
from typing import Dict, List, Optional

SCALARS = {"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
           "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"}


@dataclass
class Field:
    name: str
    type: str
    number: int
    repeated: bool
    optional: bool  # proto3 `optional`: presence, absent when unset
    oneof: Optional[str]  # the oneof it belongs to
    comment: str

    @property
    def json_name(self) -> str:
        """The name in the proto3 JSON mapping, as protoc derives it."""
        return re.sub(r"_(.)", lambda m: m.group(1).upper(), self.name)


@dataclass
class Message:
    name: str
    comment: str
    fields: List[Field] = member(default_factory=list)
    oneofs: List[str] = member(default_factory=list)


@dataclass
class EnumValue:
    name: str
    number: int
    comment: str


@dataclass
class Enum:
    name: str
    comment: str
    values: List[EnumValue] = member(default_factory=list)


@dataclass
class Rpc:
    name: str
    request: str
    response: str
    client_streaming: bool
    server_streaming: bool
    comment: str


@dataclass
class Service:
    name: str
    comment: str
    rpcs: List[Rpc] = member(default_factory=list)


@dataclass
class ProtoFile:
    package: str
    comment: str  # the file's top comment: the one above `syntax`
    messages: Dict[str, Message]  # in the file's order, as the enums
    enums: Dict[str, Enum]
    services: List[Service]


class ProtoError(Exception):
    pass


TOKEN = re.compile(r'(?P<space>[ \t\r]+)|(?P<newline>\n)|(?P<comment>//[^\n]*)'
                   r'|(?P<word>[A-Za-z_][\w.]*)|(?P<number>-?\d+)|(?P<string>"[^"\n]*")'
                   r'|(?P<symbol>[{}();=,])')


@dataclass
class Token:
    text: str
    line: int  # from 1


class Lines:
    """The file's lines, and the comments on them, for attaching comments."""

    def __init__(self, text: str):
        self.code = {}  # line -> whether it has a token other than a comment
        self.comments = {}  # line -> (column of //, text after //)
        self.tokens: List[Token] = []
        line, start, position = 1, 0, 0
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match:
                raise ProtoError(f"line {line}: cannot read {text[position:position + 20]!r}")
            kind, value = match.lastgroup, match.group()
            if kind == "newline":
                line, start = line + 1, match.end()
            elif kind == "comment":
                self.comments[line] = (position - start, value[2:])
            elif kind != "space":
                self.code[line] = True
                self.tokens.append(Token(value, line))
            position = match.end()
        self.count = line

    def comment_only(self, line: int) -> bool:
        return line in self.comments and line not in self.code

    def leading(self, first: int) -> str:
        """The run of comment-only lines right above line `first`."""
        line = first - 1
        while self.comment_only(line):
            line -= 1
        return self.text(range(line + 1, first))

    def trailing(self, last: int) -> str:
        """The comment after the declaration that ends on line `last`."""
        if last in self.comments:
            column = self.comments[last][0]
            end = last + 1
            while self.comment_only(end) and self.comments[end][0] == column:
                end += 1
            return self.text(range(last, end))
        end = last + 1
        while self.comment_only(end):
            end += 1
        if end == last + 1 or not self.ends_run(end):
            return ""
        return self.text(range(last + 1, end))

    def ends_run(self, line: int) -> bool:
        """Whether a run of comments just above `line` trails what precedes it:
        `line` is blank, closes a scope or lies past the end."""
        if line > self.count or line not in self.code:
            return True
        return next(t.text for t in self.tokens if t.line == line) == "}"

    def text(self, lines: range) -> str:
        return "".join(self.comments[line][1] + "\n" for line in lines)


def joined(leading: str, trailing: str) -> str:
    """A declaration's comment: the leading one, then the trailing one."""
    return "\n".join(part.strip("\n") for part in (leading, trailing) if part)


class Parser:
    def __init__(self, text: str):
        self.lines = Lines(text)
        self.tokens = self.lines.tokens
        self.at = 0

    # --- tokens ---

    def peek(self) -> str:
        return self.tokens[self.at].text if self.at < len(self.tokens) else ""

    def line(self) -> int:
        return self.tokens[min(self.at, len(self.tokens) - 1)].line

    def take(self, expected: Optional[str] = None) -> str:
        if self.at >= len(self.tokens):
            raise ProtoError(f"the file ends where {expected or 'more'} should follow")
        token = self.tokens[self.at]
        if expected is not None and token.text != expected:
            raise ProtoError(f"line {token.line}: expected {expected!r}, read {token.text!r}")
        self.at += 1
        return token.text

    def name(self) -> str:
        word = self.take()
        if not re.fullmatch(r"[A-Za-z_]\w*", word):
            raise ProtoError(f"line {self.tokens[self.at - 1].line}: {word!r} is not a name")
        return word

    def number(self) -> int:
        text = self.take()
        if not re.fullmatch(r"-?\d+", text):
            raise ProtoError(f"line {self.tokens[self.at - 1].line}: {text!r} is not a number")
        return int(text)

    def end(self, first: int) -> str:
        """Takes the `;` of a declaration that starts on line `first`, and
        returns its comment."""
        last = self.tokens[self.at].line
        self.take(";")
        return joined(self.lines.leading(first), self.lines.trailing(last))

    def opening(self, first: int) -> str:
        """Takes the `{` of a block that starts on line `first`, and returns
        the block's comment (the one above it)."""
        self.take("{")
        return joined(self.lines.leading(first), "")

    def unknown(self) -> ProtoError:
        return ProtoError(f"line {self.line()}: {self.peek()!r} is not part of the proto3 "
                          "this reader knows (scripts/proto_text.py)")

    # --- declarations ---

    def file(self) -> ProtoFile:
        first = self.line()
        self.take("syntax")
        self.take("=")
        if self.take() != '"proto3"':
            raise ProtoError(f"line {first}: only proto3 is read")
        top = self.end(first)
        self.take("package")
        package = self.take()
        self.take(";")
        messages, enums, services = {}, {}, []
        while self.at < len(self.tokens):
            keyword = self.peek()
            if keyword == "message":
                message = self.message()
                messages[message.name] = message
            elif keyword == "enum":
                enum = self.enum()
                enums[enum.name] = enum
            elif keyword == "service":
                services.append(self.service())
            else:
                raise self.unknown()
        proto = ProtoFile(package, top, messages, enums, services)
        check_types(proto)
        return proto

    def message(self) -> Message:
        first = self.line()
        self.take("message")
        message = Message(self.name(), "")
        message.comment = self.opening(first)
        while self.peek() != "}":
            if self.peek() == "oneof":
                self.oneof(message)
            elif self.peek() == "reserved":
                self.reserved()
            else:
                message.fields.append(self.field(None))
        self.take("}")
        return message

    def oneof(self, message: Message) -> None:
        self.take("oneof")
        name = self.name()
        message.oneofs.append(name)
        self.take("{")
        while self.peek() != "}":
            message.fields.append(self.field(name))
        self.take("}")

    def reserved(self) -> None:
        self.take("reserved")
        while self.peek() != ";":
            self.take()
        self.take(";")

    def field(self, oneof: Optional[str]) -> Field:
        first = self.line()
        label = self.peek() if self.peek() in ("repeated", "optional") else ""
        if label:
            self.take()
        if self.peek() in ("option", "message", "enum", "required"):
            raise self.unknown()
        kind = self.take()
        name = self.name()
        self.take("=")
        number = self.number()
        return Field(name, kind, number, label == "repeated", label == "optional", oneof,
                     self.end(first))

    def enum(self) -> Enum:
        first = self.line()
        self.take("enum")
        enum = Enum(self.name(), "")
        enum.comment = self.opening(first)
        while self.peek() != "}":
            value_line = self.line()
            name = self.name()
            self.take("=")
            number = self.number()
            enum.values.append(EnumValue(name, number, self.end(value_line)))
        self.take("}")
        return enum

    def service(self) -> Service:
        first = self.line()
        self.take("service")
        service = Service(self.name(), "")
        service.comment = self.opening(first)
        while self.peek() != "}":
            if self.peek() != "rpc":
                raise self.unknown()
            service.rpcs.append(self.rpc())
        self.take("}")
        return service

    def rpc(self) -> Rpc:
        first = self.line()
        self.take("rpc")
        name = self.name()
        client_streaming, request = self.rpc_type()
        self.take("returns")
        server_streaming, response = self.rpc_type()
        return Rpc(name, request, response, client_streaming, server_streaming,
                   self.end(first))

    def rpc_type(self):
        self.take("(")
        streaming = self.peek() == "stream"
        if streaming:
            self.take()
        kind = self.name()
        self.take(")")
        return streaming, kind


def check_types(proto: ProtoFile) -> None:
    """Every type a field or RPC names is a scalar or declared in the file."""
    known = SCALARS | set(proto.messages) | set(proto.enums)
    named = [(f"{m.name}.{f.name}", f.type) for m in proto.messages.values() for f in m.fields]
    named += [(f"{s.name}.{r.name}", t) for s in proto.services for r in s.rpcs
              for t in (r.request, r.response)]
    for where, kind in named:
        if kind not in known:
            raise ProtoError(f"{where}: type {kind} is neither a scalar nor declared in the file")


def read(path: str) -> ProtoFile:
    """The file at `path`; exits naming the file and line it cannot read."""
    with open(path) as source:
        text = source.read()
    try:
        return Parser(text).file()
    except ProtoError as error:
        sys.exit(f"{path}: {error}")


# --- comments as Markdown ---

def paragraphs(comment: str) -> str:
    """A comment as paragraphs: its lines joined, blank lines kept."""
    blocks = re.split(r"\n\s*\n", comment.strip())
    return "\n\n".join(" ".join(line.strip() for line in block.splitlines()) for block in blocks)


def sentence(text: str) -> str:
    """`text` ending as a sentence, for another to follow it."""
    return text + "." if text and text[-1] not in ".!?)" else text


def status_table(top_comment: str):
    """The .proto's top comment in Markdown, its table of status codes as a
    table of HTTP status, gRPC status and when; and that table's rows, as
    (gRPC status name, HTTP status, when). Raises ProtoError without one."""
    rows, before, after = [], [], []
    for line in top_comment.splitlines():
        entry = re.match(r"^ {2,3}([A-Z_]+) \((\d{3})\)\s+(.*)$", line)
        if entry:
            rows.append([entry.group(1), int(entry.group(2)), entry.group(3).strip()])
        elif rows and not after and re.match(r"^ {4,}\S", line):
            rows[-1][2] += " " + line.strip()
        else:
            (after if rows else before).append(line)
    if not rows:
        raise ProtoError("no table of status codes in the top comment")
    table = "\n".join(["| HTTP | gRPC | when |", "| --- | --- | --- |"] +
                      [f"| {status} | `{name}` | {when} |" for name, status, when in rows])
    text = "\n\n".join([paragraphs("\n".join(before)), table, paragraphs("\n".join(after))])
    return text, [tuple(row) for row in rows]

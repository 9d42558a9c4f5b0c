#!/usr/bin/python3 -B
"""Writes server/http/openapi.json, the OpenAPI 3.0.3 document of the
server's JSON-over-HTTP face, from what the server itself is made of:

- the messages, enums and their comments: proto/nqueens/v1/nqueens.proto,
  read by scripts/proto_text.py;
- the routes: server/http/routes.inc, the table server/http/routes.cc
  compiles, plus the gateway's own GET paths (GET_ROUTES below);
- the status codes: the table in the .proto's top comment, whose HTTP
  statuses must agree with server/http/http_status.cc's (checked here).

The server embeds the file and serves it at GET /openapi.json.

  scripts/generate-openapi.py          rewrite server/http/openapi.json
  scripts/generate-openapi.py --check  fail if it is stale (CTest
                                       http.openapi_current_test)
"""
import argparse
import difflib
import json
import os
import re
import sys
from typing import Dict, List, Set, Tuple

import proto_text
from proto_text import paragraphs, sentence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTO = "proto/nqueens/v1/nqueens.proto"
SERVICE = "NQueensService"
ROUTES = os.path.join(ROOT, "server", "http", "routes.inc")
HTTP_STATUS = os.path.join(ROOT, "server", "http", "http_status.cc")
OUTPUT = os.path.join(ROOT, "server", "http", "openapi.json")

# The JSON of each scalar type in the proto3 JSON mapping. 64-bit integers
# are strings, which JavaScript's numbers (exact up to 2^53) cannot spoil.
SCALARS = {
    "double": {"type": "number", "format": "double"},
    "float": {"type": "number", "format": "float"},
    "int64": {"type": "string", "format": "int64"},
    "sint64": {"type": "string", "format": "int64"},
    "sfixed64": {"type": "string", "format": "int64"},
    "uint64": {"type": "string", "format": "uint64"},
    "fixed64": {"type": "string", "format": "uint64"},
    "int32": {"type": "integer", "format": "int32"},
    "sint32": {"type": "integer", "format": "int32"},
    "sfixed32": {"type": "integer", "format": "int32"},
    "uint32": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295},
    "fixed32": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295},
    "bool": {"type": "boolean"},
    "string": {"type": "string"},
    "bytes": {"type": "string", "format": "byte"},
}
WIDE = {"int64", "sint64", "sfixed64", "uint64", "fixed64"}

JSON = "application/json"
NDJSON = "application/x-ndjson"

CONVENTIONS = """\
## JSON over HTTP

Each `/v1/` route calls one RPC of `nqueens.v1.NQueensService`, with the
body as its request message, and answers its response message, both in the
proto3 JSON mapping, as protobuf's own parser and printer write it:

- Field names in lowerCamelCase (`wantCertificate`); a request may use the
  .proto's names too (`want_certificate`).
- **64-bit integers are JSON strings** in answers (`"n": "8"`,
  `"solutions": "92"`): a JavaScript number is exact only up to 2^53. A
  request may send them as numbers or strings.
- Enums by name (`"method": "METHOD_RANDOM"`); a request may send the
  number. `bytes` (`certificate`) in base64. A `double` may be `"NaN"` or
  `"Infinity"`.
- An answer has every field, at its default too (`"valid": false`), except
  an `optional` field that is unset, a message that is absent and the
  members of a `oneof` but the one set.
- **Strict JSON**: a body must be one JSON object as RFC 8259 defines it,
  sent with `Content-Type: application/json` (else 415). A trailing comma, a
  comment, single quotes, a leading zero, a bare `NaN`, invalid UTF-8 or a
  field given twice is 400 `INVALID_ARGUMENT` naming the byte (counted from
  0) and the field (`invalid JSON at byte 31 (in limits): a trailing comma
  before '}'`); so is an empty body, a field the message does not have
  (the message lists those it has) and an enum name its enum does not have
  (the message lists the names).
- **NDJSON streaming**: with `Accept: application/x-ndjson`, `/v1/enumerate`
  sends one board a line and `/v1/count` each progress message and then the
  result, a `CountResponse` a line, as they come; `/v1/complete-stream`
  always answers so, a `CompleteStreamResponse` a line (the result header,
  then the board or a long certificate in chunks). The status is that of the
  first line; a failure after it is a last line `{"error": Error}`.
- **CORS** is off unless the server runs with `--http-cors-origin ORIGIN`.
  Then a preflight (`OPTIONS`) from a page of that one origin gets 204 with
  `Access-Control-Allow-Origin: ORIGIN`, the method `POST` and the headers
  `content-type, authorization, x-request-id, grpc-timeout,
  nqueens-max-response-bytes`; the answers to that origin carry
  `Access-Control-Allow-Origin: ORIGIN` (never `*`, never with credentials:
  the token goes in `Authorization`) and expose `X-Request-Id`. Another
  origin gets no CORS header (its preflight: 403); without the flag a
  preflight gets 405.

A `/v1/` answer carries the call's request id in `X-Request-Id` (the
client's own when it sends a usable one). A call's deadline is the
`grpc-timeout` header or the `timeout` query parameter. With
`--auth-token-file`, every `/v1/` route needs `Authorization: Bearer TOKEN`.
"""

# The paths the gateway serves itself (server/http/gateway.cc), by path:
# (summary, description, {HTTP status: (description, media type, schema)}).
GET_ROUTES = {
    "/healthz": (
        "Whether the server takes calls",
        "The status of the standard gRPC health service's overall check, as "
        "JSON. Needs no token.",
        {"200": ("The server takes calls.", JSON, {"$ref": "#/components/schemas/Health"}),
         "503": ("The server is shutting down.", JSON, {"$ref": "#/components/schemas/Health"})}),
    "/openapi.json": (
        "This document",
        "The OpenAPI document of the HTTP face, built into the server "
        "(server/http/openapi.json, made by scripts/generate-openapi.py). "
        "Needs no token.",
        {"200": ("The document.", JSON, {"type": "object"})}),
    "/": (
        "The playground page",
        "A page that calls the routes of this server from a browser "
        "(server/http/playground.html, built into the server). Needs no token.",
        {"200": ("The page.", "text/html", {"type": "string"})}),
}

# What a route's answer is made of, by the AnswerShape of server/http/routes.h.
SHAPES = {
    "kOne": "The answer is the RPC's one response message.",
    "kResult": "The answer is the stream's last message's `result` alone; the "
               "progress messages before it are dropped. With `Accept: "
               "application/x-ndjson` every message comes as it is sent, a `CountResponse` "
               "a line (`{\"progress\": ...}`, then `{\"result\": ...}`); a failure after "
               "the first line is a last line `{\"error\": Error}`.",
    "kBoards": "The answer is every board of the stream in one document, "
               "`{\"boards\": [...]}`, of at most 8 MiB (past it: 429, set `limit` or "
               "ask for NDJSON). With `Accept: application/x-ndjson` the boards come "
               "one a line as the search finds them, without that bound; a failure "
               "after the first line is a last line `{\"error\": Error}`.",
    "kMessages": "The answer is always NDJSON (`application/x-ndjson`), every message a "
                 "line as it is sent: the `header`, then the board's `chunk`s when "
                 "OUTCOME_SOLVED, or the `certificate` in chunks when it is longer than "
                 "one (their `data`, joined, is the certificate's base64); a failure after "
                 "the first line is a last line `{\"error\": Error}`. The request is the "
                 "stream's first message alone: its `header`, with the composition as "
                 "`queens`.",
}


def fail(message: str) -> None:
    sys.exit(f"generate-openapi.py: {message}")


# --- reading the sources ---

def read_routes() -> List[Tuple[str, str, str]]:
    """(path, RPC, shape) of each ROUTE line of routes.inc."""
    with open(ROUTES) as table:
        text = table.read()
    routes = re.findall(r'^ROUTE\("([^"]+)", (\w+), (\w+)\)$', text, re.MULTILINE)
    if len(routes) != text.count("\nROUTE("):
        fail(f"{ROUTES}: a ROUTE line this script cannot read")
    for path, _, shape in routes:
        if shape not in SHAPES:
            fail(f"{ROUTES}: {path} has shape {shape}, which this script does not know")
    return routes


def http_statuses() -> Dict[str, int]:
    """The HTTP status of each gRPC status name, as the gateway maps them."""
    with open(HTTP_STATUS) as source:
        table = dict((name, int(status)) for name, status in
                     re.findall(r'\{"([A-Z_]+)", (\d{3})\}', source.read()))
    if len(table) != 17:
        fail(f"{HTTP_STATUS}: expected the 17 gRPC codes in kCodes, read {len(table)}")
    return table


# --- schemas ---

class Schemas:
    """components/schemas: the messages and enums a route reaches, in the
    proto3 JSON mapping."""

    def __init__(self, proto: proto_text.ProtoFile):
        self.proto = proto
        self.schemas = {}

    def reachable(self, roots: List[str]) -> Set[str]:
        """The messages reachable from `roots` through their fields."""
        seen, todo = set(), list(roots)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(field.type for field in self.proto.messages[name].fields
                        if field.type in self.proto.messages)
        return seen

    def add(self, requests: List[str], answers: List[str]) -> None:
        """Every message reachable from requests and answers. A message only
        answers reach lists as `required` the fields every answer has."""
        in_requests = self.reachable(requests)
        for name in sorted(in_requests | self.reachable(answers)):
            self.schemas[name] = self.message(name, answer_only=name not in in_requests)

    def message(self, name: str, answer_only: bool) -> dict:
        message = self.proto.messages[name]
        properties, required = {}, []
        for field in message.fields:
            properties[field.json_name] = self.field(message, field)
            if answer_only and always_printed(field, self.proto):
                required.append(field.json_name)
        schema = {"type": "object", "description": paragraphs(message.comment)}
        oneofs = self.oneofs(message)
        if oneofs:
            schema["description"] = "\n\n".join(
                text for text in (schema["description"], oneofs) if text)
        if not schema["description"]:
            del schema["description"]
        schema["properties"] = properties
        if required:
            schema["required"] = required
        return schema

    @staticmethod
    def oneofs(message: proto_text.Message) -> str:
        """Which fields exclude each other."""
        groups = []
        for oneof in message.oneofs:
            members = [f"`{field.json_name}`" for field in message.fields if field.oneof == oneof]
            groups.append(f"At most one of {', '.join(members)} is set (oneof `{oneof}`).")
        return " ".join(groups)

    def field(self, message: proto_text.Message, field: proto_text.Field) -> dict:
        if field.type in self.proto.messages:
            value = {"$ref": f"#/components/schemas/{field.type}"}
        elif field.type in self.proto.enums:
            value = {"$ref": f"#/components/schemas/{self.enum(field.type)}"}
        elif field.type in SCALARS:
            value = dict(SCALARS[field.type])
        else:
            fail(f"{message.name}.{field.name}: a field type this script does not map")
        notes = [sentence(paragraphs(field.comment))]
        if field.type in WIDE:
            notes.append("64 bits: a JSON string (a request may send a number).")
        if field.optional:
            notes.append("Optional: absent when unset.")
        description = " ".join(note for note in notes if note)
        if field.repeated:
            value = {"type": "array", "items": value}
        elif "$ref" in value and description:
            value = {"allOf": [value]}  # in OpenAPI 3.0 a $ref has no siblings
        if description:
            value["description"] = description
        return value

    def enum(self, name: str) -> str:
        if name not in self.schemas:
            enum = self.proto.enums[name]
            values = "\n".join(
                f"- `{value.name}`" + (f": {text}" if (text := paragraphs(value.comment)) else "")
                for value in enum.values)
            self.schemas[name] = {
                "type": "string",
                "description": "\n\n".join(text for text in (
                    paragraphs(enum.comment), values,
                    "A request may give the value's number instead.") if text),
                "enum": [value.name for value in enum.values]}
        return name


def always_printed(field: proto_text.Field, proto: proto_text.ProtoFile) -> bool:
    """Whether every answer has the field: the gateway prints fields at their
    defaults (always_print_primitive_fields), which covers all but absent
    messages, unset `optional` fields and the members of a oneof."""
    if field.oneof or field.optional:
        return False
    return field.repeated or field.type not in proto.messages


# --- the document ---

def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def error_responses(table: List[Tuple[str, int, str]], statuses: Dict[str, int]) -> dict:
    """The error answers of a /v1/ route, by HTTP status: the .proto's table
    and the gateway's own refusals before a call."""
    by_status: Dict[int, List[str]] = {}
    for name, http_status, when in table:
        if statuses[name] != http_status:
            fail(f"{PROTO} says {name} is HTTP {http_status}, "
                 f"{HTTP_STATUS} answers {statuses[name]}")
        by_status.setdefault(http_status, []).append(f"`{name}`: {when}")
    gateway = {
        413: "`RESOURCE_EXHAUSTED`: the body is larger than --http-max-request-bytes.",
        415: "`INVALID_ARGUMENT`: the body was not sent as `Content-Type: application/json`.",
    }
    for http_status, text in gateway.items():
        by_status.setdefault(http_status, []).append(text)
    by_status[429][-1] += (" Also the room the gateway needs in --memory-budget for the "
                           "request and its answer.")
    return {str(status): {"description": "\n\n".join(texts),
                          "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}},
                          "content": {JSON: {"schema": ref("Error")}}}
            for status, texts in sorted(by_status.items())}


def rpc_route(proto: proto_text.ProtoFile, errors: dict, path: str, rpc: str,
              shape: str) -> dict:
    service = next(s for s in proto.services if s.name == SERVICE)
    found = [method for method in service.rpcs if method.name == rpc]
    if not found:
        fail(f"{ROUTES}: {path} calls {rpc}, which {SERVICE} does not have")
    request, response = found[0].request, found[0].response
    answers = proto.messages[response]
    if shape == "kOne":
        content = {JSON: {"schema": ref(response)}}
    elif shape == "kResult":
        result = next(f for f in answers.fields if f.name == "result")
        content = {JSON: {"schema": ref(result.type)},
                   NDJSON: {"schema": {"oneOf": [ref(response), ref("ErrorLine")]}}}
    elif shape == "kMessages":
        content = {NDJSON: {"schema": {"oneOf": [ref(response), ref("ErrorLine")]}}}
    else:
        boards = next(f for f in answers.fields if f.repeated)
        content = {JSON: {"schema": ref(response)},
                   NDJSON: {"schema": {"oneOf": [ref(boards.type), ref("ErrorLine")]}}}
    rpc_text = paragraphs(found[0].comment)
    return {"post": {
        "operationId": rpc,
        "summary": summary(rpc_text) or rpc,
        "description": "\n\n".join(text for text in (
            rpc_text, f"Calls `/nqueens.v1.{SERVICE}/{rpc}`. {SHAPES[shape]}") if text),
        "security": [{}, {"bearer": []}],
        "parameters": [{"$ref": "#/components/parameters/RequestId"},
                       {"$ref": "#/components/parameters/GrpcTimeout"},
                       {"$ref": "#/components/parameters/Timeout"}],
        "requestBody": {"required": True, "content": {JSON: {"schema": ref(request)}}},
        "responses": {"200": {"description": "The call's answer.",
                              "headers": {"X-Request-Id":
                                          {"$ref": "#/components/headers/RequestId"}},
                              "content": content},
                      **errors},
    }}


def summary(text: str) -> str:
    """The first sentence of `text`, without what follows a colon or a
    parenthesis when it is long."""
    first = text.split(". ")[0].rstrip(".")
    return re.split(r":| \(", first)[0] if len(first) > 80 else first


def get_route(summary: str, description: str, answers: dict) -> dict:
    return {"get": {
        "summary": summary,
        "description": description,
        "security": [{}],
        "responses": {status: {"description": text, "content": {media: {"schema": schema}}}
                      for status, (text, media, schema) in answers.items()},
    }}


def shared_components(statuses: Dict[str, int]) -> dict:
    return {
        "parameters": {
            "RequestId": {
                "name": "X-Request-Id", "in": "header", "required": False,
                "description": "The call's id in the server's log and in the answer; 1 to "
                               "128 printable ASCII characters without spaces, else the "
                               "server draws one.",
                "schema": {"type": "string", "maxLength": 128}},
            "GrpcTimeout": {
                "name": "grpc-timeout", "in": "header", "required": False,
                "description": "The call's deadline as gRPC writes it: 1 to 8 digits and "
                               "a unit (H, M, S, m for milliseconds, u, n): `500m`, `2S`. "
                               "Past it: 504.",
                "schema": {"type": "string", "pattern": "^[0-9]{1,8}[HMSmun]$"}},
            "Timeout": {
                "name": "timeout", "in": "query", "required": False,
                "description": "The call's deadline when there is no grpc-timeout header, "
                               "as Go writes durations: `1.5s`, `250ms`, `1m30s`.",
                "schema": {"type": "string"}},
        },
        "headers": {
            "RequestId": {"description": "The call's request id.",
                          "schema": {"type": "string"}},
        },
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer",
                       "description": "One of the tokens of the server's --auth-token-file; "
                                      "a server without that flag needs none."},
        },
        "schemas": {
            "Error": {
                "type": "object",
                "description": "Why a call failed (server/http/http_status.h).",
                "properties": {
                    "code": {"type": "integer", "format": "int32",
                             "description": "The gRPC status code's number."},
                    "status": {"type": "string", "enum": list(statuses),
                               "description": "The gRPC status code's name."},
                    "message": {"type": "string",
                                "description": "What was wrong, naming the field as the "
                                               ".proto spells it, or the flag of the limit."},
                    "requestId": {"type": "string",
                                  "description": "The call's request id; empty for a "
                                                 "refusal outside the /v1/ routes."},
                },
                "required": ["code", "status", "message", "requestId"],
            },
            "ErrorLine": {
                "type": "object",
                "description": "The last line of an NDJSON answer whose call failed after "
                               "its first line.",
                "properties": {"error": ref("Error")},
                "required": ["error"],
            },
            "Health": {
                "type": "object",
                "properties": {"status": {"type": "string",
                                          "enum": ["SERVING", "NOT_SERVING"]}},
                "required": ["status"],
            },
        },
    }


def document() -> dict:
    proto = proto_text.read(os.path.join(ROOT, PROTO))
    try:
        top, table = proto_text.status_table(proto.comment)
    except proto_text.ProtoError as error:
        fail(f"{PROTO}: {error}")
    statuses = http_statuses()
    version = re.search(r"API version (\d+\.\d+\.\d+)", top)
    if not version:
        fail(f"{PROTO}: the top comment names no 'API version X.Y.Z'")
    schemas = Schemas(proto)
    components = shared_components(statuses)
    errors = error_responses(table, statuses)
    paths = {}
    requests, answers = [], []
    for path, rpc, shape in read_routes():
        paths[path] = rpc_route(proto, errors, path, rpc, shape)
        operation = paths[path]["post"]
        requests.append(operation["requestBody"]["content"][JSON]["schema"]["$ref"])
        for media in operation["responses"]["200"]["content"].values():
            answers.extend(reference["$ref"] for reference in
                           media["schema"].get("oneOf", [media["schema"]]))
    for path, (summary, description, get_answers) in GET_ROUTES.items():
        paths[path] = get_route(summary, description, get_answers)
    own = set(components["schemas"])
    schemas.add([r.split("/")[-1] for r in requests],
                [r.split("/")[-1] for r in answers if r.split("/")[-1] not in own])
    components["schemas"] = {**dict(sorted(schemas.schemas.items())), **components["schemas"]}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "nqueens.v1 over HTTP",
            "version": version.group(1),
            "description": f"{top}\n\nAn error's body is an `Error`.\n\n{CONVENTIONS.strip()}",
            "license": {"name": "Apache-2.0"},
        },
        "paths": paths,
        "components": components,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if server/http/openapi.json is not what this writes")
    options = parser.parse_args()
    text = json.dumps(document(), indent=2, ensure_ascii=False) + "\n"
    if not options.check:
        with open(OUTPUT, "w") as out:
            out.write(text)
        return 0
    with open(OUTPUT) as committed:
        old = committed.read()
    if old == text:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        old.splitlines(keepends=True), text.splitlines(keepends=True),
        "server/http/openapi.json (committed)", "server/http/openapi.json (generated)"))
    print("server/http/openapi.json is stale: run scripts/generate-openapi.py", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

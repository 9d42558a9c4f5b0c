#!/usr/bin/python3
"""The status contract of nqueens.v1 (the .proto's top comment), case by case.

One table of bad requests, each sent to a real nqueens-server on 127.0.0.1
port 0 over gRPC (the bare Python stubs committed in clients/python) and over
JSON on HTTP (http.client), where both can carry it. Every case asserts the
gRPC code, the HTTP status and the error body's status, and that the message
names the field (as the .proto spells it) or the flag of the limit. The
server runs with a small --max-n, so that both sides of it are reachable.

Run by CTest:
  status_contract_test.py --server PATH --source-dir DIR
"""
import http.client
import json

import grpc
from google.protobuf import json_format

import python_support

REQUEST_SECONDS = 30
MAX_N = 1500000  # the server's --max-n
# A unary answer above 4 MiB: about 4 bytes a row, under --max-n.
TOO_LARGE_FOR_ONE_MESSAGE = 1400000

HTTP_STATUS = {"INVALID_ARGUMENT": 400, "RESOURCE_EXHAUSTED": 429, "FAILED_PRECONDITION": 400}

# (name, RPC, request in the proto3 JSON mapping, code, words the message
# must hold, transports). The RPC is also the HTTP route (/v1/<rpc>).
BOTH = ("grpc", "http")
CASES = [
    ("n zero", "Solve", {"n": 0}, "INVALID_ARGUMENT", ["n must be 1..2147483647"], BOTH),
    ("n above the build's largest board", "Solve", {"n": "3000000000"}, "INVALID_ARGUMENT",
     ["n must be 1..2147483647", "3000000000"], BOTH),
    ("n = 2^64 - 1", "Solve", {"n": str(2**64 - 1)}, "INVALID_ARGUMENT",
     ["n must be 1..2147483647"], BOTH),
    ("n above --max-n", "Solve", {"n": MAX_N + 1}, "RESOURCE_EXHAUSTED", ["--max-n"], BOTH),
    ("n above --max-n, Complete", "Complete", {"n": MAX_N + 1}, "RESOURCE_EXHAUSTED",
     ["--max-n"], BOTH),
    ("n above --max-n, Count", "Count", {"n": MAX_N + 1}, "RESOURCE_EXHAUSTED", ["--max-n"],
     BOTH),
    ("variant out of range", "Solve", {"n": 8, "method": "METHOD_FORMULA", "variant": "999"},
     "INVALID_ARGUMENT", ["variant must be 0.."], BOTH),
    ("symmetry above 7", "Solve", {"n": 8, "symmetry": 8}, "INVALID_ARGUMENT",
     ["symmetry must be 0..7"], BOTH),
    ("method number unknown", "Solve", {"n": 8, "method": 99}, "INVALID_ARGUMENT",
     ["method 99 is not one of", "METHOD_CONSTRUCTIVE"], ("grpc",)),
    ("complete method number unknown", "Complete", {"n": 8, "method": 9}, "INVALID_ARGUMENT",
     ["method 9 is not one of", "COMPLETE_METHOD_PIPELINE"], ("grpc",)),
    ("certificate format number unknown", "Complete",
     {"n": 8, "wantCertificate": True, "certificateFormat": 7}, "INVALID_ARGUMENT",
     ["certificate_format 7 is not one of", "CERTIFICATE_FORMAT_BINARY"], ("grpc",)),
    ("negative max_exact_seconds", "Complete", {"n": 8, "limits": {"maxExactSeconds": -1}},
     "INVALID_ARGUMENT", ["limits.max_exact_seconds"], BOTH),
    ("dense board shorter than n", "Complete", {"n": 8, "columns": [1, 0, 0]},
     "INVALID_ARGUMENT", ["columns", "n is 8"], BOTH),
    ("column above n", "Complete", {"n": 8, "columns": [1, 9, 0, 0, 0, 0, 0, 0]},
     "INVALID_ARGUMENT", ["columns", "row 2", "9"], BOTH),
    ("attacking queens", "Complete", {"n": 8, "columns": [1, 2, 0, 0, 0, 0, 0, 0]},
     "INVALID_ARGUMENT", ["row"], BOTH),
    ("dense and sparse at once", "Complete",
     {"n": 8, "columns": [1, 0, 0, 0, 0, 0, 0, 0], "queens": [{"row": 1, "column": 1}]},
     "INVALID_ARGUMENT", ["columns", "queens"], BOTH),
    ("queen row zero", "Complete", {"n": 8, "queens": [{"row": 0, "column": 1}]},
     "INVALID_ARGUMENT", ["queens", "row"], BOTH),
    ("queen column above n", "Validate", {"n": 8, "queens": [{"row": 1, "column": 9}]},
     "INVALID_ARGUMENT", ["queens", "column"], BOTH),
    ("two queens in one row", "Complete",
     {"n": 8, "queens": [{"row": 2, "column": 1}, {"row": 2, "column": 5}]},
     "INVALID_ARGUMENT", ["queens", "row 2"], BOTH),
    ("part_index not below part_count", "Complete",
     {"n": 8, "method": "COMPLETE_METHOD_EXACT", "partIndex": 3, "partCount": 3},
     "INVALID_ARGUMENT", ["part_index"], BOTH),
    ("count of more than 64 free rows", "Count", {"n": 65}, "INVALID_ARGUMENT",
     ["at most 64 free rows"], BOTH),
    ("enumerate of more than 64 free rows", "Enumerate", {"n": 65}, "INVALID_ARGUMENT",
     ["at most 64 free rows"], BOTH),
    ("negative progress_seconds", "Count", {"n": 8, "progressSeconds": -1}, "INVALID_ARGUMENT",
     ["progress_seconds"], BOTH),
    ("part_count above its maximum", "Count", {"n": 8, "partCount": str(2**63)},
     "INVALID_ARGUMENT", ["part_count must be 1 .."], BOTH),
    ("unary answer above 4 MiB", "Solve", {"n": TOO_LARGE_FOR_ONE_MESSAGE},
     "FAILED_PRECONDITION", ["SolveStream", "nqueens-max-response-bytes"], ("grpc",)),
    ("HTTP answer above 4 MiB", "Solve", {"n": TOO_LARGE_FOR_ONE_MESSAGE},
     "FAILED_PRECONDITION", ["SolveStream", "gRPC port"], ("http",)),
]

# Bodies only JSON can carry: (name, route, body, words the message must hold).
JSON_CASES = [
    ("empty body", "solve", "", ["empty"]),
    ("trailing comma", "solve", '{"n": 8,}', ["byte"]),
    ("unknown enum name", "solve", '{"n": 8, "method": "FORMULA"}',
     ["method", "METHOD_FORMULA"]),
    ("bare complete method name", "complete", '{"n": 8, "method": "EXACT"}',
     ["method", "COMPLETE_METHOD_EXACT"]),
    ("unknown field", "solve", '{"n": 8, "size": 9}', ["size"]),
    ("not an object", "solve", "[8]", ["object"]),
]



class StatusContractTest(python_support.ServerTestCase):
    flags = (f"--max-n={MAX_N}",)
    transports = ("grpc", "http")

    def grpc_error(self, rpc, request_json):
        """The (code name, message) of the call, which must fail."""
        request_type = {"Solve": self.pb.SolveRequest, "Complete": self.pb.CompleteRequest,
                        "Validate": self.pb.ValidateRequest, "Count": self.pb.CountRequest,
                        "Enumerate": self.pb.EnumerateRequest}[rpc]
        request = json_format.ParseDict(request_json, request_type())
        method = getattr(self.stub, rpc)
        try:
            answer = method(request, timeout=REQUEST_SECONDS)
            if rpc in ("Count", "Enumerate"):
                list(answer)  # the error comes with the stream
        except grpc.RpcError as error:
            return error.code().name, error.details()
        self.fail(f"{rpc} {request_json} succeeded")

    def http_error(self, route, body):
        """The (HTTP status, error body) of a POST, which must fail."""
        connection = http.client.HTTPConnection(self.addresses["http"], timeout=REQUEST_SECONDS)
        try:
            connection.request("POST", f"/v1/{route}", body=body.encode(),
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def assert_names(self, message, words, context):
        for word in words:
            self.assertIn(word, message, f"{context}: the message does not say {word!r}")

    def test_every_case_over_grpc(self):
        for name, rpc, request, code, words, transports in CASES:
            if "grpc" not in transports:
                continue
            with self.subTest(name):
                got_code, message = self.grpc_error(rpc, request)
                self.assertEqual(got_code, code, f"{name}: {message}")
                self.assert_names(message, words, name)

    def test_every_case_over_http(self):
        for name, rpc, request, code, words, transports in CASES:
            if "http" not in transports:
                continue
            with self.subTest(name):
                status, body = self.http_error(rpc.lower(), json.dumps(request))
                self.assertEqual(status, HTTP_STATUS[code], f"{name}: {body}")
                self.assertEqual(body["status"], code, name)
                self.assert_names(body["message"], words, name)

    def test_bodies_only_json_carries(self):
        for name, route, body, words in JSON_CASES:
            with self.subTest(name):
                status, answer = self.http_error(route, body)
                self.assertEqual(status, 400, f"{name}: {answer}")
                self.assertEqual(answer["status"], "INVALID_ARGUMENT", name)
                self.assert_names(answer["message"], words, name)

    def test_a_good_request_still_answers(self):
        """The table's requests fail for their one fault: the same call
        without it succeeds (and the board it gets is a solution)."""
        response = self.stub.Solve(self.pb.SolveRequest(n=8, method=self.pb.METHOD_FORMULA),
                                   timeout=REQUEST_SECONDS)
        self.assertEqual(response.outcome, self.pb.OUTCOME_SOLVED)
        report = self.stub.Validate(self.pb.ValidateRequest(n=8, columns=response.columns),
                                    timeout=REQUEST_SECONDS)
        self.assertTrue(report.complete)


def main():
    python_support.main(__doc__.splitlines()[0])


if __name__ == "__main__":
    main()

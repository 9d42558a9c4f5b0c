#!/usr/bin/python3
"""The HTTP face of nqueens-server, called by a real client.

Starts nqueens-server with --http-listen=127.0.0.1:0 (reading the port from
its "listening for HTTP on HOST:PORT" line) and calls every route of the
contract (/tmp/http/contract.md) with http.client: JSON in, JSON out, the
error mapping and its body, request ids, deadlines, cancellation when the
client goes away, bearer tokens and TLS (with certificates the openssl CLI
makes, as the TLS guide's recipe does). Boards are checked by the CLI's
own validator (`nqueens --local validate`) and certificates by
nqueens-check-certificate, never by trusting the server. Python 3 standard
library only.

usage: http_api_test.py --server PATH --client PATH --checker PATH [unittest args]
"""
import base64
import http.client
import json
import os
import re
import select
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
from typing import Dict, Iterator, List, Optional, Sequence

import tools

OPTIONS = None  # the parsed command line

# What the server must serve at GET /openapi.json (scripts/generate-openapi.py).
OPENAPI_DOCUMENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "server", "http", "openapi.json")

STARTUP_SECONDS = 30
REQUEST_SECONDS = 30  # the longest any request of this suite may take
PATIENCE_SECONDS = 10  # how long the server may take to react (free a worker, drain)

# gRPC status codes by name, as the error body's `code` and `status` give them.
GRPC_CODES = {
    "OK": 0, "CANCELLED": 1, "UNKNOWN": 2, "INVALID_ARGUMENT": 3, "DEADLINE_EXCEEDED": 4,
    "NOT_FOUND": 5, "ALREADY_EXISTS": 6, "PERMISSION_DENIED": 7, "RESOURCE_EXHAUSTED": 8,
    "FAILED_PRECONDITION": 9, "ABORTED": 10, "OUT_OF_RANGE": 11, "UNIMPLEMENTED": 12,
    "INTERNAL": 13, "UNAVAILABLE": 14, "DATA_LOSS": 15, "UNAUTHENTICATED": 16,
}

# A count that runs for minutes on one worker (n = 17 takes a few seconds):
# the long call of the tests that need one. Each such test ends it.
LONG_COUNT = {"n": 19}

# 10-queens with these three queens has no completion (checked by brute force
# in test_complete_unsolvable_with_certificate).
UNSOLVABLE_10 = [1, 0, 0, 0, 2, 0, 0, 0, 0, 8]
# How a certificate starts in each format (docs/reference/certificates.md).
BINARY_MAGIC = b"NQCERT\r\n"
TEXT_FIRST_LINE = b"nqueens-certificate 1\n"


# --- what this file checks by itself ---

def completions(columns: Sequence[int]) -> Iterator[List[int]]:
    """Every completion of a composition (small n), by plain backtracking."""
    n = len(columns)

    def free(board: List[int], column: int) -> bool:
        row = len(board)
        return all(c != column and abs(c - column) != row - r for r, c in enumerate(board))

    def extend(board: List[int]) -> Iterator[List[int]]:
        row = len(board)
        if row == n:
            yield list(board)
            return
        candidates = [columns[row]] if columns[row] else range(1, n + 1)
        for column in candidates:
            if free(board, column):
                yield from extend(board + [column])

    given = [(r, c) for r, c in enumerate(columns) if c]
    for i, (r1, c1) in enumerate(given):
        for r2, c2 in given[i + 1:]:
            if c1 == c2 or abs(c1 - c2) == r2 - r1:
                return
    yield from extend([])


def queens_of(columns: Sequence[int]) -> List[dict]:
    """The sparse form of a dense composition."""
    return [{"row": row, "column": column}
            for row, column in enumerate(columns, start=1) if column]


def every_nth(solution: Sequence[int], stride: int) -> List[int]:
    return [column if row % stride == 0 else 0 for row, column in enumerate(solution)]


def write_board(directory: str, columns: Sequence[int], name: str = "board.q") -> str:
    path = os.path.join(directory, name)
    with open(path, "w") as board:
        board.write(" ".join(str(column) for column in columns) + "\n")
    return path


def validate_locally(columns: Sequence[int]) -> tuple:
    """(exit status, report) of `nqueens --local --json validate` on the board:
    the CLI's own validator, in its own process."""
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(
            [OPTIONS.client, "--local", "--json", "--quiet", "validate",
             write_board(directory, columns)],
            capture_output=True, text=True, timeout=REQUEST_SECONDS)
    if result.returncode not in (0, 1):
        raise AssertionError(f"nqueens validate exited {result.returncode}: {result.stderr}")
    return result.returncode, json.loads(result.stdout)


def check_certificate(columns: Sequence[int], certificate: bytes) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as directory:
        board = write_board(directory, columns)
        proof = os.path.join(directory, "proof.cert")
        with open(proof, "wb") as file:
            file.write(certificate)
        return subprocess.run([OPTIONS.checker, board, proof], capture_output=True, text=True,
                              timeout=REQUEST_SECONDS)


def wait_until(condition, what: str, seconds: float = PATIENCE_SECONDS):
    """Polls condition() until it returns something true, at most `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


# --- certificates ---

class Certificates:
    """A CA, a server certificate for 127.0.0.1 (IP SAN), a client certificate
    the CA signed, and a client certificate of another CA, made as the TLS guide's
    security recipe makes them."""

    def __init__(self, directory: str):
        self.directory = directory
        self.ca = self.make_ca("ca", "nqueens-ca")
        self.server = self.make_certificate(
            "server", "nqueens-server", self.ca,
            "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n")
        self.client = self.make_certificate("client", "nqueens-client", self.ca,
                                            "extendedKeyUsage=clientAuth\n")
        rogue_ca = self.make_ca("rogue-ca", "someone-else")
        self.rogue_client = self.make_certificate("rogue-client", "nqueens-client", rogue_ca,
                                                  "extendedKeyUsage=clientAuth\n")

    def path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def openssl(self, *arguments: str) -> None:
        subprocess.run(["openssl", *arguments], check=True, capture_output=True,
                       cwd=self.directory, timeout=STARTUP_SECONDS)

    def make_ca(self, name: str, subject: str) -> tuple:
        self.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                     "-nodes", "-days", "30", "-subj", f"/CN={subject}",
                     "-keyout", f"{name}.key", "-out", f"{name}.pem")
        return self.path(f"{name}.pem"), self.path(f"{name}.key")

    def make_certificate(self, name: str, subject: str, ca: tuple, extensions: str) -> tuple:
        """(certificate, key) signed by ca."""
        self.openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                     "-nodes", "-subj", f"/CN={subject}", "-keyout", f"{name}.key",
                     "-out", f"{name}.csr")
        with open(self.path(f"{name}.cnf"), "w") as file:
            file.write(extensions)
        self.openssl("x509", "-req", "-days", "30", "-in", f"{name}.csr", "-CA", ca[0],
                     "-CAkey", ca[1], "-CAcreateserial", "-extfile", f"{name}.cnf",
                     "-out", f"{name}.pem")
        return self.path(f"{name}.pem"), self.path(f"{name}.key")

    def client_context(self, certificate: Optional[tuple] = None) -> ssl.SSLContext:
        """Trusts our CA only; presents `certificate` when given."""
        context = ssl.create_default_context(cafile=self.ca[0])
        if certificate:
            context.load_cert_chain(*certificate)
        return context


# --- the server and calls to it ---

class Response:
    def __init__(self, status: int, headers, body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name)

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"HTTP {self.status} {self.body[:500]!r}"


class Server:
    """nqueens-server on 127.0.0.1 port 0 with its HTTP face on port 0,
    logging JSON lines to a file. `context`: the SSL context of HTTPS calls
    (the server then needs --tls-cert and --tls-key)."""

    def __init__(self, *flags: str, context: Optional[ssl.SSLContext] = None):
        self.directory = tempfile.TemporaryDirectory()
        self.log_path = os.path.join(self.directory.name, "server.log")
        self.context = context
        self.grpc_address = None
        self.metrics_url = None
        self.terminated = False
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [OPTIONS.server, "--listen=127.0.0.1:0", "--http-listen=127.0.0.1:0",
                 "--log-format=json", "--log-level=info", *flags],
                stdout=subprocess.PIPE, stderr=log)
        self._stdout = b""
        try:
            self._read_addresses(time.monotonic() + STARTUP_SECONDS)
            if any(flag.startswith("--metrics-listen") for flag in flags):
                port = wait_until(self._metrics_port, "the log names the metrics port",
                                  STARTUP_SECONDS)
                self.metrics_url = f"http://127.0.0.1:{port}/metrics"
        except BaseException:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self.directory.cleanup()
            raise

    def _read_line(self, deadline: float) -> str:
        fd = self.process.stdout.fileno()
        while b"\n" not in self._stdout:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise RuntimeError(f"the server printed no address in time; log:\n{self.log()}")
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError(f"the server exited at start; log:\n{self.log()}")
            self._stdout += chunk
        line, _, self._stdout = self._stdout.partition(b"\n")
        return line.decode()

    def _read_addresses(self, deadline: float) -> None:
        while True:
            line = self._read_line(deadline)
            if line.startswith("listening on "):
                self.grpc_address = self.grpc_address or line[len("listening on "):]
            elif line.startswith("listening for HTTP on "):
                self.host, _, port = line[len("listening for HTTP on "):].rpartition(":")
                self.port = int(port)
                return
            else:
                raise RuntimeError(f"unexpected line from the server: {line!r}")

    def _metrics_port(self) -> Optional[int]:
        match = re.search(r"serving metrics on http://127\.0\.0\.1:(\d+)/metrics", self.log())
        return int(match.group(1)) if match else None

    def log(self) -> str:
        with open(self.log_path) as log:
            return log.read()

    def logged_calls(self) -> List[dict]:
        """The calls the server logged so far (complete lines only)."""
        calls = []
        for line in self.log().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a line being written
            if isinstance(record, dict) and "method" in record:
                calls.append(record)
        return calls

    def terminate(self) -> None:
        """SIGTERM, once."""
        if not self.terminated and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.terminated = True

    def stop(self, seconds: float = STARTUP_SECONDS) -> int:
        """SIGTERM (unless sent already); the exit status."""
        self.terminate()
        try:
            return self.process.wait(timeout=seconds)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.directory.cleanup()

    # --- HTTP ---

    def connect(self, context: Optional[ssl.SSLContext] = None, tls: Optional[bool] = None,
                timeout: float = REQUEST_SECONDS) -> http.client.HTTPConnection:
        """A new connection: HTTPS when the server was given a context (or
        `context` is given), unless tls=False."""
        context = context or self.context
        if tls is None:
            tls = context is not None
        if tls:
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout,
                                               context=context)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def send(self, method: str, path: str, body=None, headers: Optional[Dict[str, str]] = None,
             **connect_options) -> http.client.HTTPConnection:
        """A connection on which the request has been sent, its answer unread."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        headers = dict(headers or {})
        if body is not None:
            headers.setdefault("Content-Type", "application/json")
        connection = self.connect(**connect_options)
        connection.request(method, path, body=body, headers=headers)
        return connection

    def request(self, method: str, path: str, body=None,
                headers: Optional[Dict[str, str]] = None, **connect_options) -> Response:
        connection = self.send(method, path, body, headers, **connect_options)
        try:
            answer = connection.getresponse()
            return Response(answer.status, answer.headers, answer.read())
        finally:
            connection.close()

    def post(self, path: str, body, headers: Optional[Dict[str, str]] = None,
             **connect_options) -> Response:
        return self.request("POST", path, body, headers, **connect_options)

    # --- metrics ---

    def metrics(self) -> List[tuple]:
        """(name, labels, value) of each sample of the metrics page."""
        with urllib.request.urlopen(self.metrics_url, timeout=REQUEST_SECONDS) as page:
            text = page.read().decode()
        samples = []
        for line in text.splitlines():
            match = re.match(r"([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)", line)
            if not line.startswith("#") and match:
                labels = dict(re.findall(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"',
                                         match.group(2) or ""))
                samples.append((match.group(1), labels, float(match.group(3))))
        return samples

    def metric(self, name: str, samples: Optional[List[tuple]] = None, **labels: str) -> float:
        """The sum of the series `name` whose labels include `labels`."""
        samples = self.metrics() if samples is None else samples
        return sum(value for sample_name, sample_labels, value in samples
                   if sample_name == name
                   and all(sample_labels.get(key) == want for key, want in labels.items()))

    def metric_change(self, before: List[tuple], name: str, **labels: str) -> float:
        """How much the series `name` (with `labels`) grew since the scrape
        `before`."""
        return self.metric(name, **labels) - self.metric(name, before, **labels)

    def calls_in_flight(self) -> float:
        return self.metric("nqueens_calls_in_flight")


_certificates = None
_certificates_directory = None


def certificates() -> Certificates:
    """Made once per run, removed at exit."""
    global _certificates, _certificates_directory
    if _certificates is None:
        _certificates_directory = tempfile.TemporaryDirectory()
        _certificates = Certificates(_certificates_directory.name)
    return _certificates


# --- the tests ---

class HttpTestCase(unittest.TestCase):
    """Starts `cls.flags`' server once for the class's tests."""
    flags: Sequence[str] = ()
    server: Server

    @classmethod
    def setUpClass(cls):
        cls.server = cls.start_server()

    @classmethod
    def start_server(cls) -> Server:
        return Server(*cls.flags)

    @classmethod
    def tearDownClass(cls):
        exit_code = cls.server.stop()
        if exit_code != 0:
            raise AssertionError(f"the server exited with {exit_code} after SIGTERM")

    # --- checks ---

    def assert_json_answer(self, response: Response, status: int = 200):
        self.assertEqual(response.status, status, response)
        content_type = response.header("Content-Type") or ""
        self.assertTrue(content_type.startswith("application/json"),
                        f"Content-Type: {content_type!r} ({response})")
        return response.json()

    def assert_ok(self, response: Response) -> dict:
        body = self.assert_json_answer(response, 200)
        self.assertTrue(response.header("X-Request-Id"), "no X-Request-Id on a /v1/ answer")
        return body

    def assert_error(self, response: Response, http_status: int, status: str,
                     *fragments: str, call_began: bool = True) -> dict:
        """The contract's error body {code, status, message, requestId}, with
        each fragment in its message. requestId may be empty only for an
        error before a call began (call_began=False); when it is not, the
        X-Request-Id header says the same."""
        body = self.assert_json_answer(response, http_status)
        self.assertEqual(set(body), {"code", "status", "message", "requestId"}, body)
        self.assertEqual(body["status"], status, body)
        self.assertEqual(body["code"], GRPC_CODES[status], body)
        self.assertIsInstance(body["message"], str)
        self.assertTrue(body["message"], body)
        for fragment in fragments:
            self.assertIn(fragment, body["message"])
        if call_began:
            self.assertTrue(body["requestId"], body)
        if body["requestId"]:
            self.assertEqual(body["requestId"], response.header("X-Request-Id"))
        return body

    def assert_solution(self, n: int, columns: Sequence[int], composition: Sequence[int] = ()):
        """A full solution of n rows by the CLI's validator, holding every
        queen of composition."""
        self.assertEqual(len(columns), n)
        self.assertTrue(all(isinstance(column, int) for column in columns), columns)
        exit_status, report = validate_locally(columns)
        self.assertEqual((exit_status, report["valid"], report["complete"]), (0, True, True),
                         f"not a solution of n = {n}: {report}")
        for row, column in enumerate(composition):
            if column:
                self.assertEqual(columns[row], column, f"row {row + 1} was moved")

    def solution(self, n: int, seed: int = 1) -> List[int]:
        """A random solution (sub-compositions of the construction are easy)."""
        body = self.assert_ok(self.server.post(
            "/v1/solve", {"n": n, "method": "METHOD_RANDOM", "seed": seed}))
        self.assert_solution(n, body["columns"])
        return body["columns"]


class RoutesTest(HttpTestCase):
    """Every route, the JSON mapping, request ids, deadlines and errors, on a
    plain server with small limits of its own."""
    MAX_N = 100000
    MAX_REQUEST_BYTES = 65536
    flags = ("--workers=2", f"--max-n={MAX_N}",
             f"--http-max-request-bytes={MAX_REQUEST_BYTES}", "--metrics-listen=127.0.0.1:0")

    # --- solve ---

    def test_solve_with_several_methods(self):
        # The Method value's name, and what ran: that name without its prefix.
        sizes = {"CONSTRUCTIVE": 1000, "RANDOM": 1000, "MIN_CONFLICTS": 500,
                 "BACKTRACKING": 20, "GENETIC": 20, "FORMULA": 100}
        for method, n in sizes.items():
            with self.subTest(method=method):
                body = self.assert_ok(self.server.post(
                    "/v1/solve", {"n": n, "method": f"METHOD_{method}"}))
                self.assertEqual(body["outcome"], "OUTCOME_SOLVED")
                self.assertEqual(body["n"], str(n))  # uint64 as a string
                self.assertEqual(body["stats"]["methodUsed"], method)
                self.assert_solution(n, body["columns"])

    def test_solve_takes_strings_for_64_bit_numbers_and_enum_numbers(self):
        body = self.assert_ok(self.server.post(
            "/v1/solve", {"n": "16", "method": 2, "seed": "7"}))
        self.assertEqual(body["stats"]["methodUsed"], "MIN_CONFLICTS")
        self.assertEqual(body["stats"]["seed"], "7")
        self.assert_solution(16, body["columns"])

    def test_solve_without_solution(self):
        for n in (2, 3):
            body = self.assert_ok(self.server.post(
                "/v1/solve", {"n": n, "method": "METHOD_RANDOM"}))
            self.assertEqual(body["outcome"], "OUTCOME_UNSOLVABLE")
            self.assertEqual(body["columns"], [])  # printed at its default value

    # --- complete ---

    def test_complete_dense(self):
        composition = every_nth(self.solution(1000), 3)
        body = self.assert_ok(self.server.post(
            "/v1/complete", {"n": 1000, "columns": composition}))
        self.assertEqual(body["outcome"], "OUTCOME_SOLVED")
        self.assertEqual(body["stats"]["queensGiven"],
                         str(sum(1 for column in composition if column)))
        self.assert_solution(1000, body["columns"], composition)

    def test_complete_sparse(self):
        composition = every_nth(self.solution(300, seed=2), 2)
        body = self.assert_ok(self.server.post(
            "/v1/complete", {"n": "300", "queens": queens_of(composition), "seed": 7}))
        self.assertEqual(body["outcome"], "OUTCOME_SOLVED")
        self.assertEqual(body["stats"]["seed"], "7")
        self.assert_solution(300, body["columns"], composition)

    def test_complete_unsolvable_with_certificate(self):
        self.assertIsNone(next(completions(UNSOLVABLE_10), None), "the fixture is solvable")
        # Both spellings of the field, and both methods that may prove it.
        for request in ({"n": 10, "columns": UNSOLVABLE_10, "want_certificate": True},
                        {"n": 10, "queens": queens_of(UNSOLVABLE_10), "wantCertificate": True,
                         "method": "COMPLETE_METHOD_EXACT"}):
            with self.subTest(request=request):
                body = self.assert_ok(self.server.post("/v1/complete", request))
                self.assertEqual(body["outcome"], "OUTCOME_UNSOLVABLE", body)
                certificate = base64.b64decode(body["certificate"], validate=True)
                self.assertTrue(certificate, body.get("certificateMissing"))
                checked = check_certificate(UNSOLVABLE_10, certificate)
                self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_complete_answers_the_certificate_format_asked_unset_meaning_text(self):
        for certificate_format, start in ((None, TEXT_FIRST_LINE),
                                          ("CERTIFICATE_FORMAT_TEXT", TEXT_FIRST_LINE),
                                          ("CERTIFICATE_FORMAT_BINARY", BINARY_MAGIC)):
            with self.subTest(certificate_format=certificate_format):
                request = {"n": 10, "columns": UNSOLVABLE_10, "wantCertificate": True}
                if certificate_format:
                    request["certificateFormat"] = certificate_format
                body = self.assert_ok(self.server.post("/v1/complete", request))
                certificate = base64.b64decode(body["certificate"], validate=True)
                self.assertTrue(certificate.startswith(start), body)
                checked = check_certificate(UNSOLVABLE_10, certificate)
                self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_complete_stream_sends_a_long_certificate_in_lines_after_the_header(self):
        # Chunks of 3 bytes (chunkSize 1): this short proof takes many lines,
        # as a long one takes chunks of 192 KiB. JSON lines, whatever Accept says.
        request = {"header": {"n": 10, "queens": queens_of(UNSOLVABLE_10), "wantCertificate": True,
                              "certificateFormat": "CERTIFICATE_FORMAT_BINARY", "chunkSize": 1}}
        for accept in ("application/x-ndjson", "application/json"):
            with self.subTest(accept=accept):
                answer, lines = self.post_ndjson("/v1/complete-stream", request, {"Accept": accept})
                self.assertTrue(answer.headers.get("X-Request-Id"))
                header = lines[0]["header"]
                self.assertEqual((header["outcome"], header["certificate"]),
                                 ("OUTCOME_UNSOLVABLE", ""), header)
                chunks = [line["certificate"] for line in lines[1:]]
                self.assertEqual([int(chunk["offset"]) for chunk in chunks],
                                 list(range(0, 3 * len(chunks), 3)))
                # Every chunk but the last holds 3 bytes: the base64 texts join.
                certificate = base64.b64decode("".join(chunk["data"] for chunk in chunks),
                                               validate=True)
                self.assertEqual(len(certificate), int(header["certificateSize"]))
                self.assertGreater(len(chunks), 1)
                self.assertTrue(certificate.startswith(BINARY_MAGIC), certificate)
                checked = check_certificate(UNSOLVABLE_10, certificate)
                self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_complete_stream_sends_a_solution_in_chunks(self):
        composition = every_nth(self.solution(250, seed=3), 2)
        _, lines = self.post_ndjson("/v1/complete-stream", {"header": {
            "n": 250, "queens": queens_of(composition), "chunkSize": 100}})
        self.assertEqual(lines[0]["header"]["outcome"], "OUTCOME_SOLVED", lines[0])
        chunks = [line["chunk"] for line in lines[1:]]
        self.assertEqual([(int(chunk["offset"]), len(chunk["columns"])) for chunk in chunks],
                         [(0, 100), (100, 100), (200, 50)])
        self.assert_solution(250, [column for chunk in chunks for column in chunk["columns"]],
                             composition)

    # --- validate ---

    def test_validate_a_solution(self):
        solution = self.solution(50)
        body = self.assert_ok(self.server.post("/v1/validate", {"n": 50, "columns": solution}))
        self.assertEqual((body["valid"], body["complete"], body["queenCount"]),
                         (True, True, "50"))
        self.assertEqual(body["conflicts"], [])

    def test_validate_a_valid_partial_board_prints_defaults(self):
        body = self.assert_ok(self.server.post(
            "/v1/validate", {"n": 4, "queens": [{"row": 1, "column": 2}]}))
        self.assertEqual((body["valid"], body["complete"], body["attackingPairs"]),
                         (True, False, "0"))

    def test_validate_an_invalid_board_lists_its_conflicts(self):
        board = [1, 2, 0, 0, 0, 0, 0, 2]  # rows 1 and 2 share a diagonal, rows 2 and 8 a column
        exit_status, local = validate_locally(board)
        self.assertEqual(exit_status, 1)
        body = self.assert_ok(self.server.post("/v1/validate", {"n": 8, "columns": board}))
        self.assertFalse(body["valid"])
        self.assertFalse(body["complete"])
        self.assertEqual(body["attackingPairs"], local["attackingPairs"])
        self.assertEqual(body["conflicts"], local["conflicts"])
        self.assertIn({"first": {"row": 1, "column": 1}, "second": {"row": 2, "column": 2},
                       "line": "LINE_DIAGONAL"}, body["conflicts"])
        self.assertIn({"first": {"row": 2, "column": 2}, "second": {"row": 8, "column": 2},
                       "line": "LINE_COLUMN"}, body["conflicts"])

    # --- count ---

    def test_count(self):
        body = self.assert_ok(self.server.post("/v1/count", {"n": 8}))
        self.assertEqual(body["solutions"], "92")  # OEIS A000170
        self.assertEqual(body["fundamental"], "12")  # OEIS A002562
        body = self.assert_ok(self.server.post("/v1/count", {"n": 6}))
        self.assertEqual(body["solutions"], "4")
        self.assertNotIn("progress", body)  # the result alone

    def test_count_a_composition(self):
        for n, composition in ((6, [2, 0, 0, 0, 0, 0]), (8, [1, 0, 0, 0, 0, 0, 0, 0])):
            expected = str(sum(1 for _ in completions(composition)))
            for form in ({"columns": composition}, {"queens": queens_of(composition)}):
                with self.subTest(n=n, form=form):
                    body = self.assert_ok(self.server.post("/v1/count", {"n": n, **form}))
                    self.assertEqual(body["solutions"], expected)

    # --- enumerate ---

    def post_ndjson(self, path: str, request: dict, headers: Optional[dict] = None) -> tuple:
        """(response, parsed lines) of an answer asked for as NDJSON."""
        connection = self.server.send("POST", path, request,
                                      {"Accept": "application/x-ndjson", **(headers or {})})
        try:
            answer = connection.getresponse()
            self.assertEqual(answer.status, 200)
            self.assertTrue(
                answer.headers.get("Content-Type", "").startswith("application/x-ndjson"))
            lines = [json.loads(line) for line in iter(answer.readline, b"") if line.strip()]
            return answer, lines
        finally:
            connection.close()

    def assert_error_line(self, line: dict, status: str):
        self.assertEqual(set(line), {"error"}, line)
        error = line["error"]
        self.assertEqual(set(error), {"code", "status", "message", "requestId"}, error)
        self.assertEqual((error["status"], error["code"]), (status, GRPC_CODES[status]))

    def assert_boards(self, n: int, boards: List[dict], composition: Sequence[int] = ()):
        """Distinct full boards, each a solution (by the CLI's validator)
        extending composition."""
        for board in boards:
            self.assertEqual(set(board), {"columns"}, board)
            self.assert_solution(n, board["columns"], composition)
        self.assertEqual(len({tuple(board["columns"]) for board in boards}), len(boards),
                         "boards repeat")

    def test_enumerate_one_document_with_limit(self):
        body = self.assert_ok(self.server.post("/v1/enumerate", {"n": 8, "limit": 5}))
        self.assertEqual(set(body), {"boards"})
        self.assertEqual(len(body["boards"]), 5)
        self.assert_boards(8, body["boards"])

    def test_enumerate_every_completion(self):
        composition = [1, 0, 0, 0, 0, 0, 0, 0]
        body = self.assert_ok(self.server.post(
            "/v1/enumerate", {"n": 8, "queens": queens_of(composition)}))
        self.assert_boards(8, body["boards"], composition)
        self.assertEqual(sorted(board["columns"] for board in body["boards"]),
                         sorted(completions(composition)))

    def test_enumerate_ndjson(self):
        answer, lines = self.post_ndjson("/v1/enumerate", {"n": 8, "limit": 7})
        self.assertTrue(answer.headers.get("X-Request-Id"))
        self.assertEqual(len(lines), 7)
        self.assert_boards(8, lines)
        # The same fixed order as the one-document form.
        body = self.assert_ok(self.server.post("/v1/enumerate", {"n": 8, "limit": 7}))
        self.assertEqual(lines, body["boards"])

    def test_enumerate_ndjson_failing_after_the_first_line_ends_with_an_error_line(self):
        # 14,772,512 boards of 16 rows cannot all be sent within 1 s.
        _, lines = self.post_ndjson("/v1/enumerate", {"n": 16}, {"grpc-timeout": "1S"})
        self.assertGreater(len(lines), 1)
        self.assert_boards(16, lines[:3])
        self.assertTrue(all(set(line) == {"columns"} for line in lines[:-1]))
        self.assert_error_line(lines[-1], "DEADLINE_EXCEEDED")

    def test_count_ndjson_sends_the_progress_then_the_result(self):
        answer, lines = self.post_ndjson("/v1/count", {"n": 8, "progressSeconds": 0.01})
        self.assertTrue(answer.headers.get("X-Request-Id"))
        self.assertEqual(set(lines[-1]), {"result"}, lines[-1])
        self.assertEqual(lines[-1]["result"]["solutions"], "92")  # OEIS A000170
        self.assertEqual(lines[-1]["result"]["fundamental"], "12")
        for line in lines[:-1]:
            self.assertEqual(set(line), {"progress"}, line)

    def test_count_ndjson_shows_the_progress_of_a_long_count(self):
        # A count of minutes, stopped by its deadline: progress every 20 ms
        # for 2 s, then the deadline's error line.
        _, lines = self.post_ndjson("/v1/count", {**LONG_COUNT, "progressSeconds": 0.02},
                                    {"grpc-timeout": "2S"})
        self.assertGreaterEqual(len(lines), 2, lines)
        progress = [line["progress"] for line in lines[:-1]]
        self.assertEqual(len(progress), len(lines) - 1, lines)
        self.assertEqual(set(progress[0]), {"fractionDone", "nodes", "elapsedSeconds"})
        nodes = [int(each["nodes"]) for each in progress]  # 64 bits: strings
        self.assertEqual(nodes, sorted(nodes), "the node count went down")
        self.assert_error_line(lines[-1], "DEADLINE_EXCEEDED")

    def test_enumerate_one_document_refuses_to_grow_past_8_mib(self):
        # 365,596 boards of 14 rows take about 16 MiB as JSON.
        response = self.server.post("/v1/enumerate", {"n": 14})
        self.assert_error(response, 429, "RESOURCE_EXHAUSTED")

    # --- health and the page ---

    def test_healthz(self):
        response = self.server.request("GET", "/healthz")
        self.assertEqual(self.assert_json_answer(response), {"status": "SERVING"})

    def test_the_page(self):
        response = self.server.request("GET", "/")
        self.assertEqual(response.status, 200)
        self.assertTrue(response.header("Content-Type").startswith("text/html"))
        self.assertIn(b"<html", response.body.lower())

    def test_the_openapi_document_is_the_committed_one(self):
        response = self.server.request("GET", "/openapi.json")
        document = self.assert_json_answer(response)
        with open(OPENAPI_DOCUMENT, "rb") as committed:
            self.assertEqual(response.body, committed.read())
        self.assertEqual(document["info"]["version"], "1.0.0")
        self.assertIn(b'href="openapi.json"', self.server.request("GET", "/").body)

    def test_every_operation_of_the_openapi_document_is_served(self):
        # Each path with its method answers a status the document lists for it
        # (a POST of {} is a request without n: 400); no path is missing.
        document = self.server.request("GET", "/openapi.json").json()
        not_found = self.server.request("GET", "/nothing").json()["message"]
        for path, operations in document["paths"].items():
            self.assertIn(f" {path}", not_found, "the 404 message does not list it")
            for method, operation in operations.items():
                with self.subTest(method=method, path=path):
                    response = self.server.request(method.upper(), path,
                                                   "{}" if method == "post" else None)
                    self.assertIn(str(response.status), operation["responses"], response)
                    media = response.header("Content-Type").split(";")[0]
                    self.assertIn(media, operation["responses"][str(response.status)]["content"])

    # --- request ids ---

    def test_request_id_is_echoed(self):
        for request_id in ("http-test-echo-1", "A" * 128):
            ok = self.server.post("/v1/solve", {"n": 8}, {"X-Request-Id": request_id})
            self.assert_ok(ok)
            self.assertEqual(ok.header("X-Request-Id"), request_id)
            failed = self.server.post("/v1/solve", {"n": 0}, {"X-Request-Id": request_id})
            self.assertEqual(self.assert_error(failed, 400, "INVALID_ARGUMENT")["requestId"],
                             request_id)
        # The server logs the call under it, as for gRPC.
        wait_until(lambda: any(call.get("request_id") == "http-test-echo-1"
                               for call in self.server.logged_calls()),
                   "the call is logged under its request id")

    def test_request_id_is_made_when_missing_or_unusable(self):
        made = set()
        for headers in ({}, {}, {"X-Request-Id": "has a space"}, {"X-Request-Id": "B" * 129}):
            response = self.server.post("/v1/solve", {"n": 8}, headers)
            self.assert_ok(response)
            request_id = response.header("X-Request-Id")
            self.assertNotIn(request_id, (headers.get("X-Request-Id"), None, ""))
            made.add(request_id)
        self.assertEqual(len(made), 4, "request ids repeat")

    def test_every_v1_answer_carries_the_request_id(self):
        # Answers of the routes given before any call began too.
        request_id = "http-test-early-error"
        for method, path, body, http_status in (
                ("POST", "/v1/solve", '{"n": "abc"}', 400),
                ("POST", "/v1/validate", " " * (self.MAX_REQUEST_BYTES + 1), 413),
                ("GET", "/v1/solve", None, 405)):
            with self.subTest(method=method, path=path, http_status=http_status):
                response = self.server.request(method, path, body, {"X-Request-Id": request_id})
                self.assertEqual(response.status, http_status, response)
                self.assertEqual(response.header("X-Request-Id"), request_id)

    # --- deadlines ---

    def assert_deadline_exceeded(self, path: str, headers: Optional[dict] = None,
                                 deadline: float = 0.05):
        start = time.monotonic()
        response = self.server.post(path, {"n": 18}, headers)
        elapsed = time.monotonic() - start
        self.assert_error(response, 504, "DEADLINE_EXCEEDED")
        self.assertGreaterEqual(elapsed, deadline * 0.9)
        self.assertLess(elapsed, 5, "the deadline did not stop the count promptly")

    def test_deadline_from_grpc_timeout_header(self):
        self.assert_deadline_exceeded("/v1/count", {"grpc-timeout": "50m"})
        self.assert_deadline_exceeded("/v1/count", {"grpc-timeout": "50000u"})

    def test_deadline_from_timeout_query(self):
        self.assert_deadline_exceeded("/v1/count?timeout=50ms")
        self.assert_deadline_exceeded("/v1/count?timeout=0.05s")

    def test_deadlines_that_leave_time_enough(self):
        for path, headers in (("/v1/count", {"grpc-timeout": "20S"}),
                              ("/v1/count?timeout=1m30s", {})):
            with self.subTest(path=path, headers=headers):
                body = self.assert_ok(self.server.post(path, {"n": 8}, headers))
                self.assertEqual(body["solutions"], "92")

    # --- malformed requests ---

    def test_malformed_json_names_the_field(self):
        cases = (("/v1/solve", '{"n": "abc"}', r"\bn\b"),
                 ("/v1/validate", '{"n": 8, "maxConflicts": "many"}', r"max_?[cC]onflicts"),
                 ("/v1/complete", '{"n": 8, "queens": [{"row": "x"}]}', r"\brow\b"),
                 ("/v1/solve", '{"n": 8, "bogusField": 1}', r"bogusField"),
                 ("/v1/solve", '{"n": 8, "method": "NO_SUCH_METHOD"}', r"method"),
                 # A Method value's name without its METHOD_ prefix is no name.
                 ("/v1/solve", '{"n": 8, "method": "FORMULA"}', r"method"))
        for path, body, field in cases:
            with self.subTest(body=body):
                error = self.assert_error(self.server.post(path, body), 400, "INVALID_ARGUMENT",
                                          call_began=False)
                self.assertRegex(error["message"], field)

    def test_json_must_be_strict(self):
        # What protobuf's own parser takes, or answers in its own words.
        cases = (("/v1/solve", '{"n": 8,}', "invalid JSON at byte 8: a trailing comma"),
                 ("/v1/solve", '{"n": 8, "limits": {"maxRestarts": 2,}}',
                  "invalid JSON at byte 37 (in limits): a trailing comma"),
                 ("/v1/validate", '{"n": 8, "columns": [1, 02]}',
                  "invalid JSON at byte 24 (in columns[1]): a number with a leading zero"),
                 ("/v1/solve", '{"n": 8} // eight', "JSON has no comments"),
                 ("/v1/solve", "{'n': 8}", "double quotes"),
                 ("/v1/solve", '{"n": 8, "n": 9}', "the field n appears twice"),
                 ("/v1/solve", "", 'the body is empty: send a JSON object, e.g. {"n": 8}'),
                 ("/v1/count", " \n", "the body is empty"),
                 ("/v1/solve", '{"n": 8, "method": "FORMULA"}',
                  'method: "FORMULA" is not one of METHOD_UNSPECIFIED, METHOD_RANDOM, '
                  "METHOD_MIN_CONFLICTS, METHOD_BACKTRACKING, METHOD_GENETIC, METHOD_FORMULA, "
                  "METHOD_CONSTRUCTIVE"),
                 ("/v1/complete", '{"n": 8, "method": "EXACT"}',
                  'method: "EXACT" is not one of COMPLETE_METHOD_UNSPECIFIED, '),
                 ("/v1/solve", '{"n": 8, "bogusField": 1}',
                  'unknown field "bogusField" at byte 9 (in SolveRequest); the fields of '
                  "SolveRequest are n, method, seed, limits, variant, symmetry"),
                 ("/v1/complete", '{"n": 8, "queens": [{"row": 1, "col": 2}]}',
                  'unknown field "col" at byte 31 (in queens[0])'))
        for path, body, message in cases:
            with self.subTest(body=body):
                error = self.assert_error(self.server.post(path, body), 400, "INVALID_ARGUMENT",
                                          message, call_began=False)
                self.assertTrue(error["requestId"], error)

    def test_not_json(self):
        for body in ('{"n": 8,', "n=8", "[8]"):
            with self.subTest(body=body):
                self.assert_error(self.server.post("/v1/solve", body), 400, "INVALID_ARGUMENT",
                                  call_began=False)

    def test_a_body_not_sent_as_json_is_refused(self):
        # What a page of another site can make a browser send without asking.
        for content_type in ("application/x-www-form-urlencoded", "text/plain",
                             "multipart/form-data; boundary=x"):
            with self.subTest(content_type=content_type):
                self.assert_error(
                    self.server.post("/v1/solve", {"n": 8}, {"Content-Type": content_type}),
                    415, "INVALID_ARGUMENT", "application/json")

    def test_a_cross_site_preflight_is_refused(self):
        # Before a cross-site JSON call, a browser asks; without
        # --http-cors-origin the answer allows nothing, nor does any other.
        response = self.server.request("OPTIONS", "/v1/solve", headers=preflight_headers(
            "https://elsewhere.example"))
        self.assert_error(response, 405, "UNIMPLEMENTED")
        assert_no_cors(self, response)
        answer = self.server.post("/v1/solve", {"n": 8}, {"Origin": "https://elsewhere.example"})
        self.assert_ok(answer)
        assert_no_cors(self, answer)
        self.assertIsNone(answer.header("Vary"))

    def test_bad_boards_name_the_row_and_column(self):
        cases = (("/v1/solve", {"n": 0}, "n must be 1..2147483647"),
                 ("/v1/complete", {"n": 8, "queens": [{"row": 9, "column": 1}]},
                  "(row 9, column 1)"),
                 ("/v1/complete", {"n": 8, "queens": [{"row": 2, "column": 9}]},
                  "(row 2, column 9)"),
                 ("/v1/validate", {"n": 8, "columns": [0, 0, 9, 0, 0, 0, 0, 0]},
                  "row 3 has column 9"),
                 ("/v1/complete", {"n": 8, "columns": [0, 3, 0, 0, 6, 0, 0, 0]},
                  "(row 2, column 3) and (row 5, column 6)"),
                 ("/v1/count", {"n": 8, "columns": [0, 0, 0]}, "3 rows"))
        for path, request, fragment in cases:
            with self.subTest(path=path, request=request):
                self.assert_error(self.server.post(path, request), 400, "INVALID_ARGUMENT",
                                  fragment)

    # --- limits ---

    def test_n_above_max_n_is_resource_exhausted(self):
        self.assert_error(self.server.post("/v1/solve", {"n": self.MAX_N + 1}),
                          429, "RESOURCE_EXHAUSTED", "--max-n")

    def test_count_with_too_many_free_rows_is_invalid(self):
        # Above what the service supports at all, not a limit of this server.
        self.assert_error(self.server.post("/v1/count", {"n": 100}), 400, "INVALID_ARGUMENT")

    def test_body_too_large(self):
        request = json.dumps({"n": 8, "columns": [0] * 8})
        fits = request + " " * (self.MAX_REQUEST_BYTES - len(request))
        self.assert_ok(self.server.post("/v1/validate", fits))
        for size in (self.MAX_REQUEST_BYTES + 1, 4 * self.MAX_REQUEST_BYTES):
            with self.subTest(size=size):
                too_large = request + " " * (size - len(request))
                self.assert_error(self.server.post("/v1/validate", too_large), 413,
                                  "RESOURCE_EXHAUSTED", call_began=False)

    # --- paths and methods ---

    def test_unknown_path(self):
        for method, path in (("GET", "/v1/nothing"), ("POST", "/v1/solver"),
                             ("POST", "/nothing"), ("GET", "/healthz/more")):
            with self.subTest(method=method, path=path):
                self.assert_error(self.server.request(method, path, "{}" if method == "POST"
                                                      else None),
                                  404, "NOT_FOUND", call_began=False)

    def test_wrong_method(self):
        for method, path, allowed in (("GET", "/v1/solve", "POST"),
                                      ("PUT", "/v1/count", "POST"),
                                      ("DELETE", "/v1/enumerate", "POST"),
                                      ("POST", "/healthz", "GET")):
            with self.subTest(method=method, path=path):
                response = self.server.request(method, path, "{}" if method != "GET" else None)
                self.assert_error(response, 405, "UNIMPLEMENTED", call_began=False)
                allow = [word.strip() for word in (response.header("Allow") or "").split(",")]
                self.assertIn(allowed, allow, f"Allow: {response.header('Allow')}")
                self.assertNotIn(method, allow)

    # --- metrics ---

    def test_metrics_label_calls_by_transport(self):
        before = self.server.metrics()
        for n in (8, 9, 10):
            self.assert_ok(self.server.post("/v1/solve", {"n": n}))
        self.assert_error(self.server.post("/v1/solve", {"n": 0}), 400, "INVALID_ARGUMENT")
        over_grpc = subprocess.run(
            [OPTIONS.client, "--server", self.server.grpc_address, "--quiet", "solve", "8"],
            capture_output=True, text=True, timeout=REQUEST_SECONDS)
        self.assertEqual(over_grpc.returncode, 0, over_grpc.stderr)

        def delta(name, **labels):
            return self.server.metric_change(before, name, **labels)

        solve = {"grpc_service": "nqueens.v1.NQueensService", "grpc_method": "Solve"}
        self.assertEqual(delta("grpc_server_started_total", transport="http", **solve), 4)
        self.assertEqual(delta("grpc_server_started_total", transport="grpc", **solve), 1)
        self.assertEqual(delta("grpc_server_handled_total", transport="http", grpc_code="OK",
                               **solve), 3)
        self.assertEqual(delta("grpc_server_handled_total", transport="http",
                               grpc_code="InvalidArgument", **solve), 1)
        self.assertEqual(delta("grpc_server_handled_total", transport="grpc", grpc_code="OK",
                               **solve), 1)
        self.assertEqual(delta("grpc_server_handling_seconds_count", transport="http", **solve),
                         4)

    def test_metrics_count_refusals_made_before_any_call(self):
        before = self.server.metrics()
        self.assert_error(self.server.request("POST", "/v1/nowhere", b"{}"), 404, "NOT_FOUND")
        self.assert_error(self.server.request("GET", "/v1/solve"), 405, "UNIMPLEMENTED")
        self.assert_error(self.server.post("/v1/solve", "{\"n\": 8,}"), 400, "INVALID_ARGUMENT")
        self.assert_error(self.server.post("/v1/solve", "{\"n\": 8,}"), 400, "INVALID_ARGUMENT")

        def refusals(code):
            return self.server.metric_change(before, "nqueens_http_refusals_total", code=code)

        self.assertEqual(refusals("404"), 1)
        self.assertEqual(refusals("405"), 1)
        self.assertEqual(refusals("400"), 2)
        # None of them reached the service.
        self.assertEqual(self.server.metric_change(before, "grpc_server_started_total",
                                                   transport="http"), 0)


class LongCallsTest(HttpTestCase):
    """One worker and no queue: a long call holds the server; a second is
    refused; a client that goes away frees it."""
    flags = ("--workers=1", "--max-queued=0", "--max-call-seconds=60",
             "--metrics-listen=127.0.0.1:0")

    def start_long_call(self) -> http.client.HTTPConnection:
        """A count that runs for minutes, once the server holds it."""
        connection = self.server.send("POST", "/v1/count", LONG_COUNT)
        wait_until(lambda: self.server.calls_in_flight() == 1, "the long count is in flight")
        return connection

    def tearDown(self):
        # Every test leaves the server idle for the next.
        wait_until(lambda: self.server.calls_in_flight() == 0, "no call is left in flight")

    def test_a_full_queue_is_refused(self):
        connection = self.start_long_call()
        try:
            before = self.server.metrics()
            response = self.server.post("/v1/count", LONG_COUNT, {"grpc-timeout": "20S"})
            self.assert_error(response, 429, "RESOURCE_EXHAUSTED", "--max-queued")
            self.assertEqual(self.server.metric_change(
                before, "grpc_server_handled_total", grpc_method="Count",
                grpc_code="ResourceExhausted", transport="http"), 1)
        finally:
            connection.close()

    def test_a_client_that_goes_away_cancels_its_call(self):
        connection = self.start_long_call()
        before = self.server.metrics()
        connection.close()
        wait_until(lambda: self.server.calls_in_flight() == 0,
                   "the server ends the call of a client that went away")
        # The worker is free again: a count gets it at once.
        start = time.monotonic()
        body = self.assert_ok(self.server.post("/v1/count", {"n": 8}, {"grpc-timeout": "10S"}))
        self.assertEqual(body["solutions"], "92")
        self.assertLess(time.monotonic() - start, PATIENCE_SECONDS)
        wait_until(lambda: any(call["method"] == "Count" and call.get("code") == "CANCELLED"
                               for call in self.server.logged_calls()),
                   "the server logs the count as CANCELLED")
        wait_until(lambda: self.server.metric_change(
            before, "grpc_server_handled_total", grpc_method="Count", grpc_code="Canceled",
            transport="http") == 1, "the metrics count the HTTP count as Canceled")


def preflight_headers(origin: str) -> Dict[str, str]:
    """What a browser sends before a page of `origin` posts JSON with a token."""
    return {"Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,x-request-id"}


def assert_no_cors(test: unittest.TestCase, response: Response):
    for name in ("Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
                 "Access-Control-Allow-Headers", "Access-Control-Allow-Credentials",
                 "Access-Control-Expose-Headers"):
        test.assertIsNone(response.header(name), f"{name} in {response.headers}")


class CorsTest(HttpTestCase):
    """--http-cors-origin: the pages of one origin may call the routes from a
    browser; no other origin gets a CORS header."""
    ORIGIN = "https://app.example.com:8443"
    flags = (f"--http-cors-origin={ORIGIN}",)

    def assert_cors(self, response: Response):
        self.assertEqual(response.header("Access-Control-Allow-Origin"), self.ORIGIN)
        self.assertIsNone(response.header("Access-Control-Allow-Credentials"))
        self.assertIn("Origin", response.header("Vary") or "")

    def test_a_preflight_of_the_origin_gets_yes(self):
        for path in ("/v1/solve", "/v1/enumerate"):
            with self.subTest(path=path):
                response = self.server.request("OPTIONS", path,
                                               headers=preflight_headers(self.ORIGIN))
                self.assertEqual(response.status, 204, response)
                self.assertEqual(response.body, b"")
                self.assert_cors(response)
                self.assertEqual(response.header("Access-Control-Allow-Methods"), "POST")
                allowed = {name.strip() for name in
                           response.header("Access-Control-Allow-Headers").split(",")}
                self.assertLessEqual({"content-type", "authorization", "x-request-id",
                                      "nqueens-max-response-bytes"}, allowed)

    def test_a_preflight_of_another_origin_gets_no(self):
        for origin in ("https://app.example.com", "http://app.example.com:8443",
                       "https://evil.example", "null"):
            with self.subTest(origin=origin):
                response = self.server.request("OPTIONS", "/v1/solve",
                                               headers=preflight_headers(origin))
                self.assert_error(response, 403, "PERMISSION_DENIED", "--http-cors-origin",
                                  call_began=False)
                assert_no_cors(self, response)
        # Only the routes are asked about; a path that is none stays 404.
        response = self.server.request("OPTIONS", "/v1/nothing",
                                       headers=preflight_headers(self.ORIGIN))
        self.assert_error(response, 404, "NOT_FOUND", call_began=False)

    def test_answers_to_the_origin_say_it_may_read_them(self):
        headers = {"Origin": self.ORIGIN}
        ok = self.server.post("/v1/solve", {"n": 8}, headers)
        self.assert_solution(8, self.assert_ok(ok)["columns"])
        self.assert_cors(ok)
        self.assertEqual(ok.header("Access-Control-Expose-Headers"), "X-Request-Id")
        # Errors too, so that the page can show their message.
        self.assert_cors(self.server.post("/v1/solve", {"n": 0}, headers))
        self.assert_cors(self.server.request("GET", "/openapi.json", headers=headers))
        connection = self.server.send("POST", "/v1/enumerate", {"n": 6},
                                      {"Accept": "application/x-ndjson", **headers})
        try:
            answer = connection.getresponse()
            self.assertEqual(answer.headers.get("Access-Control-Allow-Origin"), self.ORIGIN)
            answer.read()
        finally:
            connection.close()

    def test_answers_to_other_origins_have_no_cors_headers(self):
        for headers in ({"Origin": "https://evil.example"}, {}):
            with self.subTest(headers=headers):
                response = self.server.post("/v1/solve", {"n": 8}, headers)
                self.assert_ok(response)
                assert_no_cors(self, response)
                self.assertIn("Origin", response.header("Vary"))  # for caches

    def test_the_flag_takes_one_origin_as_browsers_send_it(self):
        for origin in ("*", "app.example.com", "https://app.example.com/",
                       "https://App.example.com", "ftp://app.example.com", "https://"):
            with self.subTest(origin=origin):
                result = subprocess.run(
                    [OPTIONS.server, "--listen=127.0.0.1:0", "--http-listen=127.0.0.1:0",
                     f"--http-cors-origin={origin}"],
                    capture_output=True, text=True, timeout=STARTUP_SECONDS)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn("--http-cors-origin", result.stderr)
                self.assertEqual(result.stdout, "")


class PerClientLimitTest(HttpTestCase):
    """--max-calls-per-client keys HTTP clients on their address, as it keys
    gRPC clients: a second call of a client with one in flight is refused."""
    flags = ("--workers=2", "--max-calls-per-client=1", "--max-call-seconds=60",
             "--metrics-listen=127.0.0.1:0")

    def test_a_client_over_its_limit_is_refused(self):
        connection = self.server.send("POST", "/v1/count", LONG_COUNT)
        try:
            wait_until(lambda: self.server.calls_in_flight() == 1, "the long count is in flight")
            response = self.server.post("/v1/count", {"n": 8})
            self.assert_error(response, 429, "RESOURCE_EXHAUSTED", "--max-calls-per-client")
        finally:
            connection.close()
        wait_until(lambda: self.server.calls_in_flight() == 0, "no call is left in flight")
        self.assertEqual(self.assert_ok(self.server.post("/v1/count", {"n": 8}))["solutions"], "92")


class ShutdownTest(HttpTestCase):
    """During the --grace period new calls get 503 UNAVAILABLE, /healthz 503
    NOT_SERVING, and calls cut by its end 503 UNAVAILABLE too."""
    flags = ("--workers=1", "--grace=2s", "--metrics-listen=127.0.0.1:0")

    def test_shutdown(self):
        connection = self.server.send("POST", "/v1/count", LONG_COUNT)
        try:
            wait_until(lambda: self.server.calls_in_flight() == 1, "the long count is in flight")
            self.server.terminate()
            wait_until(lambda: self.server.request("GET", "/healthz").status == 503,
                       "/healthz says 503 once the server drains")
            self.assertEqual(self.server.request("GET", "/healthz").json(),
                             {"status": "NOT_SERVING"})
            self.assert_error(self.server.post("/v1/solve", {"n": 8}), 503, "UNAVAILABLE")
            try:
                answer = connection.getresponse()
            except (OSError, http.client.HTTPException) as error:
                self.fail(f"the call cut by the end of --grace got no answer: {error!r}")
            self.assert_error(Response(answer.status, answer.headers, answer.read()), 503,
                              "UNAVAILABLE", "--grace")
        finally:
            connection.close()
        self.assertEqual(self.server.stop(), 0)


class TokenTest(HttpTestCase):
    """--auth-token-file: every /v1/ route needs the token; /healthz and the
    page do not."""
    TOKEN = "http-test-token-0123456789"

    @classmethod
    def start_server(cls) -> Server:
        cls.tokens = tempfile.NamedTemporaryFile("w", suffix=".txt")
        cls.tokens.write(f"some-other-token\n{cls.TOKEN}\n")
        cls.tokens.flush()
        return Server(f"--auth-token-file={cls.tokens.name}")

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            cls.tokens.close()

    def test_without_a_token(self):
        for path, request in (("/v1/solve", {"n": 8}), ("/v1/count", {"n": 6})):
            with self.subTest(path=path):
                self.assert_error(self.server.post(path, request), 401, "UNAUTHENTICATED",
                                  "missing bearer token")

    def test_with_a_wrong_token(self):
        for authorization in (f"Bearer {self.TOKEN}x", "Bearer ", f"Basic {self.TOKEN}"):
            with self.subTest(authorization=authorization):
                response = self.server.post("/v1/solve", {"n": 8},
                                            {"Authorization": authorization})
                self.assert_error(response, 401, "UNAUTHENTICATED")

    def test_with_the_token(self):
        body = self.assert_ok(self.server.post("/v1/solve", {"n": 12},
                                               {"Authorization": f"Bearer {self.TOKEN}"}))
        self.assert_solution(12, body["columns"])

    def test_health_and_page_need_no_token(self):
        self.assertEqual(self.assert_json_answer(self.server.request("GET", "/healthz")),
                         {"status": "SERVING"})
        self.assertEqual(self.server.request("GET", "/").status, 200)


class TlsTest(HttpTestCase):
    """--tls-cert/--tls-key: HTTPS only, with the server's certificate."""

    @classmethod
    def start_server(cls) -> Server:
        made = certificates()
        return Server(f"--tls-cert={made.server[0]}", f"--tls-key={made.server[1]}",
                      context=certificates().client_context())

    def test_https_works(self):
        body = self.assert_ok(self.server.post("/v1/solve", {"n": 30}))
        self.assert_solution(30, body["columns"])
        self.assertEqual(self.assert_json_answer(self.server.request("GET", "/healthz")),
                         {"status": "SERVING"})

    def test_the_certificate_is_the_servers(self):
        connection = self.server.connect()
        try:
            connection.connect()
            subject = dict(pair[0] for pair in connection.sock.getpeercert()["subject"])
            self.assertEqual(subject["commonName"], "nqueens-server")
        finally:
            connection.close()
        with self.assertRaises(ssl.SSLCertVerificationError):
            self.server.request("GET", "/healthz", context=ssl.create_default_context())

    def test_plain_http_is_told_to_use_https(self):
        # Answered in plain HTTP, not cut: curl http:// says why.
        for method, body in (("POST", {"n": 8}), ("GET", None)):
            response = self.server.request(method, "/v1/solve", body, tls=False)
            self.assertEqual((response.status, response.body),
                             (400, b"this port speaks HTTPS: use https://\n"))
        # The port still speaks HTTPS.
        self.assert_ok(self.server.post("/v1/solve", {"n": 8}))


class MutualTlsTest(HttpTestCase):
    """--tls-client-ca: only clients with a certificate the CA signed."""

    @classmethod
    def start_server(cls) -> Server:
        made = certificates()
        return Server(f"--tls-cert={made.server[0]}", f"--tls-key={made.server[1]}",
                      f"--tls-client-ca={made.ca[0]}",
                      context=made.client_context(made.client))

    def assert_refused(self, context: ssl.SSLContext, method: str, path: str, body=None):
        """Refused in the handshake (TLS 1.3: the connection is closed once
        the request is sent), or answered 401 UNAUTHENTICATED."""
        try:
            response = self.server.request(method, path, body, context=context)
        except (OSError, http.client.HTTPException):
            return
        self.assert_error(response, 401, "UNAUTHENTICATED", "--tls-client-ca",
                          call_began=False)

    def other_clients(self) -> dict:
        made = certificates()
        return {"without a certificate": made.client_context(),
                "with a certificate of another CA": made.client_context(made.rogue_client)}

    def test_a_client_with_a_certificate_of_the_ca(self):
        body = self.assert_ok(self.server.post("/v1/solve", {"n": 30}))
        self.assert_solution(30, body["columns"])
        self.assertEqual(self.assert_json_answer(self.server.request("GET", "/healthz")),
                         {"status": "SERVING"})

    def test_other_clients_are_refused_the_calls(self):
        for client, context in self.other_clients().items():
            for path in ("/v1/solve", "/v1/count"):
                with self.subTest(client=client, path=path):
                    self.assert_refused(context, "POST", path, {"n": 8})

    def test_other_clients_are_refused_everything(self):
        # The contract exempts /healthz and / from tokens, not from client
        # certificates: the gRPC port refuses such clients in the handshake.
        for client, context in self.other_clients().items():
            for path in ("/healthz", "/"):
                with self.subTest(client=client, path=path):
                    self.assert_refused(context, "GET", path)


def main():
    global OPTIONS
    OPTIONS, unittest_args = tools.parse_arguments(__doc__.splitlines()[0])
    try:
        unittest.main(argv=[sys.argv[0]] + unittest_args)
    finally:
        if _certificates_directory is not None:
            _certificates_directory.cleanup()


if __name__ == "__main__":
    main()

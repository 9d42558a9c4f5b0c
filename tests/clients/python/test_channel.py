"""What a caller brings: its own channel, channel options, interceptors and
metadata; TLS and bearer tokens."""
import asyncio
import functools
import os
import subprocess
import tempfile

import grpc

import nqueens
import nqueens.aio
from support import Server, ServerTestCase, TestCase

# What a plaintext client is told when the server closes the connection at
# once, as the CLI tells it to use --tls.
TLS_ADVICE = ("the server closed the connection at once; if it serves TLS, make the client "
              "with tls=True (the system's CAs) or tls=\"ca.pem\" (a PEM file of the CAs to "
              "trust)")


class Recorder(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
               grpc.StreamStreamClientInterceptor):
    """Notes each call's method and the request id it sends."""

    def __init__(self):
        self.calls = []

    def note(self, continuation, details, request):
        self.calls.append((details.method, dict(details.metadata or ()).get("x-request-id")))
        return continuation(details, request)

    intercept_unary_unary = intercept_unary_stream = intercept_stream_stream = note


class ChannelTest(ServerTestCase):

    def test_own_channel_stays_open(self):
        channel = grpc.insecure_channel(self.server.target)
        try:
            with nqueens.Client(channel=channel) as client:
                self.assert_solution_extending(8, client.solve(8).board)
            # The client closed, the caller's channel did not.
            self.assertEqual(nqueens.Client(channel=channel).health(), "SERVING")
        finally:
            channel.close()
        with self.assertRaises(TypeError):
            nqueens.Client(self.server.target, channel=channel)

    def test_options_reach_the_channel(self):
        # A 1,000-row answer is about 2 KB: over a 1,000-byte receive limit.
        options = [("grpc.max_receive_message_length", 1000)]
        with nqueens.Client(self.server.target, options=options) as client:
            self.assertEqual(client.solve(10).outcome, "OUTCOME_SOLVED")
            with self.assertRaises(nqueens.Error) as raised:
                client.solve(1000)
        self.assertEqual(raised.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)

    def test_interceptors_see_every_kind_of_call(self):
        recorder = Recorder()
        with nqueens.Client(self.server.target, interceptors=[recorder]) as client:
            client.solve(8)
            list(client.enumerate(6))
            list(client.complete_batch([[0] * 8]))
            client.health()
            with self.assertRaises(nqueens.Error) as raised:
                client.complete([1, 1])
        methods = [method for method, _ in recorder.calls]
        self.assertEqual(methods, ["/nqueens.v1.NQueensService/Solve",
                                   "/nqueens.v1.NQueensService/Enumerate",
                                   "/nqueens.v1.NQueensService/CompleteBatch",
                                   "/grpc.health.v1.Health/Check",
                                   "/nqueens.v1.NQueensService/Complete"])
        self.assertEqual(recorder.calls[-1][1], raised.exception.request_id())

    def test_metadata_of_the_client_and_of_a_call(self):
        server = Server()
        try:
            with nqueens.Client(server.target,
                                metadata=[("x-request-id", "client-chosen-id")]) as client:
                with self.assertRaises(nqueens.Error) as by_client:
                    client.solve(0)
                with self.assertRaises(nqueens.Error) as by_call:
                    client.solve(0, metadata=[("x-request-id", "call-chosen-id")])
                self.assertEqual(client.solve(8, metadata=(("x-extra", "1"),)).outcome,
                                 "OUTCOME_SOLVED")
        finally:
            calls = server.stop()
        self.assertEqual(by_client.exception.request_id(), "client-chosen-id")
        self.assertEqual(by_call.exception.request_id(), "call-chosen-id")
        codes = sorted((call["request_id"], call["code"]) for call in calls)
        self.assertEqual(codes, [("call-chosen-id", "INVALID_ARGUMENT"),
                                 ("client-chosen-id", "INVALID_ARGUMENT"),
                                 ("client-chosen-id", "OK")])


class SecurityTest(TestCase):
    """TLS with the test's own CA, and bearer tokens."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        path = functools.partial(os.path.join, cls.directory.name)
        new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        with open(path("ext.cnf"), "w") as extensions:
            extensions.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                             "extendedKeyUsage=serverAuth\n")
        for arguments in (
                ["req", "-x509", *new_key, "-days", "2", "-subj", "/CN=nqueens-test-ca",
                 "-keyout", path("ca.key"), "-out", path("ca.pem")],
                ["req", "-new", *new_key, "-subj", "/CN=nqueens-server",
                 "-keyout", path("server.key"), "-out", path("server.csr")],
                ["x509", "-req", "-days", "2", "-in", path("server.csr"),
                 "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "1",
                 "-extfile", path("ext.cnf"), "-out", path("server.pem")]):
            subprocess.run(["openssl", *arguments], check=True, timeout=60,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cls.token = "a-token-for-the-python-client"
        with open(path("tokens.txt"), "w") as tokens:
            tokens.write(cls.token + "\n")
        cls.ca = path("ca.pem")
        cls.server = Server(f"--tls-cert={path('server.pem')}",
                            f"--tls-key={path('server.key')}",
                            f"--auth-token-file={path('tokens.txt')}")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.directory.cleanup()

    def test_tls_with_token(self):
        with nqueens.Client(self.server.target, tls=self.ca, token=self.token) as client:
            self.assert_solution_extending(8, client.solve(8).board)

    def test_refused_tokens(self):
        for token, message in ((None, "missing bearer token"),
                               ("not-the-token", "bearer token refused")):
            with nqueens.Client(self.server.target, tls=self.ca, token=token) as client:
                with self.assertRaises(nqueens.Error) as raised:
                    client.solve(8)
                self.assertEqual(raised.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
                self.assertIn(message, raised.exception.details())
                # Health checks need no token.
                self.assertEqual(client.health(), "SERVING")

    def test_plaintext_against_tls_is_told_to_use_tls(self):
        # gRPC says only "Socket closed": a TLS server hangs up on the
        # plaintext client's first bytes.
        with nqueens.Client(self.server.target, token=self.token) as client:
            with self.assertRaises(nqueens.Error) as raised:
                client.solve(8)
        error = raised.exception
        self.assertEqual(error.code(), grpc.StatusCode.UNAVAILABLE)
        self.assertTrue(error.details().endswith("Socket closed"), error.details())
        self.assertEqual(str(error), f"UNAVAILABLE: {error.details()}; {TLS_ADVICE} "
                                     f"(request id {error.request_id()})")

        async def solve_over_asyncio():
            async with nqueens.aio.Client(self.server.target, token=self.token) as client:
                await client.solve(8)

        with self.assertRaises(nqueens.Error) as raised:
            asyncio.run(solve_over_asyncio())
        self.assertIn(f"; {TLS_ADVICE} (request id ", str(raised.exception))
        # A client with TLS, and one on a channel of the caller's, whose
        # credentials it does not know, are not told to use TLS.
        with nqueens.Client(self.server.target, tls=True) as client:
            with self.assertRaises(nqueens.Error) as raised:
                client.solve(8)
        self.assertNotIn(TLS_ADVICE, str(raised.exception))
        channel = grpc.insecure_channel(self.server.target)
        try:
            with self.assertRaises(nqueens.Error) as raised:
                nqueens.Client(channel=channel).solve(8)
        finally:
            channel.close()
        self.assertIn("Socket closed", raised.exception.details())
        self.assertNotIn(TLS_ADVICE, str(raised.exception))

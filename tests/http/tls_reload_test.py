#!/usr/bin/python3
"""TLS files replaced while nqueens-server runs reach new connections.

Starts nqueens-server with --tls-cert, --tls-key (and --tls-client-ca) naming
copies of certificates the openssl CLI makes (http_api_test.Certificates),
with --tls-refresh-interval=1s, then replaces the copies as a Kubernetes
Secret update does (a rename over each file) and polls new connections,
within a bounded time, until they see the new files: the certificate the HTTP
port serves (and the gRPC port, whose file-watcher provider reads the same
files), the client CAs it trusts; and a broken file, which must leave the
last good certificate serving with one warning. Boards are checked by the
CLI's validator. Python 3 standard library only.

usage: tls_reload_test.py --server PATH --client PATH --checker PATH [unittest args]
"""
import http.client
import os
import shutil
import socket
import ssl
import sys
import tempfile
import unittest
from typing import Optional

import http_api_test as api
import tools

REFRESH = "--tls-refresh-interval=1s"
# How long new files may take to be served: a few refresh intervals, and
# the gRPC provider's own.
RELOAD_SECONDS = 20
# The extensions of a server certificate for 127.0.0.1 (as Certificates makes).
SERVER_EXTENSIONS = "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n"
# What the server logs when it refuses files it read again, and when it read
# the same refused files again (at debug).
REFUSED = "the HTTP port keeps the certificate it serves"
REFUSED_AGAIN = "the HTTP port's TLS files are still the ones refused"


def der(certificate_file: str) -> bytes:
    with open(certificate_file) as file:
        return ssl.PEM_cert_to_DER_cert(file.read())


def replace(path: str, content: bytes) -> None:
    """Writes `content` beside `path` and renames it over `path`."""
    new = path + ".new"
    with open(new, "wb") as file:
        file.write(content)
    os.replace(new, path)


def read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def served_certificate(host: str, port: int, context: ssl.SSLContext) -> Optional[bytes]:
    """The certificate (DER) a new TLS connection to host:port is given, or
    None when the handshake fails (e.g. between the renames of two files)."""
    try:
        with socket.create_connection((host, port), timeout=api.REQUEST_SECONDS) as raw:
            with context.wrap_socket(raw, server_hostname=host) as tls:
                return tls.getpeercert(binary_form=True)
    except OSError:
        return None


class ReloadTestCase(api.HttpTestCase):
    """A server of its own whose TLS files are copies this class may replace."""
    client_ca = False  # whether the server gets --tls-client-ca (a copy of the CA)

    @classmethod
    def start_server(cls) -> api.Server:
        made = api.certificates()
        cls.files = tempfile.TemporaryDirectory()
        cls.cert = shutil.copy(made.server[0], os.path.join(cls.files.name, "tls.crt"))
        cls.key = shutil.copy(made.server[1], os.path.join(cls.files.name, "tls.key"))
        flags = [f"--tls-cert={cls.cert}", f"--tls-key={cls.key}", REFRESH, "--log-level=debug"]
        context = made.client_context()
        if cls.client_ca:
            cls.ca = shutil.copy(made.ca[0], os.path.join(cls.files.name, "ca.crt"))
            flags.append(f"--tls-client-ca={cls.ca}")
            context = made.client_context(made.client)
        return api.Server(*flags, context=context)

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            cls.files.cleanup()

    def served_over_http(self) -> Optional[bytes]:
        return served_certificate(self.server.host, self.server.port,
                                  api.certificates().client_context())

    def served_over_grpc(self) -> Optional[bytes]:
        host, _, port = self.server.grpc_address.rpartition(":")
        context = api.certificates().client_context()
        context.set_alpn_protocols(["h2"])
        return served_certificate(host, int(port), context)

    def install(self, certificate: tuple) -> None:
        """The key first, then the certificate, each renamed over the old."""
        replace(self.key, read(certificate[1]))
        replace(self.cert, read(certificate[0]))

    def assert_calls_work(self):
        body = self.assert_ok(self.server.post("/v1/solve", {"n": 30}))
        self.assert_solution(30, body["columns"])


class RenewedCertificateTest(ReloadTestCase):
    def test_new_connections_get_the_renewed_certificate_on_both_ports(self):
        first = der(self.cert)
        self.assertEqual(self.served_over_http(), first)
        self.assertEqual(self.served_over_grpc(), first)

        renewed = api.certificates().make_certificate("renewed", "nqueens-server-renewed",
                                                      api.certificates().ca, SERVER_EXTENSIONS)
        self.install(renewed)
        second = der(renewed[0])
        self.assertNotEqual(second, first)
        api.wait_until(lambda: self.served_over_http() == second,
                       "the HTTP port serves the renewed certificate", RELOAD_SECONDS)
        api.wait_until(lambda: self.served_over_grpc() == second,
                       "the gRPC port serves the renewed certificate", RELOAD_SECONDS)
        self.assertIn(f"the HTTP port serves --tls-cert {self.cert} as read again",
                      self.server.log())
        self.assert_calls_work()


class BrokenCertificateTest(ReloadTestCase):
    def test_a_broken_file_leaves_the_last_good_certificate_serving(self):
        good = der(self.cert)
        replace(self.cert, b"-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n")
        api.wait_until(lambda: REFUSED in self.server.log(), "a warning about the broken file",
                       RELOAD_SECONDS)
        # Read again, unchanged: no second warning.
        api.wait_until(lambda: REFUSED_AGAIN in self.server.log(),
                       "the broken file read again", RELOAD_SECONDS)
        log = self.server.log()
        self.assertEqual(log.count(REFUSED), 1, log)
        self.assertIn(f"--tls-cert {self.cert}: ", log)
        self.assertEqual(self.served_over_http(), good)
        self.assert_calls_work()

        # The good certificate back (the files served: nothing to say), then
        # the key of another certificate: another refused set, with its own
        # warning, and the good certificate still serves.
        replace(self.cert, read(api.certificates().server[0]))
        replace(self.key, read(api.certificates().rogue_client[1]))
        api.wait_until(lambda: self.server.log().count(REFUSED) >= 2,
                       "a warning about the key of another certificate", RELOAD_SECONDS)
        self.assertEqual(self.served_over_http(), good)

        repaired = api.certificates().make_certificate("repaired", "nqueens-server-repaired",
                                                       api.certificates().ca, SERVER_EXTENSIONS)
        self.install(repaired)
        api.wait_until(lambda: self.served_over_http() == der(repaired[0]),
                       "the HTTP port serves the repaired files", RELOAD_SECONDS)
        self.assert_calls_work()


class ClientCaTest(ReloadTestCase):
    """--tls-client-ca read again: a new CA's clients get in, the old one's
    no longer."""
    client_ca = True

    def status_for(self, client: tuple) -> Optional[int]:
        """The HTTP status of GET /healthz with the client certificate
        `client`, None when the connection is refused or cut."""
        try:
            context = api.certificates().client_context(client)
            return self.server.request("GET", "/healthz", context=context).status
        except (OSError, http.client.HTTPException):
            return None

    def test_a_new_client_ca_is_trusted_without_restart(self):
        made = api.certificates()
        self.assertEqual(self.status_for(made.client), 200)
        self.assertIn(self.status_for(made.rogue_client), (401, None))

        replace(self.ca, read(made.path("rogue-ca.pem")))
        api.wait_until(lambda: self.status_for(made.rogue_client) == 200,
                       "a client of the new CA is let in", RELOAD_SECONDS)
        self.assertIn(self.status_for(made.client), (401, None))


def main():
    api.OPTIONS, unittest_args = tools.parse_arguments(__doc__.splitlines()[0])
    try:
        unittest.main(argv=[sys.argv[0]] + unittest_args)
    finally:
        if api._certificates_directory is not None:
            api._certificates_directory.cleanup()


if __name__ == "__main__":
    main()

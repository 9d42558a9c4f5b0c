"""What the Python tests of this folder share: their command line (--server,
--source-dir), the bare stubs committed in clients/python, and an
nqueens-server process started on 127.0.0.1 port 0, its addresses read from
the lines it prints first, and stopped with SIGTERM, which must end it
cleanly (exit 0: under ASan, a leak or error report makes it exit
non-zero)."""
import argparse
import importlib
import os
import signal
import subprocess
import sys
import unittest

import grpc

OPTIONS = None  # the parsed command line (main)

# The lines the server prints, by the transport they name.
PREFIXES = {"grpc": "listening on ", "http": "listening for HTTP on "}


def import_stubs(source_dir):
    """nqueens/v1/nqueens_pb2{,_grpc} from the checkout's clients/python."""
    sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
    sys.path.insert(0, os.path.join(source_dir, "clients", "python"))
    return (importlib.import_module("nqueens.v1.nqueens_pb2"),
            importlib.import_module("nqueens.v1.nqueens_pb2_grpc"))


def start(binary, *flags, transports=("grpc",)):
    """The process and {transport: address} of a server started with
    --listen (and --http-listen when "http" is among `transports`)."""
    listen = ["--listen=127.0.0.1:0"]
    if "http" in transports:
        listen.append("--http-listen=127.0.0.1:0")
    process = subprocess.Popen([binary, *listen, "--log-level=warn", *flags],
                               stdout=subprocess.PIPE, text=True)
    addresses = {}
    for _ in transports:
        line = process.stdout.readline().strip()
        for transport, prefix in PREFIXES.items():
            if line.startswith(prefix):
                addresses[transport] = line[len(prefix):]
    if set(addresses) != set(transports):
        process.kill()
        process.wait()
        raise RuntimeError(f"the server did not print its addresses: {addresses}")
    return process, addresses


def stop(process):
    """SIGTERM, then AssertionError unless the server exited with 0."""
    process.send_signal(signal.SIGTERM)
    exit_code = process.wait()
    process.stdout.close()
    if exit_code != 0:
        raise AssertionError(f"the server exited with {exit_code} after SIGTERM")


class ServerTestCase(unittest.TestCase):
    """A server of the class's own (with `flags`, serving `transports`) and a
    stub on its gRPC port: cls.pb, cls.stub, cls.addresses."""
    flags = ()
    transports = ("grpc",)

    @classmethod
    def setUpClass(cls):
        cls.pb, pb_grpc = import_stubs(OPTIONS.source_dir)
        cls.server, cls.addresses = start(OPTIONS.server, *cls.flags, transports=cls.transports)
        cls.channel = grpc.insecure_channel(cls.addresses["grpc"])
        cls.stub = pb_grpc.NQueensServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        stop(cls.server)


def main(description):
    """Parses --server and --source-dir, then runs the tests with the rest."""
    global OPTIONS
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--server", required=True, help="the nqueens-server binary")
    parser.add_argument("--source-dir", required=True, help="the repository's top directory")
    OPTIONS, unittest_args = parser.parse_known_args()
    unittest.main(module="__main__", argv=[sys.argv[0]] + unittest_args)

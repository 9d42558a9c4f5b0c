"""Builds the package with its gRPC stubs, generated from the repository's
proto/nqueens/v1/nqueens.proto by protoc and grpc_python_plugin (Debian:
protobuf-compiler, protobuf-compiler-grpc) into the build directory, so that
they always match the server's API and are never committed.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "proto")
PROTO_FILE = os.path.join(PROTO_DIR, "nqueens", "v1", "nqueens.proto")


def tool(name, package):
    path = shutil.which(name)
    if path is None:
        raise SystemExit(f"{name} not found: install {package} (scripts/install-deps.sh)")
    return path


class BuildPyWithStubs(build_py):
    """build_py, then nqueens/v1/nqueens_pb2{,_grpc}.py into the build tree."""

    def run(self):
        super().run()
        if not os.path.isfile(PROTO_FILE):
            raise SystemExit(f"{PROTO_FILE} not found: build from a checkout "
                             "of the repository (clients/python inside it)")
        plugin = tool("grpc_python_plugin", "protobuf-compiler-grpc")
        self.spawn([tool("protoc", "protobuf-compiler"), f"--proto_path={PROTO_DIR}",
                    f"--python_out={self.build_lib}", f"--grpc_out={self.build_lib}",
                    f"--plugin=protoc-gen-grpc={plugin}", PROTO_FILE])


setup(cmdclass={"build_py": BuildPyWithStubs})

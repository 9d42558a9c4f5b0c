"""The installed package: where it is imported from, and what it ships."""
import os
import shutil
import sys
import unittest

import nqueens


class PackageTest(unittest.TestCase):

    def test_installed_package_is_used(self):
        # Imported from the virtual environment, not from the checkout.
        self.assertTrue(nqueens.__file__.startswith(sys.prefix), nqueens.__file__)
        self.assertNotEqual(sys.prefix, sys.base_prefix)

    def test_built_and_run_without_protoc(self):
        self.assertIsNone(shutil.which("protoc"))
        self.assertIsNone(shutil.which("grpc_python_plugin"))

    def test_ships_type_information(self):
        package = os.path.dirname(nqueens.__file__)
        for name in ("py.typed", "v1/nqueens_pb2.pyi", "v1/nqueens_pb2.py",
                     "v1/nqueens_pb2_grpc.py", "v1/nqueens_service_config.json",
                     "aio.py"):
            self.assertTrue(os.path.isfile(os.path.join(package, name)), name)

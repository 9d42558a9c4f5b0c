"""The service's messages and stub, nqueens_pb2 and nqueens_pb2_grpc:
generated from proto/nqueens/v1/nqueens.proto by
scripts/generate-python-stubs.sh and committed (CTest
clients.python_stubs_test fails when they are stale)."""

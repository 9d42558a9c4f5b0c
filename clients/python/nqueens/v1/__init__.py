"""The service's messages and stub, nqueens_pb2 and nqueens_pb2_grpc, which
setup.py generates here from proto/nqueens/v1/nqueens.proto at build time."""

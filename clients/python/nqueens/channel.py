"""What the blocking and the asyncio client share about their channel: its
options and credentials, the bearer token, and the health check's wire form."""
import importlib.resources
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import grpc
from google.protobuf import wrappers_pb2

from nqueens.requests import Metadata

MAX_MESSAGE_BYTES = 64 << 20  # proto/wire/limits.h

# The CLI's service config (proto/nqueens/v1/nqueens_service_config.json,
# copied in by scripts/generate-python-stubs.sh; client/backends/channel.cc
# says why): calls spread over every server a target names, and a call
# refused by a server that shuts down is retried.
_SERVICE_CONFIG = importlib.resources.files("nqueens.v1").joinpath(
    "nqueens_service_config.json").read_text(encoding="utf-8")

Options = Sequence[Tuple[str, Any]]
Tls = Union[bool, str, None]

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
# grpc.health.v1.HealthCheckResponse.ServingStatus, by number.
_SERVING_STATUS = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING", 3: "SERVICE_UNKNOWN"}


def options_with_defaults(options: Options) -> List[Tuple[str, Any]]:
    """This package's channel options, then the caller's, which win."""
    given: Dict[str, Any] = dict(options)
    defaults = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                ("grpc.service_config", _SERVICE_CONFIG)]
    return [(key, value) for key, value in defaults if key not in given] + list(given.items())


def credentials(tls: Tls) -> Optional[grpc.ChannelCredentials]:
    """None for plaintext; True trusts the system's CAs; a str is the path of
    a PEM file of the CAs to trust."""
    if tls is False or tls is None:
        return None
    if tls is True:
        return grpc.ssl_channel_credentials()
    if not isinstance(tls, str):
        raise TypeError(f"tls must be a bool or the path of a PEM file, not {type(tls).__name__}")
    with open(tls, "rb") as file:
        return grpc.ssl_channel_credentials(file.read())


def client_metadata(token: Optional[str], metadata: Optional[Metadata]) -> List[Tuple[str, Any]]:
    """What every call of a client sends: the caller's metadata and the token."""
    if token is not None and not isinstance(token, str):
        raise TypeError(f"token must be a str, not {type(token).__name__}")
    return list(metadata or ()) + ([("authorization", f"Bearer {token}")] if token else [])


# Debian ships neither grpcio-health-checking nor health.proto, and the two
# messages of a health check have one field each, number 1: a string
# (HealthCheckRequest.service) and an enum (HealthCheckResponse.status). The
# well-known wrappers StringValue and Int32Value have the same wire form.
def health_request(service: str) -> bytes:
    if not isinstance(service, str):
        raise TypeError(f"service must be a str, not {type(service).__name__}")
    return wrappers_pb2.StringValue(value=service).SerializeToString()


def health_status(response: bytes) -> str:
    status = wrappers_pb2.Int32Value.FromString(response).value
    return _SERVING_STATUS.get(status, str(status))

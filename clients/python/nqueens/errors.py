"""Error: a failed call, as gRPC's own errors and with the call's request id."""
import contextlib
from typing import Any, Iterable, Iterator, Optional, Tuple

import grpc

from nqueens.requests import REQUEST_ID_KEY

_STATUS_CODES = {code.value[0]: code for code in grpc.StatusCode}


# What gRPC says when a server hangs up while the connection is set up, as a
# TLS server does with a plaintext client: "connections to all backends
# failing; last error: UNAVAILABLE: ipv4:127.0.0.1:PORT: Socket closed"
# (with pick_first: "failed to connect to all addresses; ...").
_NOT_CONNECTED = ("connections to all backends failing", "failed to connect")
_CLOSED = "socket closed"
# The advice the CLI gives for it (client/backends/security.cc), in this
# package's terms.
_TLS_ADVICE = ("the server closed the connection at once; if it serves TLS, make the client "
               "with tls=True (the system's CAs) or tls=\"ca.pem\" (a PEM file of the CAs to "
               "trust)")


class Error(grpc.RpcError):
    """A failed call. code() and details() as on gRPC's errors; request_id()
    is the id the server logged the call under (x-request-id), to find it in
    the server's log. str() says them all, and what the caller may do about
    a failure it can fix (advice). Caught by `except grpc.RpcError` too."""

    def __init__(self, code: grpc.StatusCode, details: str, request_id: Optional[str] = None,
                 advice: Optional[str] = None):
        super().__init__(code, details, request_id)
        self._code = code
        self._details = details
        self._request_id = request_id
        self._advice = advice

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def request_id(self) -> Optional[str]:
        return self._request_id

    def __str__(self) -> str:
        # The code first; the request id as the CLI prints it (client/commands.cc).
        advice = f"; {self._advice}" if self._advice else ""
        suffix = f" (request id {self._request_id})" if self._request_id else ""
        return f"{self._code.name}: {self._details}{advice}{suffix}"


def status_code(number: int) -> grpc.StatusCode:
    """The grpc.StatusCode of a status number (a batch item's error)."""
    return _STATUS_CODES.get(number, grpc.StatusCode.UNKNOWN)


def request_id_in(metadata: Optional[Iterable[Tuple[str, Any]]], sent: str) -> str:
    """The request id in the server's metadata, else the one sent."""
    for key, value in metadata or ():
        if key == REQUEST_ID_KEY:
            return value if isinstance(value, str) else value.decode()
    return sent


def echoed_request_id(call: object, sent: str) -> str:
    """The request id a finished call's server echoed (initial metadata, or
    the trailers of a call it refused at once), else the one sent: the server
    may have logged the call though its answer was lost."""
    for name in ("initial_metadata", "trailing_metadata"):
        getter = getattr(call, name, None)
        if callable(getter):
            found = request_id_in(getter(), sent)
            if found != sent:
                return found
    return sent


def _advice_for(code: grpc.StatusCode, details: str, plaintext: bool) -> Optional[str]:
    """What to do about a failure whose cause the caller can fix: a plaintext
    channel's connection closed at once, as a TLS server closes it."""
    words = details.lower()
    if (plaintext and code == grpc.StatusCode.UNAVAILABLE and _CLOSED in words
            and any(phrase in words for phrase in _NOT_CONNECTED)):
        return _TLS_ADVICE
    return None


@contextlib.contextmanager
def raised_as_error(request_id: str, plaintext: bool = False) -> Iterator[None]:
    """Turns a failed call into Error; plaintext says the client made its
    channel without TLS. Usable around awaits as well."""
    try:
        yield
    except Error:
        raise
    except grpc.RpcError as error:
        # Errors of gRPC's calls are also grpc.Call; one an interceptor
        # raises may not be.
        code = error.code() if callable(getattr(error, "code", None)) else grpc.StatusCode.UNKNOWN
        details = error.details() if callable(getattr(error, "details", None)) else str(error)
        details = details or ""
        raise Error(code, details, echoed_request_id(error, request_id),
                    _advice_for(code, details, plaintext)) from error


def malformed(what: str, request_id: Optional[str] = None) -> Error:
    return Error(grpc.StatusCode.INTERNAL, f"server sent a malformed result: {what}", request_id)

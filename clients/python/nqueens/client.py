"""Client: the blocking client, a method per RPC of nqueens.v1.NQueensService and
the health check. The calls are calls.py's, run to their end at once over a
blocking channel (blocking.py)."""
from typing import Any, List, Optional, Sequence, Union

import grpc

from nqueens import blocking, calls, spread
from nqueens import channel as channels
from nqueens.requests import Metadata

Interceptor = Union[grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                    grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor]


class Client(calls.Base):
    """Calls nqueens-server at `target` ("host:port", or a gRPC target naming
    several servers, e.g. "dns:///nqueens:50051"), or over `channel`.

    tls: False for plaintext, True for TLS trusting the system's CAs, or the
    path of a PEM file of the CAs to trust. token: sent with every call as
    `authorization: Bearer <token>` (servers run with --auth-token-file).
    options: gRPC channel options, over this package's defaults.
    interceptors: gRPC client interceptors, around every call.
    metadata: (key, value) pairs sent with every call; each call may add its own.
    channel: a grpc.Channel of the caller's instead of target, tls and
    options; close() leaves it open.

    A failed call raises nqueens.Error; a bad argument TypeError or ValueError.

    count(), enumerate() and complete(method="exact") take parts=K: the
    search cut into K parts, spread over every server behind the target
    (each address of "ipv4:a,b", each address "dns:///name:port",
    "dns://DNS/name:port", which asks the DNS server DNS, or "name:port"
    resolves to), `window` parts in flight on each; a part whose server
    fails goes to another, and the answer is what one call would answer.
    The name is looked up again every resolve_every seconds (default 5;
    None or 0: never) while the job runs: servers at new addresses join,
    dropped ones still named get another try, and those no longer named
    get no new parts. With a channel given, the parts all go over it.
    """

    def __init__(self, target: Optional[str] = None, *, tls: channels.Tls = False,
                 token: Optional[str] = None, options: channels.Options = (),
                 interceptors: Sequence[Interceptor] = (), metadata: Optional[Metadata] = None,
                 channel: Optional[grpc.Channel] = None):
        super().__init__(target, tls=tls, token=token, options=options,
                         interceptors=interceptors, metadata=metadata, channel=channel)

    def _open(self, target: str, credentials: Optional[grpc.ChannelCredentials],
              options: channels.Options) -> grpc.Channel:
        if credentials is None:
            return grpc.insecure_channel(target, options)
        return grpc.secure_channel(target, credentials, options)

    def _calls_over(self, channel: grpc.Channel) -> blocking.Channel:
        return blocking.Channel(grpc.intercept_channel(channel, *self._interceptors))

    def _drive(self, job: spread.Job, servers: List[Any], window: int, call: calls.PartCall,
               progress: Optional[spread.Progress], owned: bool,
               look_up: Optional[spread.LookUp]) -> Any:
        return blocking.threads(job, servers, window, call, progress,
                                Client.close if owned else None, look_up)

    def close(self) -> None:
        """Closes the channel the client made (not one it was given)."""
        if self._owned is not None:
            self._owned.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    solve = blocking.method(calls.Calls.solve)
    complete = blocking.method(calls.Calls.complete)
    validate = blocking.method(calls.Calls.validate)
    count = blocking.method(calls.Calls.count)
    enumerate = blocking.iterator_method(calls.Calls.enumerate)
    complete_batch = blocking.iterator_method(calls.Calls.complete_batch)
    health = blocking.method(calls.Calls.health)

"""nqueens.aio.Client: nqueens.Client on grpc.aio, for asyncio programs.

The same methods, arguments and answers; each is a coroutine, except
enumerate() and complete_batch(), which return async iterators. Both
clients' calls are written once, in calls.py.
"""
from typing import Any, List, Optional, Sequence

import grpc
import grpc.aio

from nqueens import calls, spread
from nqueens import channel as channels
from nqueens.requests import Metadata


class Client(calls.Calls):
    """As nqueens.Client; interceptors are grpc.aio's client interceptors,
    and a channel given is a grpc.aio.Channel (with its interceptors set
    where it was made: grpc.aio takes them only then)."""

    _MADE_WITH = ("tls", "options", "interceptors")

    def __init__(self, target: Optional[str] = None, *, tls: channels.Tls = False,
                 token: Optional[str] = None, options: channels.Options = (),
                 interceptors: Sequence[grpc.aio.ClientInterceptor] = (),
                 metadata: Optional[Metadata] = None,
                 channel: Optional[grpc.aio.Channel] = None):
        super().__init__(target, tls=tls, token=token, options=options,
                         interceptors=interceptors, metadata=metadata, channel=channel)

    def _open(self, target: str, credentials: Optional[grpc.ChannelCredentials],
              options: channels.Options) -> grpc.aio.Channel:
        if credentials is None:
            return grpc.aio.insecure_channel(target, options, interceptors=self._interceptors)
        return grpc.aio.secure_channel(target, credentials, options,
                                       interceptors=self._interceptors)

    def _calls_over(self, channel: grpc.aio.Channel) -> grpc.aio.Channel:
        return channel

    def _drive(self, job: spread.Job, servers: List[Any], window: int, call: calls.PartCall,
               progress: Optional[spread.Progress], owned: bool,
               look_up: Optional[spread.LookUp]) -> spread.Tasks:
        return spread.Tasks(job, servers, window, call, progress,
                            Client.close if owned else None, look_up)

    async def close(self) -> None:
        """Closes the channel the client made (not one it was given)."""
        if self._owned is not None:
            await self._owned.close()

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.close()

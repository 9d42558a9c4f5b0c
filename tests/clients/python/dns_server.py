"""A DNS server for the tests, as tests/client/test_dns_server.cc is for the
CLI's: on 127.0.0.1 and a port of its own, over UDP and TCP, which a target
dns://ADDRESS/NAME:PORT asks. It answers A queries for one name with the
IPv4 addresses the test sets (and may change while a job runs), AAAA
queries for it with no record, and other names with NXDOMAIN."""
import selectors
import socket
import struct
import threading
from typing import List, Optional, Sequence, Tuple

HEADER = struct.Struct("!6H")  # id, flags, and the counts of the four sections
TYPE_A = 1
# A response (QR), authoritative (AA), recursion available (RA).
RESPONSE_FLAGS = 0x8480
RECURSION_DESIRED, TRUNCATED, NO_SUCH_NAME = 0x0100, 0x0200, 3
ATTEMPTS = 5  # at binding one port for both UDP and TCP


def question(query: bytes) -> Optional[Tuple[str, int, int]]:
    """The one question of a query: its name (lower case), type, and where
    it ends; None for any other message."""
    if len(query) < HEADER.size:
        return None
    _, flags, questions, _, _, _ = HEADER.unpack_from(query)
    if flags & 0x8000 or questions != 1:
        return None
    labels, at = [], HEADER.size
    while at < len(query) and query[at] != 0:
        labels.append(query[at + 1:at + 1 + query[at]].decode("ascii", "replace").lower())
        at += 1 + query[at]
    if at + 5 > len(query):
        return None
    kind, = struct.unpack_from("!H", query, at + 1)
    return ".".join(labels), kind, at + 5


def bound_pair() -> Tuple[socket.socket, socket.socket]:
    """A UDP and a listening TCP socket on 127.0.0.1 and one port."""
    for _ in range(ATTEMPTS):
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.bind(("127.0.0.1", 0))
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            udp.bind(tcp.getsockname())
        except OSError:  # the port is taken for UDP: another try
            udp.close()
            tcp.close()
            continue
        tcp.listen()
        return udp, tcp
    raise RuntimeError(f"no port free for both UDP and TCP in {ATTEMPTS} tries")


class DnsServer:
    """Serves `name` (no trailing dot) with `addresses` on a thread of its
    own until closed. truncate: every UDP answer is cut to its header and
    question, marked truncated, so that a client asks again over TCP."""

    def __init__(self, name: str, addresses: Sequence[str], truncate: bool = False):
        self._name, self._truncate = name.lower(), truncate
        self._lock = threading.Lock()
        self._records = [socket.inet_aton(address) for address in addresses]
        self._udp, self._tcp = bound_pair()
        self.address = "%s:%d" % self._udp.getsockname()
        self.tcp_queries = 0  # read after close()
        self._wake, self._woken = socket.socketpair()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def set_addresses(self, addresses: Sequence[str]) -> None:
        """The name's A records from the next query on."""
        with self._lock:
            self._records = [socket.inet_aton(address) for address in addresses]

    def close(self) -> None:
        self._wake.send(b"x")
        self._thread.join()
        for each in (self._udp, self._tcp, self._wake, self._woken):
            each.close()

    def _serve(self) -> None:
        with selectors.DefaultSelector() as selector:
            for each in (self._udp, self._tcp, self._woken):
                selector.register(each, selectors.EVENT_READ)
            while True:
                for key, _ in selector.select():
                    if key.fileobj is self._woken:
                        return
                    if key.fileobj is self._udp:
                        query, peer = self._udp.recvfrom(1 << 16)
                        answer = self._response(query, self._truncate)
                        if answer is not None:
                            self._udp.sendto(answer, peer)
                    else:
                        self._answer_over_tcp()

    def _answer_over_tcp(self) -> None:
        connection, _ = self._tcp.accept()
        with connection:
            connection.settimeout(10)  # a bound, should a client stall
            length = connection.recv(2, socket.MSG_WAITALL)
            if len(length) < 2:
                return
            query = connection.recv(struct.unpack("!H", length)[0], socket.MSG_WAITALL)
            answer = self._response(query, False)
            if answer is not None:
                connection.sendall(struct.pack("!H", len(answer)) + answer)
                self.tcp_queries += 1

    def _response(self, query: bytes, truncate: bool) -> Optional[bytes]:
        asked = question(query)
        if asked is None:
            return None
        name, kind, end = asked
        ours = name == self._name
        with self._lock:
            records: List[bytes] = list(self._records) if ours and kind == TYPE_A else []
        flags = RESPONSE_FLAGS | HEADER.unpack_from(query)[1] & RECURSION_DESIRED
        flags |= 0 if ours else NO_SUCH_NAME
        if truncate:
            records, flags = [], flags | TRUNCATED
        answers = b"".join(struct.pack("!3HIH", 0xC00C, TYPE_A, 1, 0, 4) + record
                           for record in records)  # 0xC00C: the question's name
        return HEADER.pack(HEADER.unpack_from(query)[0], flags, 1, len(records), 0, 0) + \
            query[HEADER.size:end] + answers

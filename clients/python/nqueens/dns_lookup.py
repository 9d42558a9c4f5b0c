"""A host name's addresses, looked up as a gRPC target asks, as the CLI does
(client/parts/dns_lookup.cc): by the system's resolver for dns:///HOST:PORT
and HOST:PORT, and by the DNS server that AUTHORITY names for
dns://AUTHORITY/HOST:PORT. The standard library has no DNS client, so the
A and AAAA queries are written here (RFC 1035): over UDP, and again over
TCP when the answer did not fit in a datagram, as glibc's resolver does."""
import ipaddress
import random
import re
import socket
import struct
import time
from typing import List, Optional, Tuple

import grpc

from nqueens.errors import Error

DNS_PORT = 53
# glibc's defaults (resolv.conf(5): timeout:5, attempts:2), which the CLI's
# queries keep unless /etc/resolv.conf says otherwise.
TIMEOUT_SECONDS = 5.0
ATTEMPTS = 2
TYPE_A, TYPE_AAAA, CLASS_IN = 1, 28, 1
_HEADER = struct.Struct("!6H")  # id, flags, and the counts of the four sections
_RECORD = struct.Struct("!2HIH")  # type, class, time to live, data length
_RECURSION_DESIRED, _RESPONSE, _TRUNCATED = 0x0100, 0x8000, 0x0200
_NO_SUCH_NAME = 3  # the response code NXDOMAIN
_POINTER = 0xC0  # a name's label length with these bits set: a pointer, 2 bytes


class _QueryFailed(Exception):
    """A query got no addresses; the reason."""


class _Unanswered(_QueryFailed):
    """The DNS server did not answer at all."""


def look_up_host(host: str, dns_server: str = "") -> List[str]:
    """Every address of host as text ("10.0.0.1", "fd00::1"), each once, in
    the answer's order. dns_server empty: the system's resolver
    (getaddrinfo, with /etc/hosts and the search domains); else the DNS
    server at dns_server, "IPV4" or "IPV4:PORT" (port 53 unless given), is
    asked for the A and AAAA records of host as given. Error UNAVAILABLE
    naming host (and the DNS server) when it has no address or the server
    does not answer; ValueError when dns_server is no IPv4 address with an
    optional port."""
    if not dns_server:
        return _look_up_by_system(host)
    server = _dns_server_address(dns_server)
    failure = f"cannot resolve {host} at DNS server {dns_server}"
    try:
        name = _encoded_name(host)
    except ValueError as error:
        raise Error(grpc.StatusCode.UNAVAILABLE, f"{failure}: {error}") from error
    addresses: List[str] = []
    reasons: List[str] = []
    for record_type in (TYPE_A, TYPE_AAAA):
        try:
            addresses += _query(name, server, record_type)
        except _Unanswered as error:
            # A server that did not answer for A would make AAAA wait as long again.
            reasons.append(str(error))
            break
        except _QueryFailed as error:
            reasons.append(str(error))
    if addresses:
        return list(dict.fromkeys(addresses))
    raise Error(grpc.StatusCode.UNAVAILABLE, f"{failure}: {(reasons or ['no address'])[0]}")


def _look_up_by_system(host: str) -> List[str]:
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Error(grpc.StatusCode.UNAVAILABLE, f"cannot resolve {host}: {error}") from error
    addresses = [address[0] for family, _, _, _, address in found
                 if family in (socket.AF_INET, socket.AF_INET6)]
    if not addresses:
        raise Error(grpc.StatusCode.UNAVAILABLE, f"cannot resolve {host}: no address")
    return list(dict.fromkeys(addresses))


def _dns_server_address(dns_server: str) -> Tuple[str, int]:
    """"IPV4" or "IPV4:PORT" as a socket address."""
    host, colon, port = dns_server.partition(":")
    number = int(port) if re.fullmatch(r"[0-9]{1,5}", port) else 0 if colon else DNS_PORT
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        number = 0
    if not 0 < number < 1 << 16:
        raise ValueError(f"the DNS server {dns_server!r} is no IPV4 or IPV4:PORT address")
    return host, number


def _encoded_name(host: str) -> bytes:
    """host as a query's name: its labels, each after its length, then 0."""
    labels = host.rstrip(".").encode("idna").split(b".")
    if not all(0 < len(label) < 64 for label in labels):
        raise ValueError("not a host name")
    return b"".join(bytes([len(label)]) + label for label in labels) + b"\0"


def _query(name: bytes, server: Tuple[str, int], record_type: int) -> List[str]:
    """The addresses of name's records of record_type, as server answers."""
    query = (_HEADER.pack(random.getrandbits(16), _RECURSION_DESIRED, 1, 0, 0, 0) + name
             + struct.pack("!2H", record_type, CLASS_IN))
    answer = _over_udp(query, server)
    if _HEADER.unpack_from(answer)[1] & _TRUNCATED:
        answer = _over_tcp(query, server)
    return _addresses(answer, query[:2], record_type)


def _over_udp(query: bytes, server: Tuple[str, int]) -> bytes:
    """The server's answer to query, in ATTEMPTS tries."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect(server)  # datagrams from elsewhere are not received
            for _ in range(ATTEMPTS):
                udp.send(query)
                answer = _answer_to(udp, query[:2])
                if answer is not None:
                    return answer
    except OSError as error:  # ECONNREFUSED: nothing listens there
        raise _Unanswered(str(error)) from error
    raise _Unanswered(f"no answer in {ATTEMPTS} tries of {TIMEOUT_SECONDS:g} s")


def _answer_to(udp: socket.socket, query_id: bytes) -> Optional[bytes]:
    """The first datagram of query_id within TIMEOUT_SECONDS; None if none."""
    end = time.monotonic() + TIMEOUT_SECONDS
    while time.monotonic() < end:
        udp.settimeout(max(end - time.monotonic(), 0.001))
        try:
            answer = udp.recv(1 << 16)
        except socket.timeout:
            return None
        if answer[:2] == query_id and len(answer) >= _HEADER.size:
            return answer  # else a late answer to an earlier query
    return None


def _over_tcp(query: bytes, server: Tuple[str, int]) -> bytes:
    """The server's answer to query over TCP: each message after its length."""
    try:
        with socket.create_connection(server, timeout=TIMEOUT_SECONDS) as tcp:
            tcp.sendall(struct.pack("!H", len(query)) + query)
            length, = struct.unpack("!H", _received(tcp, 2))
            return _received(tcp, length)
    except OSError as error:  # socket.timeout included
        raise _Unanswered(f"over TCP: {error}") from error


def _received(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:  # each pass takes a byte or more, or raises
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the connection closed before the answer's end")
        data += chunk
    return data


def _addresses(message: bytes, query_id: bytes, record_type: int) -> List[str]:
    """The addresses of the answer's records of record_type (a CNAME's own
    records skipped)."""
    try:
        _, flags, questions, answers, _, _ = _HEADER.unpack_from(message)
        if message[:2] != query_id or not flags & _RESPONSE:
            raise _QueryFailed("an answer to another query")
        if flags & 0xF == _NO_SUCH_NAME:
            raise _QueryFailed("no such name")
        if flags & 0xF:
            raise _QueryFailed(f"the server failed with response code {flags & 0xF}")
        at = _HEADER.size
        for _ in range(questions):
            at = _name_end(message, at) + 4  # type and class
        family, size = (socket.AF_INET, 4) if record_type == TYPE_A else (socket.AF_INET6, 16)
        found = []
        for _ in range(answers):
            at = _name_end(message, at)
            kind, klass, _, length = _RECORD.unpack_from(message, at)
            data = message[at + _RECORD.size:at + _RECORD.size + length]
            at += _RECORD.size + length
            if (kind, klass, len(data)) == (record_type, CLASS_IN, size):
                found.append(socket.inet_ntop(family, data))
        return found
    except (struct.error, IndexError) as error:
        raise _QueryFailed("a malformed answer") from error


def _name_end(message: bytes, at: int) -> int:
    """Where the name at `at` ends: after its labels and their 0, or after a
    pointer to the rest."""
    while message[at] != 0:  # each pass moves on; IndexError past the end
        if message[at] >= _POINTER:
            return at + 2
        at += 1 + message[at]
    return at + 1

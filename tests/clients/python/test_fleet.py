"""The fleet follows the fleet: a job's target looked up again while the job
runs (resolve_every), so that a server the name gives later gets parts; the
rules of who takes parts after a look-up (spread.Job.follow); and the
look-up at a DNS server of the target's own (dns://DNS/NAME:PORT), asked
by the package itself, against a DNS server of the tests' own."""
import socket
import unittest

import grpc

import nqueens
import nqueens.aio
from nqueens import dns_lookup, spread
from dns_server import DnsServer
from support import Server, TestCase

NAME = "fleet.nqueens.test"
# n = 16 in 64 parts: about a second on two servers of two cores, so that
# most parts are still to come when the third server is named.
N, PARTS = 16, 64
RESOLVE_EVERY = 0.05
HOSTS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
ATTEMPTS = 5  # at finding a port free on all three hosts
GONE = nqueens.Error(grpc.StatusCode.UNAVAILABLE, "the server went away")


def servers_sharing_a_port():
    """A server on each of HOSTS, all on one port, as the servers behind one
    name are."""
    for _ in range(ATTEMPTS):
        servers = [Server(listen=f"{HOSTS[0]}:0")]
        port = servers[0].target.rpartition(":")[2]
        try:
            servers += [Server(listen=f"{host}:{port}") for host in HOSTS[1:]]
            return servers
        except RuntimeError:  # the port is taken on another host: another try
            for server in servers:
                server.stop()
    raise RuntimeError(f"no port free on all of {HOSTS} in {ATTEMPTS} tries")


def answered_counts(log):
    return sum(call["method"] == "Count" and call["code"] == "OK" for call in log)


class LateServer:
    """A job over dns://DNS/NAME:PORT whose DNS server gives the name the
    first two servers' addresses when the job starts, and all three once a
    quarter of the job is done (as the CLI's
    AServerThatTheNameGivesHalfwayGetsPartsAndTheCountStaysExact)."""

    def setUp(self):
        self.servers = servers_sharing_a_port()
        self.dns = DnsServer(NAME, HOSTS[:2])
        port = self.servers[0].target.rpartition(":")[2]
        self.target = f"dns://{self.dns.address}/{NAME}:{port}"
        self.named_all = False

    def tearDown(self):
        self.dns.close()
        for server in self.servers:
            server.stop()

    def progress(self, share):
        if share >= 0.25 and not self.named_all:
            self.dns.set_addresses(HOSTS)
            self.named_all = True

    def check(self, counted):
        """The count is the one the first server gives for the whole board in
        one call, every part was answered once by the three servers together
        (their logs, which hold that call too), and the third answered some."""
        with nqueens.Client(self.servers[0].target) as client:
            whole = client.count(N)
        servers, self.servers = self.servers, []
        answered = [answered_counts(server.stop()) for server in servers]
        self.assertTrue(self.named_all)
        self.assertEqual((counted.solutions, counted.fundamental),
                         (whole.solutions, whole.fundamental))
        self.assertEqual(sum(answered), PARTS + 1, answered)
        self.assertGreater(answered[2], 0, f"the server named later got no part: {answered}")


class LateServerTest(LateServer, TestCase):

    def test_a_server_the_name_gives_later_gets_parts(self):
        with nqueens.Client(self.target) as client:
            counted = client.count(N, parts=PARTS, resolve_every=RESOLVE_EVERY,
                                   progress=self.progress)
        self.check(counted)


class AioLateServerTest(LateServer, TestCase, unittest.IsolatedAsyncioTestCase):

    async def test_a_server_the_name_gives_later_gets_parts(self):
        async with nqueens.aio.Client(self.target) as client:
            counted = await client.count(N, parts=PARTS, resolve_every=RESOLVE_EVERY,
                                         progress=self.progress)
        self.check(counted)


class FollowTest(TestCase):
    """spread.Job.follow, the rules alone: who takes parts after a look-up."""

    def drop(self, job, server):
        """Fails parts on `server` until it is dropped; the last pause."""
        for _ in range(spread.MAX_FAILURES):
            pause = job.failed(server, job.take(server), GONE)
        return pause

    def test_a_server_named_for_the_first_time_joins(self):
        job = spread.Job(8, ["a"])
        self.assertEqual(job.follow(["a", "b", "b", "c"]), [1, 2])
        self.assertEqual((job.target(1), job.target(2)), ("b", "c"))
        self.assertTrue(job.ready_for(2))
        self.assertEqual(job.follow(["c", "b", "a"]), [])

    def test_a_dropped_server_named_again_is_on_trial(self):
        job = spread.Job(16, ["a", "b"])
        self.assertEqual(self.drop(job, 0), 0.0)
        self.assertFalse(job.ready_for(0))
        job.follow(["a", "b"])
        self.assertTrue(job.ready_for(0))
        # Its next failure drops it again...
        self.assertEqual(job.failed(0, job.take(0), GONE), 0.0)
        self.assertFalse(job.ready_for(0))
        # ...unless a part succeeds first: then it is in the job again.
        job.follow(["a", "b"])
        self.assertTrue(job.succeeded(0, job.take(0), "done"))
        self.assertEqual(job.failed(0, job.take(0), GONE), spread.FIRST_PAUSE_SECONDS)
        self.assertTrue(job.ready_for(0))
        self.assertIsNone(job.error)

    def test_a_server_no_longer_named_takes_no_new_parts(self):
        job = spread.Job(4, ["a", "b"])
        part = job.take(0)
        job.follow(["b"])
        self.assertFalse(job.ready_for(0))
        self.assertTrue(job.ready_for(1))
        self.assertTrue(job.succeeded(0, part, "counted"))  # its part in flight counts
        self.assertEqual(job.results, {part: "counted"})
        job.follow(["b", "a"])
        self.assertTrue(job.ready_for(0))

    def test_the_job_fails_when_every_server_is_dropped(self):
        job = spread.Job(16, ["a", "b"])
        self.drop(job, 0)
        self.assertIsNone(self.drop(job, 1))
        self.assertIs(job.error, GONE)
        self.assertEqual(job.follow(["a", "b", "c"]), [])  # over: no one joins


class DnsServerLookUpTest(TestCase):
    """dns://DNS/NAME:PORT asks the DNS server DNS, as the CLI does."""

    def test_the_addresses_the_dns_server_gives(self):
        dns = DnsServer(NAME, HOSTS[:2])
        try:
            target = f"dns://{dns.address}/{NAME}:7"
            self.assertEqual(spread.host_name(target), (NAME, "7", dns.address))
            self.assertEqual(spread.server_targets(target),
                             ["ipv4:127.0.0.2:7", "ipv4:127.0.0.3:7"])
            dns.set_addresses(HOSTS[2:])
            self.assertEqual(spread.server_targets(f"dns://{dns.address}/FLEET.nqueens.test."),
                             ["ipv4:127.0.0.4:443"])
            error = self.assert_refused(
                nqueens.Error, f"UNAVAILABLE: cannot resolve other.test at DNS server "
                f"{dns.address}: no such name", spread.server_targets,
                f"dns://{dns.address}/other.test:7")
            self.assertEqual(error.code(), grpc.StatusCode.UNAVAILABLE)
        finally:
            dns.close()
        self.assertEqual(dns.tcp_queries, 0)

    def test_an_answer_too_long_for_udp_is_asked_again_over_tcp(self):
        dns = DnsServer(NAME, HOSTS, truncate=True)
        try:
            self.assertEqual(dns_lookup.look_up_host(NAME, dns.address), HOSTS)
        finally:
            dns.close()
        self.assertGreater(dns.tcp_queries, 0)

    def test_a_dns_server_that_is_not_there(self):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind(("127.0.0.1", 0))
            address = "%s:%d" % probe.getsockname()
        # Nothing listens there now: the kernel refuses at once.
        with self.assertRaisesRegex(nqueens.Error, f"^UNAVAILABLE: cannot resolve {NAME} at DNS "
                                    f"server {address}: "):
            spread.server_targets(f"dns://{address}/{NAME}:7")

    def test_an_address_is_not_looked_up(self):
        self.assertEqual(spread.server_targets("dns://192.0.2.1/127.0.0.1:7"),
                         ["ipv4:127.0.0.1:7"])
        self.assertIsNone(spread.host_name("dns://192.0.2.1/127.0.0.1:7"))
        self.assertIsNone(spread.host_name("ipv4:127.0.0.1:7"))
        self.assertEqual(spread.host_name("localhost:7"), ("localhost", "7", ""))
        self.assertIsNone(spread.look_up("localhost:7", 0, print))
        self.assertIsNone(spread.look_up("127.0.0.1:7", 5.0, print))
        self.assertEqual(spread.look_up("localhost:7", 5.0, print).every, 5.0)

    def test_a_dns_server_that_is_no_ipv4_address(self):
        for dns in ("dns.example", "[::1]:53", "192.0.2.1:", "192.0.2.1:65536", "192.0.2:53"):
            self.assert_refused(ValueError, f"the DNS server {dns!r} is no IPV4 or IPV4:PORT "
                                "address", spread.server_targets, f"dns://{dns}/{NAME}:7")

#!/usr/bin/python3
"""The playground page (server/http/playground.html) in a real browser.

Starts nqueens-server with its HTTP face on 127.0.0.1 port 0, opens the page
it serves in headless Chromium (driven over the DevTools protocol, cdp.py)
and uses it as a person would: real mouse clicks on the board's cells, keys
pressed, files chosen, links clicked. What the page shows is checked by the
CLI's validator (`nqueens --local validate`) and certificates by
nqueens-check-certificate, never by trusting the page or the server.
Chromium is installed with apt-get when missing and this runs as root; the
cases are skipped otherwise. Python 3 standard library only.

usage: playground_browser_test.py --server PATH --client PATH --checker PATH
                                  [--screenshot PNG] [unittest args]
"""
import itertools
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
from typing import Callable, Dict, Optional

import cdp
import tools

OPTIONS = None  # the parsed command line

STARTUP_SECONDS = 30
CALL_SECONDS = 60  # the longest the page may take to show an answer

# A composition of 4-queens without completion (the CLI confirms it in
# test_an_unsolvable_composition_comes_with_a_certificate_that_checks).
UNSOLVABLE_4 = {1: 1}


class Server:
    """nqueens-server on 127.0.0.1 port 0 with its HTTP face on port 0."""

    def __init__(self, *flags: str):
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [OPTIONS.server, "--listen=127.0.0.1:0", "--http-listen=127.0.0.1:0", *flags],
            stdout=subprocess.PIPE, stderr=self.log)
        try:
            self.address = self._http_address(time.monotonic() + STARTUP_SECONDS)
        except BaseException:
            self.process.kill()
            self.process.wait()
            raise

    def _http_address(self, deadline: float) -> str:
        """HOST:PORT of the line "listening for HTTP on HOST:PORT", which
        comes after the gRPC "listening on" lines."""
        fd = self.process.stdout.fileno()
        output = b""
        prefix = b"listening for HTTP on "
        while True:
            lines = output.split(b"\n")
            for line in lines[:-1]:
                if line.startswith(prefix):
                    return line[len(prefix):].decode()
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise RuntimeError(f"the server printed no HTTP address; stdout: {output!r}, "
                                   f"log:\n{self.read_log()}")
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError(f"the server exited at start; log:\n{self.read_log()}")
            output += chunk

    def read_log(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> int:
        """SIGTERM; the exit status."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=STARTUP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self.process.stdout.close()
            self.log.close()


def stop(server: Server) -> None:
    """Stops `server`, which must exit 0."""
    exit_code = server.stop()
    if exit_code != 0:
        raise AssertionError(f"the server exited with {exit_code} after SIGTERM")


# --- What the page shows, read from its DOM ---

# Each queen drawn on the grid: its cell, data-state and colour.
QUEENS_JS = """[...document.querySelectorAll("#board [role=gridcell]")]
  .filter((cell) => cell.dataset.state !== "empty")
  .map((cell) => [Number(cell.dataset.row), Number(cell.dataset.col), cell.dataset.state,
                  getComputedStyle(cell, "::after").backgroundColor])"""

# The colours of the CLI's pictures (client/output/picture.cc), by data-state.
COLOURS = {"given": "rgb(32, 32, 32)", "placed": "rgb(31, 111, 208)",
           "conflict": "rgb(208, 31, 31)"}


def cell(row: int, col: int) -> str:
    return f'#board [data-row="{row}"][data-col="{col}"]'


def drawn_queens(page: cdp.Page) -> Dict[tuple, str]:
    """(row, column) -> data-state of every queen drawn on the grid, each
    checked to be drawn in its state's colour."""
    queens = {}
    for row, col, state, colour in page.evaluate(QUEENS_JS):
        if colour != COLOURS.get(state):
            raise AssertionError(f"the {state} queen at row {row}, column {col} is {colour}")
        queens[(row, col)] = state
    return queens


def text_of(page: cdp.Page, element_id: str) -> str:
    return page.evaluate(f"document.getElementById({json.dumps(element_id)}).textContent")


def element(element_id: str) -> str:
    """The expression of the page's element `element_id`."""
    return f"document.getElementById({json.dumps(element_id)})"


def solutions(n: int) -> list:
    """Every solution of n-queens as its columns, by trying every
    permutation: the count Enumerate is checked against, not the server's."""
    return [list(columns) for columns in itertools.permutations(range(1, n + 1))
            if len({row - col for row, col in enumerate(columns)}) == n
            and len({row + col for row, col in enumerate(columns)}) == n]


def wait_for_log(server: Server, pattern: str, timeout: float = CALL_SECONDS) -> None:
    """Polls the server's log until a line matches `pattern`, for at most
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, server.read_log(), re.MULTILINE):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no log line matches {pattern!r}; log:\n{server.read_log()}")
        time.sleep(0.05)


def wait_for_a_call_in_flight(server: Server, timeout: float = CALL_SECONDS) -> None:
    """Polls the server's metrics (--metrics-listen) until a call is in
    flight, for at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    wait_for_log(server, r"serving metrics on http://\S+/metrics", timeout)
    url = re.search(r"serving metrics on (http://\S+/metrics)", server.read_log()).group(1)
    while True:
        with urllib.request.urlopen(url, timeout=timeout) as page:
            found = re.search(r"^nqueens_calls_in_flight (\S+)$", page.read().decode(),
                              re.MULTILINE)
        if found and float(found.group(1)) >= 1:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("no call came in flight")
        time.sleep(0.05)


class PlaygroundTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        executable = cdp.chromium()
        scratch = tempfile.TemporaryDirectory(prefix="playground-test-")
        cls.addClassCleanup(scratch.cleanup)
        cls.scratch = scratch.name
        cls.downloads = os.path.join(cls.scratch, "downloads")
        cls.server = Server("--metrics-listen=127.0.0.1:0")
        cls.addClassCleanup(stop, cls.server)
        cls.url = f"http://{cls.server.address}/"
        cls.browser = cdp.Browser(executable)
        cls.addClassCleanup(cls.browser.close)
        # Downloads land in `downloads`, named by their guid.
        cls.browser.send("Browser.setDownloadBehavior", {
            "behavior": "allowAndName", "downloadPath": cls.downloads, "eventsEnabled": True})

    # --- Helpers ---

    def open_page(self, url: Optional[str] = None) -> cdp.Page:
        """A new tab showing the page (at `url`, e.g. a shared link)."""
        page = cdp.Page(self.browser)
        self.addCleanup(page.close)
        page.navigate(url or self.url)
        page.wait_for("document.querySelector('#board [role=gridcell]') || "
                      "!document.getElementById('summary').hidden", "the board to be drawn")
        return page

    def set_n(self, page: cdp.Page, n: int) -> None:
        """Types n into its field and presses Enter."""
        page.click("#n")
        page.evaluate("document.getElementById('n').select()")
        page.insert_text(str(n))
        page.press("Enter")
        page.wait_for(f"document.querySelectorAll('#board [role=gridcell]').length === {n * n}",
                      f"the {n} x {n} board")

    def place(self, page: cdp.Page, queens: Dict[int, int]) -> None:
        """Clicks each queen's cell, checking that it took."""
        for row, col in queens.items():
            page.click(cell(row, col))
            page.wait_for(f"document.querySelector('{cell(row, col)}').dataset.state === 'given'",
                          f"a queen at row {row}, column {col}")

    def answer(self, page: cdp.Page, start: Callable[[], None]) -> str:
        """Runs `start` (a click or a key that makes a call) and returns the
        outcome the page shows once the answer is in."""
        calls = page.evaluate("document.getElementById('status').dataset.calls")
        start()
        return page.wait_for(
            f"document.getElementById('status').dataset.calls !== '{calls}' && "
            "document.getElementById('status').dataset.outcome",
            "the page to show the server's answer", CALL_SECONDS)

    def download(self, page: cdp.Page, link_id: str, file_name: str) -> bytes:
        """Clicks a download link and returns the file the browser saved."""
        page.click(f"#{link_id}")
        begin = self.browser.wait_event("Browser.downloadWillBegin")
        self.assertEqual(begin["suggestedFilename"], file_name)
        progress = self.browser.wait_event(
            "Browser.downloadProgress",
            lambda params: params["guid"] == begin["guid"] and params["state"] != "inProgress")
        self.assertEqual(progress["state"], "completed")
        with open(os.path.join(self.downloads, begin["guid"]), "rb") as saved:
            return saved.read()

    def write(self, name: str, content: bytes) -> str:
        path = os.path.join(self.scratch, name)
        with open(path, "wb") as board:
            board.write(content)
        return path

    def fill(self, page: cdp.Page, field_id: str, text: str) -> None:
        """Replaces the text of a field, typing `text` into it."""
        page.click(f"#{field_id}")
        page.evaluate(f"{element(field_id)}.select()")
        if text:
            page.insert_text(text)
        else:
            page.evaluate(f"{element(field_id)}.value = ''")
        self.assertEqual(page.evaluate(f"{element(field_id)}.value"), text)

    def check_completion(self, n: int, queens: Dict[tuple, str], given: Dict[int, int]) -> list:
        """`queens` (drawn, by cell) is a full solution that keeps every
        queen of `given`, drawn as given; the others are drawn as placed.
        Returns its columns."""
        for row, col in given.items():
            self.assertEqual(queens.get((row, col)), "given", f"row {row}, column {col}")
        self.assertEqual([state for (row, col), state in queens.items() if row not in given],
                         ["placed"] * (n - len(given)))
        columns = [0] * n
        for row, col in queens:
            columns[row - 1] = col
        path = self.write("drawn.q", " ".join(map(str, columns)).encode() + b"\n")
        self.assertEqual(self.validate_with_cli(path)["complete"], True, columns)
        return columns

    def validate_with_cli(self, path: str) -> dict:
        result = subprocess.run([OPTIONS.client, "--local", "--json", "--quiet", "validate", path],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return json.loads(result.stdout)

    # --- Cases ---

    def test_clicked_queens_are_completed_to_a_solution(self):
        page = self.open_page()
        given = {2: 5, 4: 6}
        self.place(page, given)
        outcome = self.answer(page, lambda: page.click("#complete"))
        self.assertEqual(outcome, "OUTCOME_SOLVED", text_of(page, "details"))
        self.check_completion(8, drawn_queens(page), given)
        if OPTIONS.screenshot:
            page.screenshot(OPTIONS.screenshot)

    def test_a_queen_on_an_attacked_cell_is_refused(self):
        page = self.open_page()
        self.place(page, {1: 1})
        attacked = cell(2, 2)
        self.assertEqual(page.evaluate(f"document.querySelector('{attacked}').dataset.attacked"),
                         "true")
        self.assertEqual(
            page.evaluate(f"document.querySelector('{attacked}').getAttribute('aria-label')"),
            "row 2, column 2, attacked")
        page.click(attacked)
        message = page.wait_for("document.getElementById('message').textContent",
                                "the refusal")
        self.assertIn("attacked by the queen at row 1, column 1", message)
        self.assertEqual(drawn_queens(page), {(1, 1): "given"})

    def test_an_unsolvable_composition_comes_with_a_certificate_that_checks(self):
        sparse = "4\n" + "".join(f"{row} {col}\n" for row, col in UNSOLVABLE_4.items())
        cli = subprocess.run([OPTIONS.client, "--local", "--quiet", "complete",
                              self.write("unsolvable.q", sparse.encode())],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(cli.returncode, 1, f"the CLI does not find it unsolvable: {cli.stderr}")
        page = self.open_page()
        self.set_n(page, 4)
        self.place(page, UNSOLVABLE_4)
        page.evaluate("document.getElementById('complete-method').value = 'COMPLETE_METHOD_EXACT'")
        outcome = self.answer(page, lambda: page.click("#complete"))
        self.assertEqual(outcome, "OUTCOME_UNSOLVABLE", text_of(page, "details"))
        composition = self.write("composition.q",
                                 self.download(page, "download-composition", "composition.q"))
        certificate = self.write("certificate.cert",
                                 self.download(page, "download-certificate", "certificate.cert"))
        checked = subprocess.run([OPTIONS.checker, composition, certificate],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)

    def test_undecided_says_which_search_gave_up(self):
        page = self.open_page()
        self.set_n(page, 4)
        self.place(page, UNSOLVABLE_4)
        page.evaluate(
            "document.getElementById('complete-method').value = 'COMPLETE_METHOD_MIN_CONFLICTS'")
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_UNDECIDED")
        self.assertRegex(text_of(page, "details"),
                         r"Min-conflicts repair gave up after \d+ queen moves")
        self.assertEqual(drawn_queens(page), {queen: "given" for queen in UNSOLVABLE_4.items()})

    def test_the_keyboard_alone_places_queens_and_completes(self):
        page = self.open_page()
        focused = "document.activeElement"
        ring = f"getComputedStyle({focused}).outlineStyle !== 'none'"
        for _ in range(20):
            page.press("Tab")
            if page.evaluate(f"{focused}.getAttribute('role') === 'gridcell'"):
                break
        else:
            self.fail("Tab never reached the board")
        self.assertTrue(page.evaluate(ring), "no focus ring on the board's cell")
        label = f"{focused}.getAttribute('aria-label')"
        self.assertEqual(page.evaluate(label), "row 1, column 1, empty")
        page.press(" ")
        self.assertEqual(page.evaluate(label), "row 1, column 1, queen")
        for key in ["ArrowDown"] + ["ArrowRight"] * 4:
            page.press(key)
        self.assertEqual(page.evaluate(label), "row 2, column 5, empty")
        page.press("Enter")
        given = {1: 1, 2: 5}
        self.assertEqual(drawn_queens(page), {queen: "given" for queen in given.items()})
        for _ in range(20):
            page.press("Tab")
            self.assertFalse(page.evaluate(f"{focused}.getAttribute('role') === 'gridcell'"),
                             "the board is more than one Tab stop")
            if page.evaluate(f"{focused}.id === 'complete'"):
                break
        else:
            self.fail("Tab never reached the Complete button")
        self.assertTrue(page.evaluate(ring), "no focus ring on the Complete button")
        outcome = self.answer(page, lambda: page.press("Enter"))
        self.assertEqual(outcome, "OUTCOME_SOLVED", text_of(page, "details"))
        self.check_completion(8, drawn_queens(page), given)

    def test_a_shared_link_restores_the_composition(self):
        page = self.open_page()
        self.set_n(page, 10)
        given = {3: 7, 1: 2}
        self.place(page, given)
        self.assertEqual(page.evaluate("location.hash"), "#n=10&q=1.2,3.7")
        page.click("#copy-link")
        link = page.evaluate("document.getElementById('share-url').value")
        self.assertEqual(link, page.evaluate("location.href"))
        shared = self.open_page(link)
        self.assertEqual(shared.evaluate("document.querySelectorAll('#board [role=row]').length"),
                         10)
        self.assertEqual(drawn_queens(shared), {queen: "given" for queen in given.items()})

    def test_the_token_is_sent_and_kept_for_the_tab_only(self):
        token = "playground-secret"
        server = Server(f"--auth-token-file={self.write('token', token.encode())}")
        self.addCleanup(stop, server)
        url = f"http://{server.address}/"
        page = self.open_page(url)
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "ERROR")
        self.assertIn("bearer token", text_of(page, "status"))  # the server's own message
        self.assertRegex(text_of(page, "details"), r"HTTP 401 UNAUTHENTICATED, request id \S+")
        page.click("#token")
        page.insert_text(token)
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_SOLVED")
        self.assertNotIn(token, page.evaluate("location.href"))
        page.navigate(url)  # the link without its fragment: the page loads again
        page.wait_for(f"document.getElementById('token').value === '{token}'",
                      "the token to be restored in the same tab")
        other_tab = self.open_page(url)
        self.assertEqual(other_tab.evaluate("document.getElementById('token').value"), "")

    def test_conflicts_of_a_loaded_board_are_drawn_and_refused(self):
        page = self.open_page()
        page.set_files("#file", [self.write("attacking.txt", b"4 1 0 3\n")])
        page.wait_for("document.getElementById('status').textContent.startsWith('Loaded')",
                      "the board to be loaded")
        self.assertEqual(self.answer(page, lambda: page.click("#validate")), "INVALID")
        self.assertEqual(drawn_queens(page),
                         {(1, 4): "given", (2, 1): "conflict", (4, 3): "conflict"})
        self.assertEqual(page.evaluate("document.querySelectorAll('#lines line').length"), 1)
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "ERROR")
        self.assertIn("attack each other", text_of(page, "status"))  # the server's message
        self.assertRegex(text_of(page, "details"), r"HTTP 400 INVALID_ARGUMENT, request id \S+")

    def test_validate_and_count_show_the_server_s_answers(self):
        page = self.open_page()
        self.place(page, {1: 1})
        self.assertEqual(self.answer(page, lambda: page.click("#validate")), "VALID")
        self.assertIn("queens: 1", text_of(page, "details"))
        self.assertEqual(self.answer(page, lambda: page.click("#count")), "COUNTED")
        self.assertEqual(text_of(page, "status"), "4 completions.")

    def test_a_large_board_from_a_file_is_summarized_and_completed(self):
        path = self.write("large.txt", b"# a sparse board\n100\n1 1\n2 3\n")
        page = self.open_page()
        page.set_files("#file", [path])
        page.wait_for("!document.getElementById('summary').hidden", "the summary")
        self.assertEqual(text_of(page, "summary-n"), "100")
        self.assertEqual(text_of(page, "summary-queens"), "2")
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_SOLVED")
        rows = text_of(page, "summary-rows").split()
        self.assertEqual(rows[:2], ["1", "3"])
        board = self.write("large-solution.q",
                           self.download(page, "download-board", "board.q"))
        self.assertEqual(self.validate_with_cli(board)["complete"], True)
        with open(board) as solution:
            columns = solution.read().split()
        self.assertEqual(columns[:len(rows) - 1], rows[:-1])  # the summary ends with "…"

    def test_board_files_are_read_as_the_cli_reads_them(self):
        """Each file chosen on the page: the composition it loads (by the
        link it makes), or the error it shows, which must be the CLI's."""
        binary = struct.pack("<4I", 2, 4, 1, 3)
        cases = [
            ("q.txt", b"0 3\n0 0  # a comment\n", "#n=4&q=2.3"),
            ("bom.txt", b"\xef\xbb\xbf2 4 1 3\n", "#n=4&q=1.2,2.4,3.1,4.3"),
            ("dots.txt", b". Q . .\n. . . .\n. . . .\n. . . .\n", "#n=4&q=1.2"),
            ("ones.txt", b"0100\n0000\n0000\n0000\n", "#n=4&q=1.2"),
            ("sparse.txt", b"5\n\n4 2\n1 1\n", "#n=5&q=1.1,4.2"),
            ("board.bin", binary, "#n=4&q=1.2,2.4,3.1,4.3"),
            ("nul.dat", binary, "#n=4&q=1.2,2.4,3.1,4.3"),
            # Not sparse: the second line is not a pair, so a Q array.
            ("pair.txt", b"4\n1 2 3\n", "#n=4&q=1.4,2.1,3.2,4.3"),
            ("repeated.txt", b"4\n1 1\n1 3\n", None),
            ("short.txt", b"..Q.\n.Q\n", None),
            ("two.txt", b"Q Q\n. .\n", None),
            ("cell.txt", b".x..\n....\n....\n....\n", None),
            ("rows.txt", b".Q\n..\n..\n", None),
            ("few.txt", b".Q\n", None),
            ("large.txt", b"1 5 0\n", None),
            ("word.txt", b"1 x 3\n", None),
            ("empty.txt", b"# nothing\n", None),
            ("range.txt", b"4\n5 1\n", None),
            ("late.txt", b"4\n2 1\n2 3\n9 9\n", None),
            ("twice.txt", b"4\n3 1\n3 2\n1 1\n1 4\n", None),
            ("zero.txt", b"0\n", None),
            ("odd.bin", b"\x01\x00\x00\x00\x00\x00", None),
            ("wide.bin", struct.pack("<2I", 1, 3), None),
        ]
        page = self.open_page()
        for name, content, link in cases:
            with self.subTest(name):
                path = self.write(name, content)
                cli = subprocess.run([OPTIONS.client, "--local", "--quiet", "validate", name],
                                     capture_output=True, text=True, timeout=60,
                                     cwd=self.scratch)
                page.set_files("#file", [path])
                # The file's name starts what the page says of it.
                shown = page.wait_for(f"""(() => {{
                      const status = document.getElementById('status').textContent;
                      const message = document.getElementById('message').textContent;
                      return status.startsWith('Loaded {name}:') ? location.hash
                        : message.startsWith('{name}:') ? message : null;
                    }})()""", f"{name} to be loaded or refused")
                if link is None:
                    self.assertEqual(cli.returncode, 2, cli.stderr)
                    self.assertEqual(f"nqueens: {shown}", cli.stderr.strip())
                else:
                    self.assertIn(cli.returncode, (0, 1), cli.stderr)
                    self.assertEqual(shown, link)

    def test_solve_says_it_clears_placed_queens_and_the_link_follows(self):
        page = self.open_page()
        note = element("solve-note")
        self.assertEqual(text_of(page, "solve"), "Solve")
        self.assertTrue(page.evaluate(f"{note}.hidden"))
        self.place(page, {2: 5, 4: 6})
        self.assertEqual(text_of(page, "solve"), "Clear 2 queens and solve")
        self.assertFalse(page.evaluate(f"{note}.hidden"))
        self.assertIn("Complete keeps them", page.evaluate(f"{note}.textContent"))
        self.assertEqual(self.answer(page, lambda: page.click("#solve")), "OUTCOME_SOLVED")
        self.check_completion(8, drawn_queens(page), {})  # every queen the server's
        # The link holds the board that was solved: the empty one.
        self.assertEqual(page.evaluate("location.hash"), "#n=8")
        self.assertEqual(page.evaluate(f"{element('share-url')}.value"),
                         page.evaluate("location.href"))
        self.assertEqual(text_of(page, "solve"), "Solve")

    def test_a_failed_load_shows_only_its_error(self):
        page = self.open_page()
        bad = self.write("bad.txt", b"1 x 3\n")
        page.set_files("#file", [self.write("good.txt", b"2 0 0 0\n")])
        page.wait_for(f"{element('status')}.textContent.startsWith('Loaded good.txt:')",
                      "good.txt to be loaded")
        page.set_files("#file", [bad])
        page.wait_for(f"{element('message')}.textContent.startsWith('bad.txt:')",
                      "bad.txt to be refused")
        self.assertEqual(text_of(page, "status"), "")
        self.assertEqual(page.evaluate("location.hash"), "#n=4&q=1.2")  # the board stays
        # Nor does a call's answer stay beside the error.
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_SOLVED")
        page.set_files("#file", [bad])
        page.wait_for(f"{element('message')}.textContent.startsWith('bad.txt:')",
                      "bad.txt to be refused again")
        for element_id in ("status", "details", "downloads"):
            self.assertEqual(text_of(page, element_id), "", element_id)
        self.assertEqual(drawn_queens(page), {(1, 2): "given"})

    def test_search_limits_reach_the_server(self):
        page = self.open_page()
        self.set_n(page, 4)
        self.place(page, UNSOLVABLE_4)
        page.evaluate(f"{element('complete-method')}.value = 'COMPLETE_METHOD_EXACT'")
        self.fill(page, "max-exact-nodes", "1")
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_UNDECIDED")
        details = text_of(page, "details")
        self.assertIn(" exact_nodes=1 ", details)
        self.assertIn("The exact search stopped after 1 nodes", details)
        self.fill(page, "max-exact-nodes", "")
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_UNSOLVABLE")
        # Solve's too: backtracking stops at its node limit.
        self.fill(page, "max-exact-nodes", "1")
        page.evaluate(f"{element('solve-method')}.value = 'METHOD_BACKTRACKING'")
        self.assertEqual(self.answer(page, lambda: page.click("#solve")), "OUTCOME_UNDECIDED")
        self.assertRegex(text_of(page, "details"), r" search_nodes=1\b")

    def test_a_bad_number_is_refused_naming_its_field(self):
        page = self.open_page()
        cases = [
            ("max-backtracks", "-1", "#complete", "Backtracks: limits.max_backtracks must be "
             "a whole number from 0 to 18446744073709551615"),
            ("max-restarts", "4294967296", "#solve",
             "Restarts: limits.max_restarts must be a whole number from 0 to 4294967295"),
            ("max-exact-nodes", "18446744073709551616", "#complete", "Exact nodes: "
             "limits.max_exact_nodes must be a whole number from 0 to 18446744073709551615"),
            ("max-exact-seconds", "-0.5", "#complete",
             "Exact seconds: limits.max_exact_seconds must be a number of seconds, 0 or more"),
            ("enumerate-limit", "ten", "#enumerate",
             "Boards to list (0: all): limit must be a whole number from 0 to "
             "18446744073709551615"),
        ]
        for field_id, text, button, message in cases:
            with self.subTest(field_id):
                self.assertEqual(self.answer(page, lambda: page.click("#solve")), "OUTCOME_SOLVED")
                self.fill(page, field_id, text)
                self.assertEqual(self.answer(page, lambda: page.click(button)), "ERROR")
                self.assertEqual(text_of(page, "status"), f'Error: {message}, not "{text}".')
                self.assertEqual(drawn_queens(page), {})  # the last answer's board went too
                self.assertEqual(page.evaluate(f"{element(field_id)}.ariaInvalid"), "true")
                self.assertEqual(page.evaluate("document.activeElement.id"), field_id)
                self.fill(page, field_id, "")
        # Filled in right, the fields are sent and the marks go.
        self.fill(page, "max-exact-seconds", "0.5")
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "OUTCOME_SOLVED")
        self.assertEqual(page.evaluate("document.querySelectorAll('[aria-invalid]').length"), 0)

    def step_through(self, page: cdp.Page, n: int, given: Dict[int, int]) -> list:
        """The columns of every board Enumerate listed, stepped through with
        the Next button, each checked by the CLI's validator."""
        count = int(re.match(r"Board 1 of (\d+)$", text_of(page, "board-index")).group(1))
        boards = []
        for index in range(1, count + 1):
            page.wait_for(f"{element('board-index')}.textContent === 'Board {index} of {count}'",
                          f"board {index}")
            self.assertEqual(page.evaluate(f"{element('previous-board')}.disabled"), index == 1)
            self.assertEqual(page.evaluate(f"{element('next-board')}.disabled"), index == count)
            boards.append(self.check_completion(n, drawn_queens(page), given))
            if index < count:
                page.click("#next-board")
        return boards

    def test_enumerate_lists_every_board_one_at_a_time(self):
        expected = solutions(6)
        self.assertEqual(len(expected), 4)
        page = self.open_page()
        self.set_n(page, 6)
        self.fill(page, "enumerate-limit", "0")
        self.assertEqual(self.answer(page, lambda: page.click("#enumerate")), "LISTED")
        self.assertEqual(text_of(page, "status"), "4 solutions, all there are.")
        self.assertEqual(sorted(self.step_through(page, 6, {})), sorted(expected))
        page.click("#previous-board")
        page.wait_for(f"{element('board-index')}.textContent === 'Board 3 of 4'", "board 3")

    def test_enumerate_stops_at_its_limit_and_keeps_the_queens(self):
        given = {1: 1}
        expected = [columns for columns in solutions(8) if columns[0] == 1]
        page = self.open_page()
        self.place(page, given)
        self.fill(page, "enumerate-limit", "2")
        self.assertEqual(self.answer(page, lambda: page.click("#enumerate")), "LISTED")
        self.assertEqual(text_of(page, "status"), "The first 2 completions (the limit).")
        boards = self.step_through(page, 8, given)
        self.assertEqual(len(boards), 2)
        self.assertNotEqual(boards[0], boards[1])
        for board in boards:
            self.assertIn(board, expected)
        self.fill(page, "enumerate-limit", "")
        self.assertEqual(self.answer(page, lambda: page.click("#enumerate")), "LISTED")
        self.assertEqual(text_of(page, "status"), f"{len(expected)} completions, all there are.")

    def test_cancel_ends_a_long_call(self):
        page = self.open_page()
        self.set_n(page, 20)  # counting its solutions takes minutes
        self.assertTrue(page.evaluate(f"{element('cancel')}.disabled"))
        page.click("#count")
        page.wait_for(f"!{element('cancel')}.disabled", "the call to start")
        # Cancelled once the server has it, so that the server's side is seen.
        wait_for_a_call_in_flight(self.server)
        # The board does not change under a call.
        page.click(cell(1, 1))
        self.assertIn("cancel the call", text_of(page, "message"))
        self.assertEqual(drawn_queens(page), {})
        self.assertEqual(self.answer(page, lambda: page.click("#cancel")), "CANCELLED")
        self.assertEqual(text_of(page, "status"),
                         "Cancelled: the call was stopped before its answer.")
        self.assertEqual(text_of(page, "message"), "")
        self.assertTrue(page.evaluate(f"{element('cancel')}.disabled"))
        # The server stopped the call: the page's closed connection cancelled it.
        wait_for_log(self.server, r"Count .* n=20 .*status=CANCELLED")
        self.assertEqual(self.answer(page, lambda: page.click("#validate")), "VALID")


def main():
    global OPTIONS
    OPTIONS, unittest_args = tools.parse_arguments(
        __doc__.splitlines()[0],
        ("--screenshot", "write a PNG of the page after a completion here"))
    unittest.main(argv=[sys.argv[0]] + unittest_args)


if __name__ == "__main__":
    main()

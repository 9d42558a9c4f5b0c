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
import json
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Callable, Dict, Optional

import cdp
import tools

OPTIONS = None  # the parsed command line

CHROMIUM = "/usr/bin/chromium"
STARTUP_SECONDS = 30
CALL_SECONDS = 60  # the longest the page may take to show an answer

# A composition of 4-queens without completion (the CLI confirms it in
# test_an_unsolvable_composition_comes_with_a_certificate_that_checks).
UNSOLVABLE_4 = {1: 1}


def chromium() -> str:
    """Chromium's path, installing Debian's package when it is missing and
    this runs as root; skips the cases otherwise."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.geteuid() != 0:
        reason = f"{CHROMIUM} is missing and only root may install it (apt-get install chromium)"
        print(f"skipping the playground's browser cases: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "chromium"]
    if subprocess.run(install, env=environment, timeout=1800).returncode != 0:
        # The package lists may be missing or stale.
        subprocess.run(["apt-get", "update"], env=environment, check=True, timeout=600)
        subprocess.run(install, env=environment, check=True, timeout=1800)
    return CHROMIUM


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

# The colours of the CLI's pictures (client/picture.cc), by data-state.
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


class PlaygroundTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        executable = chromium()
        scratch = tempfile.TemporaryDirectory(prefix="playground-test-")
        cls.addClassCleanup(scratch.cleanup)
        cls.scratch = scratch.name
        cls.downloads = os.path.join(cls.scratch, "downloads")
        cls.server = Server()
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

    def check_completion(self, n: int, queens: Dict[tuple, str], given: Dict[int, int]) -> None:
        """`queens` (drawn, by cell) is a full solution that keeps every
        queen of `given`, drawn as given; the others are drawn as placed."""
        for row, col in given.items():
            self.assertEqual(queens.get((row, col)), "given", f"row {row}, column {col}")
        self.assertEqual([state for (row, col), state in queens.items() if row not in given],
                         ["placed"] * (n - len(given)))
        columns = [0] * n
        for row, col in queens:
            columns[row - 1] = col
        path = self.write("drawn.q", " ".join(map(str, columns)).encode() + b"\n")
        self.assertEqual(self.validate_with_cli(path)["complete"], True, columns)

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
        self.assertEqual(outcome, "SOLVED", text_of(page, "details"))
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
        self.assertEqual(outcome, "UNSOLVABLE", text_of(page, "details"))
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
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "UNDECIDED")
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
        self.assertEqual(outcome, "SOLVED", text_of(page, "details"))
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
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "SOLVED")
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
        self.assertEqual(self.answer(page, lambda: page.click("#complete")), "SOLVED")
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


def main():
    global OPTIONS
    OPTIONS, unittest_args = tools.parse_arguments(
        __doc__.splitlines()[0],
        ("--screenshot", "write a PNG of the page after a completion here"))
    unittest.main(argv=[sys.argv[0]] + unittest_args)


if __name__ == "__main__":
    main()

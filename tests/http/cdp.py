"""A small Chrome DevTools Protocol client for tests: headless Chromium
driven over --remote-debugging-pipe, where the browser reads JSON messages
ended by NUL bytes on its fd 3 and writes its own on fd 4. Python 3 standard
library only.

Every wait is bounded: a reply, an event or a condition in the page that
does not come in time raises TimeoutError.
"""
import base64
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Any, Callable, Dict, List, Optional

# What Chromium needs to run headless in a container or as root, and to stay
# off the network and leave no state behind.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-pipe",
]

CHROMIUM = "/usr/bin/chromium"
REPLY_SECONDS = 30  # the longest a command of the protocol may take to answer

# Input.dispatchKeyEvent's fields for the keys the tests press. Keys that
# type a character carry it as `text`, so that the page sees a keypress too
# (Enter on a button clicks it).
KEYS = {
    "Tab": {"key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9},
    "Enter": {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"},
    " ": {"key": " ", "code": "Space", "windowsVirtualKeyCode": 32, "text": " "},
    "ArrowLeft": {"key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37},
    "ArrowUp": {"key": "ArrowUp", "code": "ArrowUp", "windowsVirtualKeyCode": 38},
    "ArrowRight": {"key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39},
    "ArrowDown": {"key": "ArrowDown", "code": "ArrowDown", "windowsVirtualKeyCode": 40},
}


def chromium() -> str:
    """Chromium's path, installing Debian's package when it is missing and
    this runs as root; skips the calling test's cases otherwise."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.geteuid() != 0:
        reason = f"{CHROMIUM} is missing and only root may install it (apt-get install chromium)"
        print(f"skipping the browser cases: {reason}", file=sys.stderr)
        raise unittest.SkipTest(reason)
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "chromium"]
    if subprocess.run(install, env=environment, timeout=1800).returncode != 0:
        # The package lists may be missing or stale.
        subprocess.run(["apt-get", "update"], env=environment, check=True, timeout=600)
        subprocess.run(install, env=environment, check=True, timeout=1800)
    return CHROMIUM


class CdpError(RuntimeError):
    """The browser answered a command with an error, or went away."""


class Browser:
    """A headless Chromium with a fresh profile, and its end of the pipe."""

    def __init__(self, executable: str):
        self._directory = tempfile.TemporaryDirectory(prefix="cdp-")
        self.log_path = os.path.join(self._directory.name, "chromium.log")
        self._buffer = b""
        self._last_id = 0
        self._events: List[dict] = []
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()
        # The browser's ends go to fds 3 and 4 in the child, by dup2 from
        # copies numbered 10 and up (so the two dup2 never overwrite each
        # other's source). The four pipe fds stay open until the child runs:
        # they hold the lowest free numbers, so fds 3 and 4 are in use in this
        # process and the pipe subprocess opens to report a failed exec gets
        # another number, which the dup2 cannot replace.
        child_in = fcntl.fcntl(to_browser, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_browser, fcntl.F_DUPFD_CLOEXEC, 10)

        def use_pipe():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        profile = os.path.join(self._directory.name, "profile")
        try:
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [executable, *FLAGS, f"--user-data-dir={profile}"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    pass_fds=(3, 4), preexec_fn=use_pipe)
        finally:
            for fd in (to_browser, from_browser, child_in, child_out):
                os.close(fd)
        try:
            self.send("Browser.getVersion")  # its answer says the browser is up
        except BaseException:
            self.close()
            raise

    def log(self) -> str:
        """What Chromium printed, for failure messages."""
        with open(self.log_path, errors="replace") as log:
            return log.read()[-4000:]

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("Chromium sent nothing in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise CdpError(f"Chromium closed its pipe; its log:\n{self.log()}")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method: str, params: Optional[dict] = None,
             session_id: Optional[str] = None, timeout: float = REPLY_SECONDS) -> dict:
        """Runs one command and returns its result; events that come in the
        meantime are kept for wait_event."""
        self._last_id += 1
        message: Dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data):]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def wait_event(self, method: str, predicate: Callable[[dict], bool] = lambda params: True,
                   session_id: Optional[str] = None, timeout: float = REPLY_SECONDS) -> dict:
        """The params of the first event `method` (of `session_id`; None: a
        browser-wide event) that satisfies `predicate`; it and the events
        before it are dropped."""
        deadline = time.monotonic() + timeout
        index = 0
        while True:
            while index < len(self._events):
                event = self._events[index]
                index += 1
                if (event["method"] == method and event.get("sessionId") == session_id
                        and predicate(event.get("params", {}))):
                    del self._events[:index]
                    return event.get("params", {})
            try:
                self._events.append(self._read_message(deadline))
            except TimeoutError:
                raise TimeoutError(f"no {method} event within {timeout} s") from None

    def close(self) -> None:
        """Asks the browser to exit; kills it if it has not within 10 s."""
        try:
            self.send("Browser.close", timeout=10)
        except (CdpError, TimeoutError, OSError):
            pass  # it may exit before it answers
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._directory.cleanup()


class Page:
    """A tab of `browser`, with a fixed viewport."""

    def __init__(self, browser: Browser, width: int = 1200, height: int = 800):
        self.browser = browser
        self.target_id = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session_id = browser.send(
            "Target.attachToTarget", {"targetId": self.target_id, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        # Keyboard focus and :focus-visible behave as in a focused window.
        self.send("Emulation.setFocusEmulationEnabled", {"enabled": True})

    def send(self, method: str, params: Optional[dict] = None,
             timeout: float = REPLY_SECONDS) -> dict:
        return self.browser.send(method, params, self.session_id, timeout)

    def navigate(self, url: str, timeout: float = REPLY_SECONDS) -> None:
        """Loads `url` and returns once its load event has fired (at once
        when only the fragment changes: the document stays)."""
        result = self.send("Page.navigate", {"url": url})
        if "errorText" in result:
            raise CdpError(f"cannot load {url}: {result['errorText']}")
        if "loaderId" in result:
            self.browser.wait_event("Page.loadEventFired", session_id=self.session_id,
                                    timeout=timeout)

    def evaluate(self, expression: str, timeout: float = REPLY_SECONDS) -> Any:
        """The value of a JavaScript expression (awaited when a promise)."""
        result = self.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
        }, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"{expression[:200]!r} threw: {text}")
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str, timeout: float = REPLY_SECONDS) -> Any:
        """The first truthy value of `expression`, polled in the page every
        20 ms; TimeoutError naming `what` after `timeout` seconds."""
        value = self.evaluate(f"""new Promise((resolve) => {{
          const deadline = performance.now() + {timeout * 1000};
          const poll = () => {{
            const value = ({expression});
            if (value || performance.now() > deadline) resolve(value || null);
            else setTimeout(poll, 20);
          }};
          poll();
        }})""", timeout + REPLY_SECONDS)
        if value is None:
            raise TimeoutError(f"waited {timeout} s for {what}")
        return value

    def click(self, selector: str) -> None:
        """A real left click (mouse moved, pressed, released) at the middle
        of the element `selector` names, scrolled into view; fails when
        another element covers that point."""
        point = self.evaluate(f"""(() => {{
          const element = document.querySelector({json.dumps(selector)});
          if (!element) return "missing";
          element.scrollIntoView({{block: "center", inline: "center"}});
          const box = element.getBoundingClientRect();
          const x = box.left + box.width / 2, y = box.top + box.height / 2;
          const hit = document.elementFromPoint(x, y);
          return hit && (hit === element || element.contains(hit)) ? [x, y] : "covered";
        }})()""")
        if not isinstance(point, list):
            raise CdpError(f"cannot click {selector}: {point}")
        x, y = point
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def press(self, key: str) -> None:
        """A key pressed and released (one of KEYS)."""
        fields = KEYS[key]
        self.send("Input.dispatchKeyEvent",
                  {"type": "keyDown" if "text" in fields else "rawKeyDown", **fields})
        self.send("Input.dispatchKeyEvent",
                  {"type": "keyUp", **{k: v for k, v in fields.items() if k != "text"}})

    def insert_text(self, text: str) -> None:
        """Text typed into the focused field."""
        self.send("Input.insertText", {"text": text})

    def set_files(self, selector: str, paths: List[str]) -> None:
        """Chooses files in the file input `selector`, as the file dialog would."""
        document = self.send("DOM.getDocument")["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": document, "selector": selector})["nodeId"]
        self.send("DOM.setFileInputFiles", {"files": paths, "nodeId": node})

    def screenshot(self, path: str) -> None:
        """The viewport as a PNG file."""
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as picture:
            picture.write(base64.b64decode(data))

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target_id})

"""cdp.py: a small Chrome DevTools Protocol client over websocket-client.

What the web tests need and no more: serve a folder on 127.0.0.1, start a
headless Chromium, open a page, evaluate JavaScript, send real mouse and key
events, take screenshots. The websocket itself is websocket-client's
(Debian: python3-websocket); this file speaks CDP's JSON over it.

Everything started here is stopped by close() (the classes are context
managers), and every wait has a deadline, so a broken page fails a test
instead of hanging it."""
import base64
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse

import websocket    # websocket-client


class CdpError(RuntimeError):
    pass


# ------------------------------------------------------------ http server

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def log_message(self, fmt, *args):  # the tests print their own lines
        pass


class StaticServer:
    """Serves `root` on 127.0.0.1 on a free port, in a thread."""

    def __init__(self, root):
        handler = functools.partial(_QuietHandler, directory=root)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://127.0.0.1:%d/%s" % (self.port, path.lstrip("/"))

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ------------------------------------------------------------ websocket

def connect(url, timeout):
    """The browser's DevTools websocket. No Origin header: Chromium refuses
    DevTools connections that name an origin it was not told to allow."""
    u = urllib.parse.urlparse(url)
    if u.scheme != "ws" or u.hostname != "127.0.0.1":
        raise CdpError("refusing websocket url %s (only ws://127.0.0.1)" % url)
    try:
        return websocket.create_connection(url, timeout=timeout, suppress_origin=True)
    except (websocket.WebSocketException, OSError) as e:
        raise CdpError("websocket %s: %s" % (url, e))


# ------------------------------------------------------------ browser

def _exception_text(event):
    d = event["params"]["exceptionDetails"]
    return "exception: %s" % d.get("exception", {}).get("description", d.get("text"))


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """A headless Chromium with one page, driven over one websocket.

    WebGL2 comes from SwiftShader (ANGLE's CPU Vulkan), the same on every
    machine, so screenshots do not depend on the GPU."""

    def __init__(self, binary=None, timeout=60.0):
        self.timeout = timeout
        self.binary = binary or find_chromium()
        if not self.binary:
            raise CdpError("no chromium on PATH")
        self.profile = tempfile.mkdtemp(prefix="raypick-chromium-")
        args = [self.binary, "--headless=new", "--no-sandbox", "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + self.profile, "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True)
        self.ws = None
        self.next_id = 0
        self.events = []        # since the last navigate()
        self.exceptions = []    # every uncaught exception of the session's pages
        self.session = None
        try:
            self.ws = connect(self._devtools_url(), timeout)
            self._attach_page()
        except BaseException:
            self.close()
            raise

    def _devtools_url(self):
        # Chromium prints "DevTools listening on ws://..." on stderr; read it
        # in a thread so a silent browser cannot block us past the deadline.
        found = {}
        done = threading.Event()

        def reader():
            for raw in self.proc.stderr:
                m = re.search(rb"DevTools listening on (ws://\S+)", raw)
                if m:
                    found["url"] = m.group(1).decode()
                    done.set()
                    break
            done.set()
            for _ in self.proc.stderr:  # keep draining so the browser never blocks on a full pipe
                pass

        threading.Thread(target=reader, daemon=True).start()
        if not done.wait(self.timeout) or "url" not in found:
            raise CdpError("chromium did not start (no DevTools url within %gs)" % self.timeout)
        return found["url"]

    def _attach_page(self):
        targets = self.call("Target.getTargets", session=False)["targetInfos"]
        pages = [t for t in targets if t["type"] == "page"]
        if pages:
            target = pages[0]["targetId"]
        else:
            target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    # -------------------------------------------------------- protocol

    def call(self, method, params=None, session=True, timeout=None):
        """Send one command and wait for its answer; events seen meanwhile are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError("%s: no answer within %gs" % (method, timeout or self.timeout))
            self.ws.settimeout(left)
            try:
                reply = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                raise CdpError("%s: no answer within %gs" % (method, timeout or self.timeout))
            except websocket.WebSocketConnectionClosedException:
                raise CdpError("%s: the browser closed the connection" % method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CdpError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)
                if reply["method"] == "Runtime.exceptionThrown":
                    self.exceptions.append(_exception_text(reply))

    def evaluate(self, expression, timeout=None):
        """The value of a JavaScript expression (promises awaited)."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in r:
            raise CdpError("javascript: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=None, interval=0.1):
        """Poll until the expression is truthy; returns its value."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CdpError("timed out after %gs waiting for: %s" % (timeout or self.timeout, expression))
            time.sleep(interval)

    def console_messages(self):
        """Console lines and uncaught exceptions seen so far."""
        out = []
        for e in self.events:
            if e["method"] == "Runtime.consoleAPICalled":
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append(_exception_text(e))
        return out

    # -------------------------------------------------------- page

    def set_viewport(self, width, height, scale=1.0):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})

    def navigate(self, url):
        self.events = []
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'")

    def click(self, x, y, button="left"):
        """A real mouse click: move, press, release, as a user's mouse sends them."""
        base = {"x": x, "y": y, "button": button, "buttons": 0, "clickCount": 1}
        self.call("Input.dispatchMouseEvent", dict(base, type="mouseMoved", button="none"))
        self.call("Input.dispatchMouseEvent", dict(base, type="mousePressed", buttons=1))
        self.call("Input.dispatchMouseEvent", dict(base, type="mouseReleased"))

    def key(self, char):
        """A real key press of a printable character."""
        code = "Key" + char.upper() if char.isalpha() else ("Digit" + char if char.isdigit() else "")
        base = {"key": char, "code": code, "windowsVirtualKeyCode": ord(char.upper()),
                "nativeVirtualKeyCode": ord(char.upper())}
        self.call("Input.dispatchKeyEvent", dict(base, type="keyDown", text=char))
        self.call("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def choose_files(self, expression, paths):
        """Puts files into an <input type=file> as the user's file dialog
        would (DOM.setFileInputFiles): the page gets its change event."""
        r = self.call("Runtime.evaluate", {"expression": expression})
        node = r.get("result", {}).get("objectId")
        if not node:
            raise CdpError("%s: no element" % expression)
        self.call("DOM.setFileInputFiles", {"files": [os.path.abspath(p) for p in paths], "objectId": node})

    def screenshot(self):
        """The page as PNG bytes."""
        r = self.call("Page.captureScreenshot", {"format": "png"})
        return base64.b64decode(r["data"])

    # -------------------------------------------------------- shutdown

    def close(self):
        if self.ws:
            try:
                self.ws.settimeout(5)
                self.ws.send(json.dumps({"id": 10 ** 6, "method": "Browser.close"}))
            except (OSError, websocket.WebSocketException):
                pass
            self.ws.close()
            self.ws = None
        if self.proc and self.proc.poll() is None:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, 9)
                except OSError:
                    pass
                self.proc.wait(5)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

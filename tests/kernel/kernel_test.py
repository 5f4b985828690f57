#!/usr/bin/env python3
"""tessel-kernel driven by a real Jupyter client (jupyter_client, Debian python3-jupyter-client):
each message type of docs/notebook.md, interrupts, badly signed and malformed messages, shutdown.
Exits 77 (skipped) where jupyter_client is missing.

usage: kernel_test.py path/to/tessel-kernel path/to/tessel
"""
import json
import os
import queue
import sys
import tempfile
import time

try:
    import jupyter_client
    from jupyter_client.manager import start_new_kernel
    from jupyter_client.session import Session
except ImportError:
    print("skipped: jupyter_client is not installed (Debian: python3-jupyter-client)")
    sys.exit(77)

KERNEL = os.path.realpath(sys.argv[1])
TESSEL = sys.argv[2]
TIMEOUT = 30
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checklist import check, finish  # noqa: E402


def run(kc, code):
    """Executes `code`; returns (reply content, [(msg_type, content)] published for it).
    stop_on_error is off: with it, a request that arrives while an error reply is being sent is
    aborted (the protocol's rule, which xeus follows), and a quick next cell would race it."""
    msg_id = kc.execute(code, stop_on_error=False)
    outputs = []
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            break
        if kind in ("stream", "execute_result", "display_data", "update_display_data", "error"):
            outputs.append((kind, msg["content"]))
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["parent_header"]["msg_id"] == msg_id
    return reply["content"], outputs


def result_text(outputs):
    return [c["data"]["text/plain"] for k, c in outputs if k == "execute_result"]


def stream_text(outputs, name="stdout"):
    return "".join(c["text"] for k, c in outputs if k == "stream" and c["name"] == name)


def png_decodes(png):
    """Whether every chunk's CRC matches and the pixels inflate to 64 rows of RGBA."""
    import struct
    import zlib
    i, pixels = 8, b""
    while i < len(png):
        (n,) = struct.unpack(">I", png[i:i + 4])
        kind, body = png[i + 4:i + 8], png[i + 8:i + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", png[i + 8 + n:i + 12 + n])[0]:
            return False
        if kind == b"IDAT":
            pixels += body
        i += 12 + n
    return len(zlib.decompress(pixels)) == 64 * (1 + 64 * 4)


def test_install(data_dir):
    import subprocess
    with tempfile.TemporaryDirectory() as prefix:
        out = subprocess.run([KERNEL, "install", "--prefix", prefix], capture_output=True,
                             text=True)
        check(out.returncode == 0 and os.path.isfile(
            os.path.join(prefix, "share/jupyter/kernels/tessel/kernel.json")),
            "tessel-kernel install --prefix writes PREFIX/share/jupyter/kernels/tessel")
    out = subprocess.run([TESSEL, "jupyter", "install", "--user"], capture_output=True, text=True,
                         env=dict(os.environ, JUPYTER_DATA_DIR=data_dir))
    check(out.returncode == 0, "tessel jupyter install --user succeeds: " + out.stderr)
    spec_dir = os.path.join(data_dir, "kernels", "tessel")
    with open(os.path.join(spec_dir, "kernel.json")) as f:
        spec = json.load(f)
    check(spec["argv"] == [KERNEL, "-f", "{connection_file}"], "kernel.json runs this kernel")
    check(spec["language"] == "tessel", "kernel.json language")
    with open(os.path.join(spec_dir, "logo-64x64.png"), "rb") as f:
        png = f.read()
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and png[16:24] == b"\0\0\0\x40\0\0\0\x40",
          "logo-64x64.png is a 64x64 PNG")
    check(png_decodes(png), "logo-64x64.png's chunks and pixels decode")
    ksm = jupyter_client.kernelspec.KernelSpecManager()
    check(ksm.get_kernel_spec("tessel").resource_dir == spec_dir,
          "jupyter_client finds the kernelspec")


def test_kernel_info(kc):
    info = kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]
    lang = info["language_info"]
    check(info["status"] == "ok", "kernel_info status ok")
    check(lang["name"] == "tessel" and lang["file_extension"] == ".dsl",
          "language_info: tessel, .dsl")
    check(bool(lang.get("codemirror_mode")) and bool(lang.get("mimetype")),
          "language_info has a codemirror mode and a mimetype")


def test_execute(kc):
    reply, out = run(kc, "let x = 1 + 2\nx")
    check(reply["status"] == "ok" and result_text(out) == ["3"], "last expression is the result")
    reply, out = run(kc, 'print("hello", x)\nlet y = x * 2')
    check(stream_text(out) == "hello 3\n", "print goes to the stdout stream")
    check(result_text(out) == [], "a let statement has no result")
    reply, out = run(kc, 'print("oops", file = stderr)')
    check(stream_text(out, "stderr") == "oops\n", "print(file = stderr) goes to stderr")
    reply, out = run(kc, "y")
    check(result_text(out) == ["6"], "state persists across cells")
    reply, out = run(kc, "let l = mse_loss(ones([3, 1]), ones([3]))")
    check("warning" in stream_text(out, "stderr") and "<cell" in stream_text(out, "stderr"),
          "a warning written to the process's stderr during a cell shows in the cell")
    reply, out = run(kc, "ones([2, 3])")
    results = [c["data"] for k, c in out if k == "execute_result"]
    html = results[0].get("text/html", "") if results else ""
    check(results and results[0]["text/plain"].startswith("tensor([[1., 1., 1.]"),
          "a tensor's text/plain is its repr")
    check("shape [2, 3]" in html and "f32" in html and "cpu" in html
          and html.count("<td>1.</td>") == 6,
          "a tensor's text/html has shape, dtype, device and a table")
    reply, out = run(kc, "arange(5000)")
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check(html.count("<td>&hellip;</td>") == 1 and html.count("<td>") == 7,
          "a large tensor's table is summarized: 3 + ... + 3")
    reply, out = run(kc, 'nonzero((arange(25).reshape([5, 5]) % 3 == 0).to("tpu"))')
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check("shape [&lt;=25, 2] &middot; i32 &middot; tpu" in html and html.count("<tr>") == 10,
          "a bounded size shows as <=N in the header, the real rows in the table")
    reply, out = run(kc, "zeros([0, 3])")
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check("shape [0, 3]" in html and "no elements" in html, "an empty tensor says so")
    reply, out = run(kc, "arange(3) > 0")
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check("bool" in html and "<td>false</td><td>true</td><td>true</td>" in html,
          "a bool tensor's cells read true and false")
    reply, out = run(kc, "tensor(2.5)")
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check("shape []" in html and "<pre>2.5000</pre>" in html, "a 0-d tensor shows its value")
    reply, out = run(kc, "ones([2, 2, 2])")
    html = [c["data"] for k, c in out if k == "execute_result"][0]["text/html"]
    check("[1, :, :]" in html and html.count("<td>") == 8, "a 3-d tensor shows one table per block")


def test_errors(kc):
    reply, out = run(kc, "let a = ones([2, 3]) + ones([4])")
    check(reply["status"] == "error" and reply["ename"] == "ShapeError", "error reply: ShapeError")
    check("not broadcastable" in reply["evalue"], "evalue is the message")
    errors = [c for k, c in out if k == "error"]
    trace = "\n".join(errors[0]["traceback"]) if errors else ""
    check("^~~~" in trace and "\x1b[" in trace and "<cell" in trace,
          "traceback has the caret diagnostic in colour")
    reply, out = run(kc, "x")
    check(result_text(out) == ["3"], "state kept after an error")
    reply, out = run(kc, "let = 3")
    check(reply["status"] == "error" and reply["ename"] == "SyntaxError", "syntax error reply")
    reply, out = run(kc, "exit(3)")
    check(reply["status"] == "error", "exit() is an error, not the end of the kernel")


def test_commands(kc):
    reply, out = run(kc, ":type 1.5")
    check(reply["status"] == "ok" and stream_text(out) == "float\n", ":type in a cell")
    reply, out = run(kc, ":time x + 1")
    check(stream_text(out).startswith("4\ntime: "), ":time in a cell: " + stream_text(out))
    reply, out = run(kc, ":nope")
    check("unknown command" in stream_text(out, "stderr"), "an unknown command says so")


def test_bytes_that_are_not_utf8(kc):
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(b"a\xffb")
    try:
        reply, out = run(kc, f'let raw = read_text("{f.name}")\nprint(raw)\nraw')
    finally:
        os.unlink(f.name)
    check(reply["status"] == "ok" and stream_text(out) == "a\ufffdb\n"
          and result_text(out) == ['"a\ufffdb"'],
          "a string that is not UTF-8 is sent with U+FFFD, and answered")


def test_display(kc):
    reply, out = run(kc, 'print("before")\ndisplay(ones([2]))\ndisplay(5)\nprint("after")')
    kinds = [k for k, c in out]
    check(kinds == ["stream", "display_data", "display_data", "stream"],
          "display() publishes display_data in order with prints: " + str(kinds))
    shown = [c["data"] for k, c in out if k == "display_data"]
    check(len(shown) == 2 and "text/html" in shown[0] and shown[1] == {"text/plain": "5"},
          "display_data bundles")


def test_complete_inspect(kc):
    def complete(code, pos=None):
        kc.complete(code, pos)
        return kc.get_shell_msg(timeout=TIMEOUT)["content"]
    c = complete("le")
    check("let" in c["matches"] and c["cursor_start"] == 0 and c["cursor_end"] == 2,
          "complete a keyword")
    run(kc, "let weights = ones([3])\nimport nn")
    c = complete("wei")
    check(c["matches"] == ["weights"], "complete a global")
    c = complete("weights.sh")
    check("shape" in c["matches"] and c["cursor_start"] == 8, "complete a tensor attribute")
    c = complete("math.sq")
    check("sqrt" in c["matches"], "complete a module member")
    run(kc, 'let cfg = {"lr": 0.1, "layers": 2}')
    c = complete('cfg["l')
    check(c["matches"] == ["layers", "lr"] and c["cursor_start"] == 5, "complete a dict key")
    c = complete("1 + weig", 8)
    check(c["matches"] == ["weights"] and c["cursor_start"] == 4, "complete mid-expression")

    c = complete('"é" + wei')  # positions count code points, not bytes
    check(c["matches"] == ["weights"] and c["cursor_start"] == 6 and c["cursor_end"] == 9,
          "cursor positions in code points")

    def inspect(code, pos):
        kc.inspect(code, pos)
        return kc.get_shell_msg(timeout=TIMEOUT)["content"]
    r = inspect("print", 3)
    check(r["found"] and "print(*values" in r["data"]["text/plain"], "inspect a built-in")
    r = inspect("math.sqrt(", 10)
    check(r["found"] and "sqrt" in r["data"]["text/plain"], "inspect the call being written")
    r = inspect("nothing_here", 4)
    check(not r["found"], "inspect an unknown name")


def test_is_complete(kc):
    def is_complete(code):
        kc.is_complete(code)
        return kc.get_shell_msg(timeout=TIMEOUT)["content"]
    r = is_complete("fn f(x) {")
    check(r["status"] == "incomplete" and r["indent"] == "    ", "open brace: incomplete, indented")
    r = is_complete("let a = [1,\n  2,")
    check(r["status"] == "incomplete" and r["indent"] == "  ", "open bracket keeps the indent")
    check(is_complete("1 + 1")["status"] == "complete", "a whole statement is complete")


def test_interrupt(km, kc):
    msg_id = kc.execute("let i = 0\nwhile true { i += 1 }", stop_on_error=False)
    time.sleep(1.0)
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    check(reply["parent_header"]["msg_id"] == msg_id and reply["content"]["status"] == "error"
          and reply["content"]["ename"] == "Interrupted", "SIGINT stops the running cell")
    reply, out = run(kc, "i > 0")
    check(result_text(out) == ["true"], "state kept after an interrupt")
    km.interrupt_kernel()  # while idle: must not stop the next cell
    time.sleep(0.3)
    reply, out = run(kc, "1 + 1")
    check(result_text(out) == ["2"], "an interrupt while idle does not stop the next cell")


def no_reply(kc, what):
    try:
        kc.get_shell_msg(timeout=1.5)
        check(False, what)
    except queue.Empty:
        check(True, what)


def test_progress(kc):
    reply, out = run(kc, 'print("before")\nlet total = 0\n'
                         'for i in progress(range(50), desc = "steps") { total += i }\ntotal')
    check(reply["status"] == "ok" and result_text(out) == ["1225"], "a progress loop runs")
    shown = [c for k, c in out if k == "display_data" and "display_id" in c.get("transient", {})]
    check(len(shown) == 1, f"the bar is one display_data with a display_id ({len(shown)})")
    if not shown:
        return
    bar_id = shown[0]["transient"]["display_id"]
    check("steps:" in shown[0]["data"]["text/plain"] and "0/50" in shown[0]["data"]["text/plain"],
          "it first shows the bar at 0/50: " + shown[0]["data"]["text/plain"])
    updates = [c for k, c in out if k == "update_display_data"]
    check(bool(updates) and all(c["transient"]["display_id"] == bar_id for c in updates),
          "update_display_data messages replace that display")
    check(bool(updates) and "50/50" in updates[-1]["data"]["text/plain"]
          and "100%" in updates[-1]["data"]["text/plain"],
          "the last update is the final count: " + (updates[-1]["data"]["text/plain"]
                                                     if updates else "none"))
    # 50 cheap items take well under 100 ms: the first frame and the last, little between.
    check(len(updates) <= 3, f"updates are rate-limited ({len(updates)} for 50 quick items)")
    kinds = [k for k, _ in out]
    check(kinds.index("stream") < kinds.index("display_data") and "stdout" not in
          [c.get("name") for k, c in out[kinds.index("display_data"):] if k == "stream"],
          "text printed before the bar shows above it; the bar writes no stream lines")
    # 40 items of 10 ms: redrawn while it runs, but at most ten times a second (+ the last).
    reply, out = run(kc, "for i in progress(range(40)) {\n"
                         "  let t0 = now_ms()\n  while now_ms() - t0 < 10 { }\n}")
    updates = [c["data"]["text/plain"] for k, c in out if k == "update_display_data"]
    check(reply["status"] == "ok" and 3 <= len(updates) <= 7 and "40/40" in updates[-1],
          f"a 0.4 s loop is redrawn 3 to 6 times and once at the end ({len(updates)} updates)")
    reply, out = run(kc, "let again = 0\nfor i in progress([1, 2, 3]) { again += i }\nagain")
    ids = {c["transient"]["display_id"] for k, c in out
           if k in ("display_data", "update_display_data")}
    check(len(ids) == 1 and bar_id not in ids, "another loop gets a display of its own")


def error_reply(kc, channel, msg_type, content, ename, evalue, what):
    """Sends a request with `content` as is; checks the error reply on the same channel."""
    sent = kc.session.send(getattr(kc, channel + "_channel").socket, msg_type, content)
    get = kc.get_shell_msg if channel == "shell" else kc.get_control_msg
    try:
        reply = get(timeout=TIMEOUT)
    except queue.Empty:
        return check(False, what + ": no reply")
    c = reply["content"]
    check(reply["parent_header"].get("msg_id") == sent["header"]["msg_id"]
          and reply["msg_type"] == msg_type.replace("_request", "") + "_reply"
          and c.get("status") == "error" and c.get("ename") == ename
          and evalue in c.get("evalue", ""), f"{what}: {reply['msg_type']} {c}")


def test_bad_messages(kc):
    socket = kc.shell_channel.socket
    for key, what in ((b"not-the-key", "badly signed"), (b"", "unsigned")):
        bad = Session(key=key, username="intruder")
        bad.send(socket, "execute_request", {"code": 'print("pwned")', "silent": False})
        no_reply(kc, f"a {what} message is not answered")
    socket.send_multipart([b"<IDS|MSG>", b"garbage", b"{", b"}", b"", b""])
    no_reply(kc, "a message of garbage frames is not answered")
    frames = [b"{not json", b"{}", b"{}", b"{}"]
    socket.send_multipart([b"<IDS|MSG>", kc.session.sign(frames)] + frames)
    no_reply(kc, "a signed message whose header is not JSON is not answered")
    error_reply(kc, "shell", "execute_request", {"code": 5}, "BadRequest",
                "content.code must be a string, not number (5)",
                "an execute_request whose code is a number is an error reply")
    error_reply(kc, "shell", "execute_request", {"silent": False}, "BadRequest",
                "content.code is missing", "an execute_request without code is an error reply")
    error_reply(kc, "shell", "complete_request", {"code": "x", "cursor_pos": "1"}, "BadRequest",
                "content.cursor_pos must be an integer", "a complete_request with a bad cursor")
    error_reply(kc, "shell", "frobnicate_request", {}, "UnknownMessageType",
                "unknown message type 'frobnicate_request'", "an unknown request type")
    error_reply(kc, "control", "shutdown_request", {"restart": "yes"}, "BadRequest",
                "content.restart must be a boolean",
                "a bad shutdown_request is answered on control, and shuts nothing down")
    reply, out = run(kc, "x")
    check(result_text(out) == ["3"] and "pwned" not in stream_text(out),
          "the kernel still answers, and ran none of them")


def check_log(log_path):
    with open(log_path, errors="replace") as f:
        log = f.read()
    for needle, what in (("Signatures don't match", "a badly signed message"),
                         ("parse error", "a header that is not JSON"),
                         ("bad execute_request on shell: content.code must be a string",
                          "a bad execute_request"),
                         ("bad shutdown_request on control", "a bad control request")):
        check(needle in log, f"the kernel's stderr logs {what}")


def main():
    with tempfile.TemporaryDirectory() as data_dir:
        os.environ["JUPYTER_DATA_DIR"] = data_dir
        os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(data_dir, "runtime")
        test_install(data_dir)
        log_path = os.path.join(data_dir, "kernel.log")
        log = open(log_path, "w")
        km, kc = start_new_kernel(kernel_name="tessel", startup_timeout=TIMEOUT, stderr=log)
        try:
            test_kernel_info(kc)
            test_execute(kc)
            test_errors(kc)
            test_display(kc)
            test_progress(kc)
            test_bytes_that_are_not_utf8(kc)
            test_commands(kc)
            test_complete_inspect(kc)
            test_is_complete(kc)
            test_interrupt(km, kc)
            test_bad_messages(kc)
            kc.shutdown()
            reply = kc.get_shell_msg(timeout=TIMEOUT) if False else None
            deadline = time.time() + TIMEOUT
            while km.is_alive() and time.time() < deadline:
                time.sleep(0.1)
            check(not km.is_alive(), "shutdown_request ends the kernel")
            check(km.provisioner.process.returncode == 0 if km.provisioner else True,
                  "the kernel exits with status 0")
            log.close()
            check_log(log_path)
        finally:
            kc.stop_channels()
            if km.is_alive():
                km.shutdown_kernel(now=True)
    return finish("all kernel")


if __name__ == "__main__":
    sys.exit(main())

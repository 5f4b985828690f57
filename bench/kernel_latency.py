#!/usr/bin/env python3
"""Latency of tessel-kernel as a Jupyter client sees it (docs/perf.md, "Jupyter kernel"):
start-up, an execute round trip, completion, a big tensor's result, and a print loop's streams.

usage: /usr/bin/python3 bench/kernel_latency.py build/kernel/tessel-kernel
(needs Debian's python3-jupyter-client)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from jupyter_client.manager import start_new_kernel

KERNEL = os.path.realpath(sys.argv[1])


def execute(kc, code):
    """Runs `code` until the kernel is idle again; returns (seconds, messages published)."""
    start = time.perf_counter()
    msg_id = kc.execute(code, stop_on_error=False)
    published = []
    while True:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
        published.append(msg)
    kc.get_shell_msg(timeout=60)
    return time.perf_counter() - start, published


def timed(label, runs, fn):
    times = sorted(fn() for _ in range(runs))
    print(f"{label:<44} median {statistics.median(times) * 1e3:7.2f} ms   "
          f"p90 {times[int(len(times) * 0.9)] * 1e3:7.2f} ms   ({runs} runs)")


def main():
    with tempfile.TemporaryDirectory() as data:
        os.environ["JUPYTER_DATA_DIR"] = data
        subprocess.run([KERNEL, "install", "--user"], check=True, stdout=subprocess.DEVNULL)
        starts = []
        for _ in range(5):
            start = time.perf_counter()
            km, kc = start_new_kernel(kernel_name="tessel")
            starts.append(time.perf_counter() - start)
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        print(f"{'start to first kernel_info reply':<44} median "
              f"{statistics.median(starts) * 1e3:7.2f} ms   (5 starts)")
        km, kc = start_new_kernel(kernel_name="tessel")
        try:
            execute(kc, "let x = ones([1000, 1000])")
            timed("execute `1 + 1` (request to idle)", 300, lambda: execute(kc, "1 + 1")[0])

            def complete():
                start = time.perf_counter()
                kc.complete("pri")
                kc.get_shell_msg(timeout=60)
                return time.perf_counter() - start
            timed("complete_request `pri`", 300, complete)
            timed("result `x` (1000x1000, text + HTML)", 30, lambda: execute(kc, "x")[0])
            seconds, published = execute(kc, "for i in range(10000) { print(i) }")
            streams = [m for m in published if m["msg_type"] == "stream"]
            text = "".join(m["content"]["text"] for m in streams)
            assert text.count("\n") == 10000
            print(f"{'10000 prints in one cell':<44} {seconds * 1e3:7.1f} ms, "
                  f"{len(streams)} stream messages")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()

"""Reads a Tessel structured trace (TESSEL_TRACE) and prints one line per compile: its op count
(fused kernels counted by the ops they hold), graph nodes and compile times. Used by run.sh."""
import json
import re
import sys

graphs, ends = {}, {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] == "graph":
        ops = 0
        for name in e["ops"]:
            m = re.match(r"fused\[(\d+)\]", name)
            ops += int(m.group(1)) if m else 1
        graphs[e["id"]] = (ops, e["nodes"])
    elif e["event"] == "compile_end":
        ends[e["id"]] = e
for cid, e in ends.items():
    ops, nodes = graphs[cid]
    print(f'{cid} ops {ops} nodes {nodes} compile_ms {e["compile_ms"]:.2f} trace_ms {e["trace_ms"]:.2f} '
          f'solver_ms {e["solver_ms"]:.2f} codegen_ms {e["codegen_ms"]:.2f}')

#!/usr/bin/env python3
"""The doc test: runs the examples of README.md and docs/*.md and fails when they drift.

Every fenced block must say what it is (its info string):
  tessel          Tessel code. It runs as a script (cwd: the repository root, a fresh
                  TESSEL_CACHE_DIR, so PGO starts empty). Its `# -> VALUE` comments, in order,
                  are its whole output, one line each; `# -> error: TEXT` says the script then
                  fails with TEXT in its diagnostic. A `text` block right after it is its whole
                  output instead (`...` on a line of its own stands for any lines).
  tessel no-run   Tessel code that cannot run here as it stands (a fragment that needs a model,
                  a benchmark of minutes): checked to parse, by running it inside `if false`.
  console         A shell session: each `$ ` line is a command, the lines after it its output
                  (`...` as above). Commands that start with `tessel` or `build/repl/tessel`
                  run (with this build's binary); `$ tessel` alone with `>>> `/`... ` lines
                  after it is a REPL session fed those lines.
  text            output (of the block before it, or shown for reading); not run.
  sh              commands. A `tessel` command whose scripts exist runs here and must succeed
                  (docs/perf.md's are benchmarks of minutes and are left to bench/run_all.sh);
                  the rest (installs, builds, mpirun) are run by CI, `ctest -L embed`, `-L dist`.
  cpp, cmake      code of other tools, built by `ctest -L embed`.
A fence without an info string fails the test, so no Tessel example can hide from it.

usage: doc_test.py TESSEL_BINARY SOURCE_ROOT [FILE.md ...]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

KINDS = {"tessel", "tessel no-run", "console", "text", "sh", "cpp", "cmake"}


def blocks(path):
    """(line, info, lines) of each fenced block of a markdown file."""
    out, info, start, body = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                if info is None:
                    info, start, body = line[3:].strip(), n, []
                else:
                    out.append((start, info, body))
                    info = None
            elif info is not None:
                body.append(line)
    return out


def matches(expected, actual):
    """Whether the actual lines fit the expected ones, where a `...` line is any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0].rstrip() == actual[0].rstrip() and matches(
        expected[1:], actual[1:])


class Runner:
    def __init__(self, tessel, root):
        self.tessel, self.root, self.failures, self.ran = tessel, root, [], 0

    def env(self, cache):
        env = dict(os.environ)
        env["TESSEL_CACHE_DIR"] = cache
        env.setdefault("XDG_RUNTIME_DIR", "/tmp")
        env.pop("TESSEL_DEVICE", None)
        return env

    def run(self, args, stdin=None):
        with tempfile.TemporaryDirectory() as cache:
            p = subprocess.run(args, cwd=self.root, env=self.env(cache), input=stdin,
                               capture_output=True, text=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    def script(self, where, code, output_block):
        arrows = [re.search(r"# -> (.*)$", l) for l in code]
        expected = [m.group(1) for m in arrows if m]
        error = None
        if expected and expected[-1].startswith("error: "):
            error = expected.pop()[len("error: "):]
        with tempfile.NamedTemporaryFile("w", suffix=".dsl", delete=False) as f:
            f.write("\n".join(code) + "\n")
        try:
            rc, out, err = self.run([self.tessel, f.name])
        finally:
            os.unlink(f.name)
        self.ran += 1
        lines = out.splitlines()
        if error is not None:
            if rc == 0 or error not in err:
                self.fail(where, f"expected the error '{error}', got status {rc}:\n{err}")
        elif rc != 0:
            self.fail(where, f"failed with status {rc}:\n{out}{err}")
            return
        if output_block is not None:
            if not matches(output_block, lines):
                self.fail(where, "output differs from the block after it:\n--- shown\n" +
                          "\n".join(output_block) + "\n--- printed\n" + out)
        elif expected and lines != expected:
            self.fail(where, "output differs from its `# ->` comments:\n--- shown\n" +
                      "\n".join(expected) + "\n--- printed\n" + out)

    def parses(self, where, code):
        wrapped = "if false {\n" + "\n".join(code) + "\n}\n"
        rc, out, err = self.run([self.tessel, "-c", wrapped])
        self.ran += 1
        if rc != 0:
            self.fail(where, f"does not parse:\n{err}")

    def commands(self, where, lines):
        for line in lines:
            command = line.split("  #")[0].strip()
            try:
                words = shlex.split(command)
            except ValueError:
                continue
            if not words or words[0] not in ("tessel", "build/repl/tessel"):
                continue
            scripts = [w for w in words[1:] if w.endswith(".dsl")]
            if not scripts or not all(os.path.exists(os.path.join(self.root, w))
                                      for w in scripts):
                continue
            self.ran += 1
            rc, out, err = self.run([self.tessel] + words[1:])
            if rc != 0:
                self.fail(f"{where} `{command}`", f"status {rc}:\n{out}{err}")

    def console(self, where, lines):
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = lines[i][2:]
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ "):
                j += 1
            shown = lines[i + 1:j]
            i = j
            words = shlex.split(command)
            if not words or words[0] not in ("tessel", "build/repl/tessel"):
                continue
            args = [self.tessel] + words[1:]
            self.ran += 1
            if len(words) == 1:  # a REPL session: feed it the input lines, compare the rest
                inputs = [l[4:] for l in shown if l.startswith(">>> ") or l.startswith("... ")]
                # Piped, the REPL shows no banner and no prompts: only the echoed values.
                expected = [l for l in shown if not (l.startswith(">>> ") or
                                                     l.startswith("... ") or
                                                     l.startswith("Tessel REPL."))]
                rc, out, err = self.run(args, stdin="\n".join(inputs) + "\n")
            else:
                expected = shown
                rc, out, err = self.run(args)
            if rc != 0 or not matches(expected, out.splitlines()):
                self.fail(f"{where} `{command}`", f"status {rc}; shown:\n" +
                          "\n".join(expected) + "\n--- printed\n" + out + err)


def main():
    tessel, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    files = sys.argv[3:] or (["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md")))
    runner = Runner(tessel, root)
    for rel in files:
        found = blocks(os.path.join(root, rel))
        for k, (line, info, body) in enumerate(found):
            where = f"{rel}:{line}"
            if info not in KINDS:
                runner.fail(where, f"a fence must say what it holds ({', '.join(sorted(KINDS))}),"
                            f" not '{info}'")
                continue
            after = found[k + 1] if k + 1 < len(found) else None
            # A `text` block that starts right after this one (a blank line between allowed)
            # is its output.
            output = after[2] if after and after[1] == "text" and after[0] - (
                line + len(body) + 1) <= 2 else None
            if info == "tessel":
                runner.script(where, body, output)
            elif info == "tessel no-run":
                runner.parses(where, body)
            elif info == "console":
                runner.console(where, body)
            elif info == "sh" and not rel.endswith("perf.md"):
                runner.commands(where, body)
    for f in runner.failures:
        print("FAIL", f, "\n")
    print(f"doc test: {runner.ran} examples run, {len(runner.failures)} failures")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Mutates the golden scripts and runs each mutant, looking for crashes.

A mutant may fail with any Tessel error (exit status 1); a crash is any other status (a signal,
an abort), an "internal error" or an uncaught C++ exception ("terminate called"). Crashing
mutants are kept in OUT_DIR with what they printed, to become regression tests.

  tools/mutate_scripts.py [--seed N] [--seconds S] [--tessel PATH] [--out OUT_DIR]

Not a fuzzer (no coverage feedback): a cheap first line until the libFuzzer targets exist.
"""
import argparse
import glob
import os
import random
import subprocess
import time

TOKENS = ['0', '1', '-1', '2', '1099511627776', '-3', '[]', '[0]', '[1, 2]', '(', ')', '[',
          ']', '{', '}', ',', '.shape', '.shape[0]', '.T', '.to("tpu")', '.to("cpu")',
          '.item()', '.tolist()', 'nonzero(', 'sum(', 'reshape(', 'ones([', 'zeros([', 'x', 'n',
          'none', 'true', '0.0', '1e308', '"s"', '@compile', 'fn', 'let', 'return', 'if',
          'while', 'for', 'in', '+', '*', '//', '%', '-', '==', '<', ' ', '\n', 'dim = ',
          'grad(', 'value_and_grad(', 'mark_dynamic(', 'sync()', 'masked_select(', 'cat([',
          'unique(', 'expand(', 'dropout(']


def mutate(rng, text):
    # Expectations are comments already; dropping them keeps mutants from matching on them.
    text = '\n'.join(line.split('# expect')[0] for line in text.split('\n'))
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        r = rng.random()
        if r < 0.4:  # insert a token
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif r < 0.7:  # delete a few characters
            text = text[:i] + text[min(len(text), i + rng.randint(1, 10)):]
        else:  # copy a span of the script elsewhere
            j = rng.randint(0, len(text))
            text = text[:i] + text[j:min(len(text), j + rng.randint(1, 30))] + text[i:]
    return text


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--seconds', type=float, default=60)
    ap.add_argument('--tessel', default=os.path.join(root, 'build/repl/tessel'))
    ap.add_argument('--out', default='/tmp/tessel-mutants')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    scripts = [open(p).read() for p in glob.glob(os.path.join(root, 'tests/scripts/**/*.dsl'),
                                                 recursive=True)]
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, XDG_RUNTIME_DIR=os.environ.get('XDG_RUNTIME_DIR', '/tmp'),
               LP_NUM_THREADS='0')
    runs = crashes = completed = timeouts = 0
    deadline = time.time() + args.seconds
    path = os.path.join(args.out, 'current.dsl')
    while time.time() < deadline:
        text = mutate(rng, rng.choice(scripts))
        with open(path, 'w') as f:
            f.write(text)
        try:
            p = subprocess.run([args.tessel, path], capture_output=True, timeout=10, env=env)
            status, err = p.returncode, p.stderr.decode(errors='replace')
        except subprocess.TimeoutExpired:
            timeouts += 1
            continue
        runs += 1
        completed += status == 0
        if status not in (0, 1) or 'internal error' in err or 'terminate called' in err:
            crashes += 1
            base = os.path.join(args.out, 'crash%04d' % crashes)
            with open(base + '.dsl', 'w') as f:
                f.write(text)
            with open(base + '.txt', 'w') as f:
                f.write('status %s\n%s' % (status, err[-4000:]))
    print('runs %d, crashes %d, ran to the end %d, timeouts %d' %
          (runs, crashes, completed, timeouts))


if __name__ == '__main__':
    main()

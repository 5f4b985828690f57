"""The checks of the Python tests that ctest runs (tests/plot, tests/kernel): each check prints
one line, ok or FAIL, and finish() sums them up and gives the test's exit status."""

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def finish(name):
    if failures:
        print(f"{len(failures)} failed: " + "; ".join(failures))
        return 1
    print(f"{name} checks passed")
    return 0

# Unbounded recursion is a LimitError, not a crash (the error points at the innermost call).
fn down(n) { return down(n + 1) } down(0)   # expect error: LimitError: maximum recursion depth exceeded

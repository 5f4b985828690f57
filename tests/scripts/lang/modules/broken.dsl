# Fixture for diagnostics_test.cpp: a module that fails while it is imported.
let ok = 1
let bad = ok // 0

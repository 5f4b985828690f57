# Fixture for import tests: a module with state, functions and an import of its own.
let counter = 0
let loaded = true
fn double(x) { return x * 2 }
fn bump() { counter += 1; return counter }
import helper            # resolved beside this file first
fn greet(name) { return helper.prefix + name }

#!/usr/bin/env bash
# The installed package as an app uses it (docs/embedding.md, "Installing and
# linking"): installs the build into a temporary prefix, builds examples/embed from a copy
# outside the source tree with find_package(Tessel) and again with pkg-config, runs both and
# checks what they print; and runs the installed tessel command.
# Usage (tests/install/CMakeLists.txt registers it):
#   install_test.sh SOURCE_DIR BUILD_DIR CMAKE CXX LIBDIR static|shared [EXTRA_FLAGS]
# EXTRA_FLAGS (the sanitizer flags of a TESSEL_SANITIZE build) go to the example's compile
# and link.
set -euo pipefail
source_dir=$1 build_dir=$2 cmake=$3 cxx=$4 libdir=$5 kind=$6 extra_flags=${7:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tessel-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
# Compiled-frame profiles (PGO) go here, not to ~/.cache; the app itself needs no variable.
export TESSEL_CACHE_DIR=$tmp/cache
unset TESSEL_STDLIB_PATH

fail() { echo "FAIL: $*" >&2; exit 1; }
# run_logged LOG CMD...: runs CMD with its output in LOG, shown only when it fails.
run_logged() {
  local log=$1; shift
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { cat "$log"; fail "$* (exit $rc)"; }
}
# check_app OUTPUT: what examples/embed prints when it works.
check_app() {
  local out=$1
  for rows in 1 2 5 8 17 64; do
    grep -Eq "^batch +$rows -> f32 \[$rows, 3\], rows sum to 1," "$out" ||
      { cat "$out"; fail "no correct line for the batch of $rows"; }
  done
  # Six batch sizes, fewer graphs: @compile (the compiler is in the library) with dynamic sizes.
  grep -Eq '^graphs compiled: [123]$' "$out" || { cat "$out"; fail "graphs compiled"; }
  grep -q '^caught ShapeError (nn.dsl:[0-9]*): linear: ' "$out" ||
    { cat "$out"; fail "the ShapeError was not caught as a tessel::Error"; }
  [ "$(tail -n 1 "$out")" = "ok" ] || { cat "$out"; fail "the app did not end with ok"; }
}

echo "== cmake --install $build_dir --prefix $prefix"
run_logged "$tmp/install.log" "$cmake" --install "$build_dir" --prefix "$prefix"
lib=$prefix/$libdir/libtessel.a
[ "$kind" = shared ] && lib=$prefix/$libdir/libtessel.so
for f in include/tessel/tessel.h "$libdir/cmake/Tessel/TesselConfig.cmake" \
    "$libdir/cmake/Tessel/TesselConfigVersion.cmake" "$libdir/cmake/Tessel/TesselTargets.cmake" \
    "$libdir/pkgconfig/tessel.pc" bin/tessel share/tessel/stdlib/nn.dsl; do
  [ -f "$prefix/$f" ] || fail "$f is not installed"
done
[ -f "$lib" ] || fail "${lib#"$prefix"/} is not installed"
# libtessel.so exports the API alone (cmake/libtessel.map).
if [ "$kind" = shared ] && nm -D --defined-only -C "$lib" | grep -E ' tessel::(interp|api|backends|shapes)::'; then
  fail "libtessel.so exports the interpreter's symbols above"
fi
# Nothing the app sees names a file of the build or source tree.
if grep -rl -e "$source_dir" -e "$build_dir" "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
  fail "the package files above name the source or build tree"
fi

echo "== examples/embed with find_package(Tessel), outside the source tree"
cp -r "$source_dir/examples/embed" "$tmp/embed"
rm -rf "$tmp/embed/build"
run_logged "$tmp/configure.log" "$cmake" -S "$tmp/embed" -B "$tmp/embed/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="$extra_flags" -DCMAKE_EXE_LINKER_FLAGS="$extra_flags"
grep -q "^Tessel_DIR:PATH=$prefix/$libdir/cmake/Tessel$" "$tmp/embed/build/CMakeCache.txt" ||
  fail "find_package(Tessel) found another Tessel: $(grep Tessel_DIR "$tmp/embed/build/CMakeCache.txt")"
run_logged "$tmp/build.log" "$cmake" --build "$tmp/embed/build"
rc=0
(cd "$tmp" && embed/build/embed) >"$tmp/cmake-app.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$tmp/cmake-app.out"; fail "the example (CMake) exited with $rc"; }
check_app "$tmp/cmake-app.out"
cat "$tmp/cmake-app.out"

echo "== examples/embed with pkg-config"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
pc_flags=$(pkg-config --cflags --libs tessel)
echo "pkg-config --cflags --libs tessel: $pc_flags"
# A static library's third-party libraries are in Libs: --static gives the same line.
if [ "$kind" = static ] && [ "$(pkg-config --cflags --libs --static tessel)" != "$pc_flags" ]; then
  fail "pkg-config --static gives another line: $(pkg-config --cflags --libs --static tessel)"
fi
rpath=()
[ "$kind" = shared ] && rpath=("-Wl,-rpath,$prefix/$libdir")
# shellcheck disable=SC2086  # the flags are words
run_logged "$tmp/pc-build.log" "$cxx" -std=c++20 $extra_flags "$tmp/embed/main.cpp" \
  -o "$tmp/embed-pc" $pc_flags "${rpath[@]}"
rc=0
"$tmp/embed-pc" "$tmp/embed/model.dsl" >"$tmp/pc-app.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$tmp/pc-app.out"; fail "the example (pkg-config) exited with $rc"; }
check_app "$tmp/pc-app.out"
echo "ok"

echo "== the installed tessel command"
out=$(cd "$tmp" && "$prefix/bin/tessel" -c 'import nn
@compile
fn f(x) { return x * 2 }
print(len(nn.mlp_init([2, 3, 1])), f(ones([3])).sum().item())')
[ "$out" = "2 6.0" ] || fail "bin/tessel printed '$out', not '2 6.0'"
echo "$out"

# Where xeus was found the Jupyter kernel is installed too, with a kernelspec that runs it.
if [ -x "$prefix/bin/tessel-kernel" ]; then
  echo "== the installed Jupyter kernelspec"
  spec=$prefix/share/jupyter/kernels/tessel
  for f in kernel.json logo-64x64.png logo-svg.svg; do
    [ -f "$spec/$f" ] || fail "share/jupyter/kernels/tessel/$f is not installed"
  done
  grep -q "\"$prefix/bin/tessel-kernel\"" "$spec/kernel.json" ||
    fail "kernel.json does not run $prefix/bin/tessel-kernel: $(cat "$spec/kernel.json")"
  echo "ok"
fi
echo "PASS"

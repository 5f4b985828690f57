// The parameters of a native, as a constant: what ArgBinder binds a call's arguments to.
#pragma once

#include <cstddef>

namespace tessel::interp {

/// A native's parameters. The tensor natives' signatures are generated from the signature
/// lines of ops/tensor_functions.txt (tools/signatures.py writes ops_gen/tensor_signatures.h,
/// `sig::zeros`), so that the line help() prints is the binding.
struct NativeSignature {
  const char* name;
  const char* const* params;  // every parameter in order, the variadic one included
  size_t count;               // entries of params
  size_t required;            // the first `required` parameters have no default
  size_t positional;          // how many may be given by position: the ones before `*` or `*rest`
  bool variadic;              // params[positional] is `*rest`: it takes the further positionals
  const char* text;           // the signature line as written: `zeros(shape, dtype = f32)`

  /// The same parameters under another name: a tensor form documented with the built-in it
  /// extends (`sum(x, dim)` binds as `mean`, interp/natives/docs/core.txt).
  constexpr NativeSignature named(const char* other) const {
    NativeSignature s = *this;
    s.name = other;
    s.text = nullptr;
    return s;
  }
};

}  // namespace tessel::interp

"""The signature lines of ops/tensor_functions.txt as the argument binding of their natives.

Imported by opgen.py, which writes tensor_signatures.h (docs/internals.md, "Adding an op"). A
hand-written tensor native binds its arguments with `ArgBinder b(sig::zeros, args)`: the
parameter names, their order, how many are required and the variadic and keyword-only forms
are those of the entry's column-0 line, the same line help() prints, so the binding and the
documentation cannot disagree.

The file's format is Note [One source of docs] in interp/natives/help.cpp. A column-0 line
with `(` is a function's signature, `name(param, param = default, *rest, *, kwonly = default)`;
other column-0 lines (a dtype such as `f32`, an attribute such as `tensor.shape`) document
no function and are skipped. A signature this module cannot read stops the build naming the
line.
"""
import re

IDENT = re.compile(r"[A-Za-z_]\w*")
# Names a C++ constant cannot take, or should not: `sig::std` would hide namespace std.
CXX_RESERVED = {"and", "or", "not", "xor", "bool", "char", "class", "default", "delete", "do",
                "double", "float", "for", "if", "int", "long", "new", "operator", "register",
                "return", "short", "signed", "sizeof", "static", "std", "struct", "switch",
                "template", "this", "throw", "try", "union", "unsigned", "using", "void",
                "while", "auto", "const", "enum", "extern", "friend", "goto", "inline",
                "mutable", "private", "protected", "public", "typedef", "typename", "virtual",
                "volatile", "case", "catch", "continue", "break", "else", "export", "false",
                "true", "namespace", "nullptr"}
MAX_PARAMS = 16  # ArgBinder's kMaxParams (interp/values/native_args.h)


class SignatureError(Exception):
    pass


class Signature:
    def __init__(self, name, text, line):
        self.name, self.text, self.line = name, text, line
        self.params = []       # every name in order, the variadic one included
        self.required = 0      # the leading parameters without a default
        self.positional = 0    # how many may be given by position (before `*` or `*rest`)
        self.variadic = False  # params[positional] is `*rest`, taking the further positionals

    @property
    def cxx_name(self):
        return self.name + "_" if self.name in CXX_RESERVED else self.name


def split_params(text):
    """Splits at the commas outside brackets and strings: `pad = [0, 0], mode = "a, b"`."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise SignatureError("unbalanced brackets")
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    if quote or depth:
        raise SignatureError("an unclosed string or bracket")
    parts.append(cur)
    return [p.strip() for p in parts]


def parse_signature(text, line):
    m = re.fullmatch(r"([A-Za-z_]\w*)\((.*)\)", text)
    if not m:
        raise SignatureError("expected `name(params)` with the parameters in one pair of ( )")
    sig = Signature(m.group(1), text, line)
    body = m.group(2).strip()
    if not body:
        return sig
    keyword_only = False
    seen_default = False
    for part in split_params(body):
        if part == "*":
            if keyword_only:
                raise SignatureError("a second `*`")
            keyword_only = True
            sig.positional = len(sig.params)
            continue
        if part.startswith("**"):
            raise SignatureError(f"`{part}`: keyword collections are not supported")
        if part.startswith("*"):
            name = part[1:].strip()
            if keyword_only:
                raise SignatureError(f"`{part}` after `*`")
            if not IDENT.fullmatch(name):
                raise SignatureError(f"`{part}` is not `*name`")
            keyword_only = True
            sig.positional = len(sig.params)
            sig.variadic = True
            sig.params.append(name)
            continue
        name, eq, default = part.partition("=")
        name = name.strip()
        if not IDENT.fullmatch(name):
            raise SignatureError(f"`{part}` is not `name` or `name = default`")
        if eq and not default.strip():
            raise SignatureError(f"`{part}` has `=` and no default")
        if name in sig.params:
            raise SignatureError(f"`{name}` is given twice")
        if eq:
            seen_default = True
        elif keyword_only:
            # ArgBinder counts the required parameters as a prefix of the positional ones.
            raise SignatureError(f"keyword-only `{name}` needs a default")
        elif seen_default:
            raise SignatureError(f"`{name}` has no default but follows one that has")
        else:
            sig.required += 1
        sig.params.append(name)
    if not keyword_only:
        sig.positional = len(sig.params)
    if len(sig.params) > MAX_PARAMS:
        raise SignatureError(f"more than {MAX_PARAMS} parameters (ArgBinder's kMaxParams)")
    return sig


def parse_file(path, fail):
    """The signatures of the entries of a docs file, in order; `fail(path, line, msg)` exits."""
    sigs, names = [], {}
    with open(path) as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n").rstrip()
            if not line or line[0] in " \t#":
                continue  # descriptions, comments, section headings (`## ...`)
            if "(" not in line:
                continue  # `f32`, `tensor.shape`: not functions
            try:
                sig = parse_signature(line, no)
            except SignatureError as e:
                fail(path, no, f"cannot read the signature `{line}`: {e}")
            if sig.name in names:
                fail(path, no, f"`{sig.name}` already has a signature on line {names[sig.name]}")
            names[sig.name] = no
            sigs.append(sig)
    return sigs


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header(sigs, source):
    out = [f"// Generated by tools/opgen.py (tools/signatures.py) from {source}; do not edit.",
           "// One NativeSignature per function entry: its binding (ArgBinder(sig::NAME, args)).",
           "#pragma once", "", '#include "interp/values/native_signature.h"', "",
           "namespace tessel::interp::sig {", ""]
    for s in sigs:
        out.append(f"// {source} line {s.line}")
        params = "nullptr"
        if s.params:
            out.append(f"inline constexpr const char* {s.cxx_name}_params[] = "
                       f"{{{', '.join(c_string(p) for p in s.params)}}};")
            params = f"{s.cxx_name}_params"
        out.append(f"inline constexpr NativeSignature {s.cxx_name}{{{c_string(s.name)}, {params}, "
                   f"{len(s.params)}, {s.required}, {s.positional}, "
                   f"{'true' if s.variadic else 'false'}, {c_string(s.text)}}};")
    out.append("")
    out.append("/// Every signature above, in the file's order (the tests walk them).")
    out.append("inline constexpr const NativeSignature* kAll[] = {")
    out.extend(f"    &{s.cxx_name}," for s in sigs)
    out.append("};")
    out.append("")
    out.append("}  // namespace tessel::interp::sig")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    # `signatures.py FILE`: checks a docs file's signature lines as the build does.
    import sys

    def _fail(path, line, msg):
        sys.exit(f"{path}:{line}: {msg}")

    print(f"{len(parse_file(sys.argv[1], _fail))} signatures")

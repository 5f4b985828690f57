// Compiled results equal eager results for every op in the op table, over random
// sizes that change between calls (so later calls run a dynamic-shape graph).
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "interp/natives/builtins.h"
#include "interp/syntax/diagnostics.h"
#include "interp/interpreter.h"
#include "shapes/elementwise_defs.h"
#include "shapes/op_kind.h"

using namespace tessel;

namespace {

// One expression per op, over a, b (f32 [n, m]), ia (i32 [n, m]) and mask (bool [n, m]).
const std::map<std::string, std::string> kSnippets = {
    // Pooling and resizing over a as an image [1, 1, n, m] or [1, n, m]; the backward ops
    // through grad.
    {"max_pool2d", "max_pool2d(a.reshape([1, 1, a.shape[0], a.shape[1]]), 2, 1, 1)"},
    {"avg_pool2d", "avg_pool2d(a.unsqueeze(0), (3, 2), (2, 1), 1, count_include_pad = false)"},
    {"adaptive_avg_pool2d", "adaptive_avg_pool2d(a.unsqueeze(0), (2, 3))"},
    {"interpolate", "interpolate(a.unsqueeze(0).unsqueeze(0), scale_factor = 2.0, mode = \"bilinear\")"},
    {"max_pool2d_backward", "grad(fn (a) { return (max_pool2d(a.unsqueeze(0), 3, 2, 1) * 1.5).sum() })(a)"},
    {"avg_pool2d_backward", "grad(fn (a) { return (avg_pool2d(a.unsqueeze(0), 2, 1) ** 2).sum() })(a)"},
    {"adaptive_avg_pool2d_backward", "grad(fn (a) { return (adaptive_avg_pool2d(a.unsqueeze(0), 3) ** 2).sum() })(a)"},
    {"interpolate_backward", "grad(fn (a) { return (interpolate(a.unsqueeze(0), size = 5) ** 2).sum() })(a)"},
    {"max_pool2d_double_backward",
     "grad(fn (b) { return (grad(fn (a) { return (max_pool2d(a.unsqueeze(0), 3, 2, 1) ** 2).sum() })(b) ** 2).sum() })(a)"},
    {"gelu_backward", "grad(fn (a) { return (gelu(a) * a).sum() })(a)"},
    {"layer_norm_backward",
     "grad(fn (a) { return (layer_norm(a, [a.shape[1]], ones([a.shape[1]]) * 1.5) * a).sum() })(a)"},
    {"neg", "-a"},
    {"exp", "exp(a)"},
    {"log", "log(abs(a) + 1.0)"},
    {"sqrt", "sqrt(abs(a))"},
    {"rsqrt", "rsqrt(abs(a) + 1.0)"},
    {"abs", "abs(a)"},
    {"sin", "sin(a)"},
    {"cos", "cos(a)"},
    {"tanh", "tanh(a)"},
    {"sigmoid", "sigmoid(a)"},
    {"relu", "relu(a)"},
    {"gelu", "gelu(a)"},
    {"logical_not", "logical_not(mask)"},
    {"add", "a + b"},
    {"sub", "a - b"},
    {"mul", "a * b"},
    {"div", "a / (abs(b) + 1.0)"},
    {"floordiv", "ia // 3"},
    {"mod", "ia % 3"},
    {"pow", "abs(a) ** 1.5"},
    {"maximum", "maximum(a, b)"},
    {"minimum", "minimum(a, b)"},
    {"eq", "ia == 2"},
    {"ne", "ia != 2"},
    {"lt", "a < b"},
    {"le", "a <= b"},
    {"gt", "a > b"},
    {"ge", "a >= b"},
    {"logical_and", "logical_and(mask, a > 0)"},
    {"logical_or", "logical_or(mask, a > 0)"},
    {"where", "where(mask, a, b)"},
    {"clamp", "clamp(a, -0.5, 0.5)"},
    {"sum", "a.sum(dim = 1)"},
    {"mean", "a.mean(dim = 0)"},
    {"max", "a.max(dim = 1)[0] + a.max(dim = 1)[1].to(f32)"},
    {"min", "a.min(dim = 0, keepdim = true)[0]"},
    {"argmax", "a.argmax(dim = 1)"},
    {"argmin", "a.argmin(dim = 0)"},
    {"all", "mask.all(dim = 1)"},
    {"any", "mask.any(dim = 0)"},
    {"cumsum", "cumsum(a, 0)"},
    {"cumprod", "a.cumprod(dim = 1)"},
    {"reshape", "a.reshape([-1])"},
    {"transpose", "transpose(a, 0, 1)"},
    {"permute", "permute(a.unsqueeze(0), [2, 0, 1])"},
    {"unsqueeze", "a.unsqueeze(1)"},
    {"squeeze", "a.unsqueeze(0).squeeze(0)"},
    {"flatten", "flatten(a.unsqueeze(2), 1)"},
    {"expand", "expand(a.sum(dim = 1, keepdim = true), [a.shape[0], 3])"},
    {"cat", "cat([a, b], 0)"},
    {"stack", "stack([a, b], 1)"},
    {"slice", "a[1:, ::2]"},
    {"select", "a[:, 0]"},
    {"index_select", "index_select(a, 0, tensor([0, 1, 0]))"},
    {"gather", "gather(a, 1, zeros([a.shape[0], 1], dtype = i32))"},
    {"index_add", "index_add(a, 0, ia[:, 0] % a.shape[0], b, alpha = 2.0)"},
    {"index_copy", "index_copy(a, 1, arange(a.shape[1]), b)"},
    {"scatter", "scatter(a, 1, ia % a.shape[1], b)"},
    {"scatter_add", "scatter_add(a, 0, ia % a.shape[0], b)"},
    {"scatter_reduce", "scatter_reduce(a, 1, ia % a.shape[1], b, \"amax\", include_self = false)"},
    {"nonzero", "nonzero(mask)"},
    {"masked_select", "masked_select(a, mask)"},
    {"masked_scatter", "masked_scatter(a, mask, b)"},
    {"unique", "unique(ia)"},
    {"repeat_interleave", "repeat_interleave(a, ia[:, 0] % 3, dim = 0)"},
    {"bincount", "bincount(ia.reshape([-1]), weights = a.reshape([-1]), minlength = 3)"},
    {"segment_reduce", "segment_reduce(a, \"max\", lengths = bincount(ia[:, 0] % 2, minlength = 2), initial = -9.0)"},
    {"argsort", "argsort(ia, dim = 1, descending = true)"},
    {"topk", "topk(a, min(2, a.shape[0]), dim = 0)[0]"},
    {"searchsorted", "searchsorted(cumsum(abs(a[:, 0]), 0), b)"},
    {"nms", "nms(cat([a[:, :2], a[:, :2] + abs(b[:, :2]) + 0.5], dim = 1), b[:, 0], 0.3)"},
    {"matmul", "a @ b.T"},
    {"softmax", "softmax(a, 1)"},
    {"log_softmax", "log_softmax(a, 0)"},
    {"layer_norm", "layer_norm(a, [a.shape[1]], ones([a.shape[1]]), zeros([a.shape[1]]))"},
    {"linear", "linear(a, b, b[:, 0])"},
    {"mse_loss", "mse_loss(a, b)"},
    {"cross_entropy", "cross_entropy(a, abs(ia[:, 0]) % a.shape[1])"},
    {"dropout", "dropout(a, 0.3)"},
    {"full", "full([a.shape[0], 2], 1.5)"},
    {"arange", "arange(a.shape[0])"},
    {"eye", "eye(a.shape[1])"},
    {"rand", "rand([a.shape[0], 3])"},
    {"randn", "randn([2, a.shape[1]])"},
    {"randint", "randint(0, 9, [a.shape[0]])"},
    {"randperm", "randperm(a.shape[0])"},
    {"multinomial", "multinomial(sigmoid(a), a.shape[1])"},
    {"bernoulli", "bernoulli(sigmoid(b))"},
    {"cast", "a.to(i32)"},
    {"contiguous", "a.T.contiguous()"},
    // Dense-model elementwise ops, and the compositions leaky_relu, elu, nan_to_num.
    {"erf", "erf(a)"},
    {"floor", "floor(a * 3.0)"},
    {"ceil", "ceil(a * 3.0)"},
    {"round", "round(floor(a * 4.0) / 2.0) + round(ia)"},
    {"trunc", "trunc(a * 3.0)"},
    {"sign", "sign(a) + sign(ia - 3)"},
    {"log1p", "log1p(abs(a))"},
    {"expm1", "expm1(a)"},
    {"silu", "silu(a) + leaky_relu(b, 0.2) + elu(a, alpha = 0.5)"},
    {"softplus", "softplus(a) + softplus(b, beta = 2.0, threshold = 1.0)"},
    {"isnan", "isnan(log(a))"},
    {"isinf", "isinf(exp(a * 60.0))"},
    {"isfinite", "logical_and(isfinite(log(b)), isfinite(ia)).to(f32) + nan_to_num(log(a))"},
    // item: a captured x.item() (capture_scalar_outputs, set by program()) sizing a value.
    {"item", "zeros([ia.abs().max().item() + a.shape[0]]) + ia[0, 0].item()"},
    // conv2d over a [1, 1, n, m] image (odd and even sizes; 2x2 kernels from b); its backward
    // ops through grad, squared so the incoming gradient is not uniform.
    {"conv2d", "conv2d(a.reshape([1, 1, a.shape[0], a.shape[1]]), b[:2, :2].reshape([1, 1, 2, 2]), "
               "b[0, :1], stride = [2, 1], padding = [0, 1], dilation = [1, 2])"},
    {"conv2d_backward_input",
     "grad(fn (x) { return (conv2d(x, b[:2, :2].reshape([1, 1, 2, 2]), padding = 1) ** 2).sum() })"
     "(a.reshape([1, 1, a.shape[0], a.shape[1]]))"},
    {"conv2d_backward_weight",
     "grad(fn (w) { return (conv2d(a.reshape([1, 1, a.shape[0], a.shape[1]]), w, stride = 2) ** 2)"
     ".sum() })(b[:2, :2].reshape([1, 1, 2, 2]))"},
    // Fused attention: T = S = n, D = m, an additive mask broadcast over keys; causal with a
    // batch and S = 2. Its logsumexp and backward come from the gradient (a bool mask over the
    // keys that always keeps key 0).
    {"scaled_dot_product_attention",
     "scaled_dot_product_attention(a, b, b, attn_mask = a[:, :1]) + "
     "scaled_dot_product_attention(a.unsqueeze(0), b[:2], a[:2], is_causal = true)[0]"},
    {"attention_logsumexp",
     "grad(fn (q) { return (scaled_dot_product_attention(q, b, a, is_causal = true) * b).sum() })(a)"},
    {"attention_backward",
     "grad(fn (q, k, v) { return (scaled_dot_product_attention(q, k, v, attn_mask = "
     "logical_or(mask.T[:1], arange(a.shape[0]) == 0)) * a).sum() }, argnums = [1, 2])(a, b, b + 1.0)[1]"},
    {"detach", "detach(a) * a + tril(a, 1) + masked_fill(b, mask, 0.5) + embedding(abs(ia) % 3, b[:3], padding_idx = 1)[:, 0]"},
};

// Runs `body` eagerly and compiled over sizes that change, and checks the results agree.
// With `withBreak`, the op runs on both sides of a graph break (a change to a list made outside
// the function, which runs eagerly at every call): the first graph computes it, the eager
// statement reads it, the second graph computes it again.
// With `views`, every input is a view that does not start at its storage's beginning or is not
// contiguous (a transpose, an offset slice, every other row, a stride-0 expansion), so graphs
// read strided and offset inputs (eager reads the same views).
std::string program(const std::string& expr, bool withBreak, bool views = false) {
  std::ostringstream p;
  if (expr.find(".item()") != std::string::npos) p << "config.capture_scalar_outputs = true\n";
  if (withBreak) {
    p << "let seen = []\n"
      << "fn body(a, b, ia, mask) {\n"
      << "  let r = " << expr << "\n"
      << "  seen.append(r.numel())\n"
      << "  return [r, " << expr << "]\n"
      << "}\n";
  } else {
    p << "fn body(a, b, ia, mask) { return [" << expr << "] }\n";
  }
  p << "let cbody = compile(body)\n"
    << "for (n, m) in [(3, 4), (5, 2), (6, 7), (4, 3)] {\n"
    << "  seed(n * 10 + m)\n"
    << (views ? "  let a = transpose(randn([m, n]), 0, 1)\n"
                "  let b = randn([n + 1, m])[1:]\n"
                "  let ia = randint(0, 6, [2 * n - 1, m])[::2]\n"
                "  let mask = (randn([1, m]) > 0).expand([n, m])\n"
              : "  let a = randn([n, m])\n"
                "  let b = randn([n, m])\n"
                "  let ia = randint(0, 6, [n, m])\n"
                "  let mask = a > 0\n")
    << "  seed(99)\n"
    << "  let es = body(a, b, ia, mask)\n"
    << "  seed(99)\n"
    << "  let cs = cbody(a, b, ia, mask)\n"
    << "  for i in range(len(es)) {\n"
    << "    let (e, c) = (es[i], cs[i])\n"
    << "    assert e.shape == c.shape, \"shape \" + str(e.shape) + \" vs \" + str(c.shape)\n"
    << "    assert e.dtype == c.dtype, \"dtype\"\n"
    << "    if e.numel() > 0 {\n"
    << "      let diff = (e.to(f32) - c.to(f32)).abs().max().item()\n"
    << "      assert diff <= 1e-4, \"values differ by \" + str(diff)\n"
    << "    }\n"
    << "  }\n"
    << "}\n"
    << "let s = stats(cbody)\n";
  if (withBreak) {
    p << "assert seen[0::2] == seen[1::2], \"the eager statement saw \" + str(seen)\n"
      << "assert s[\"graph_breaks\"] == 1, \"breaks: \" + str(s[\"graph_breaks\"])\n"
      // The second graph sees r as an input of its own, whose sizes may be 1 or equal to
      // another size at one call and not at the next (slices, unique): a few more compiles.
      << "assert s[\"compiles\"] <= 6, \"compiles: \" + str(s[\"compiles\"])\n";
  } else {
    p << "assert s[\"compiles\"] <= 2, \"compiles: \" + str(s[\"compiles\"])\n";
  }
  return p.str();
}

void runParity(int opIndex, bool withBreak, bool views = false) {
  auto op = static_cast<shapes::OpKind>(opIndex);
  std::string name(shapes::opName(op));
  std::string snippet;
  if (const shapes::ElementwiseDef* d = shapes::elementwiseDef(op)) {
    // An op of ops/elementwise.ops: its arguments from a, b and a column of a; i32 ones where
    // the op keeps integers (a positive divisor where it checks them).
    const bool ints = d->hasInt;
    const std::string args[3] = {ints ? "ia" : "a", ints ? (d->intDivisor ? "(abs(ia) + 1)" : "ia") : "b",
                                 ints ? "ia[:, 0:1]" : "a[:, 0:1]"};
    snippet = name + "(";
    for (int i = 0; i < d->arity; ++i) snippet += (i ? ", " : "") + args[i];
    snippet += ")";
  } else {
    auto it = kSnippets.find(name);
    ASSERT_NE(it, kSnippets.end()) << "op '" << name << "' has no parity snippet: add one";
    snippet = it->second;
  }
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<parity " + name + ">", program(snippet, withBreak, views));
  } catch (const interp::ScriptError& e) {
    FAIL() << name << ": " << interp::formatDiagnostic(e, interp.sources());
  }
}

class CompileParity : public testing::TestWithParam<int> {};

TEST_P(CompileParity, MatchesEager) {
  runParity(GetParam(), false);
}

TEST_P(CompileParity, MatchesEagerAcrossAGraphBreak) {
  runParity(GetParam(), true);
}

TEST_P(CompileParity, MatchesEagerOnViews) {
  runParity(GetParam(), false, /*views=*/true);
}

std::string opTestName(const testing::TestParamInfo<int>& info) {
  return std::string(shapes::opName(static_cast<shapes::OpKind>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(EveryOp, CompileParity, testing::Range(0, shapes::kNumOps), opTestName);

// --- Losses, reductions and shape utilities composed of table ops -------------------------------
// They have no op of their own, so EveryOp does not reach them: the same eager-vs-compiled check
// over changing sizes, per composite.
const std::map<std::string, std::string> kCompositeSnippets = {
    {"mse_loss_sum", "mse_loss(a, b, reduction = \"sum\")"},
    {"l1_loss", "l1_loss(a, b, reduction = \"none\")"},
    {"smooth_l1_loss", "smooth_l1_loss(a, b, beta = 0.5)"},
    {"huber_loss", "huber_loss(a, b, delta = 0.7, reduction = \"sum\")"},
    {"binary_cross_entropy", "binary_cross_entropy(sigmoid(a), sigmoid(b))"},
    {"binary_cross_entropy_with_logits",
     "binary_cross_entropy_with_logits(a, sigmoid(b), pos_weight = abs(b[0]) + 0.5)"},
    {"nll_loss", "nll_loss(log_softmax(a, 1), where(ia[:, 0] == 5, -100, ia[:, 0] % a.shape[1]))"},
    {"cross_entropy_ignore",
     "cross_entropy(a, where(ia[:, 0] == 5, -100, ia[:, 0] % a.shape[1]), label_smoothing = 0.1, "
     "reduction = \"none\")"},
    {"cross_entropy_probs", "cross_entropy(a, softmax(b, 1), reduction = \"sum\")"},
    {"logsumexp", "logsumexp(a, [0, 1], keepdim = true)"},
    {"logsumexp_unbacked", "logsumexp(masked_select(a, a > 1.5), 0)"},  // empty at some sizes
    {"var", "a.var(1, correction = 0)"},
    {"std", "std(a, [0, 1], keepdim = true)"},
    {"norm", "norm(a, 3, 1)"},
    {"prod", "prod(a, 1)"},
    {"split", "split(a, [1, a.shape[0] - 1])[1]"},
    {"chunk", "chunk(a[:, :2], 2, 1)[1]"},
    {"pad", "pad(a, [1, 2, 0, a.shape[1]], value = -1.0)"},
    {"flip", "flip(a, [0, 1])"},
    {"roll", "roll(a, [1, -3], [0, 1])"},
    {"repeat", "a.repeat([2, 1, 3])"},
    {"outer", "outer(a[:, 0], b[0])"},
    {"conv1d", "conv1d(a[:2].unsqueeze(0), b[:2, :2].reshape([2, 1, 2]), b[0, :2], groups = 2, "
               "padding = \"same\")"},
    // Normalization, one_hot, creation, einsum, amax/amin.
    {"group_norm", "group_norm(stack([a, b]), 1, b[:, 0], a[:, 0], eps = 0.01)"},
    {"group_norm_groups", "group_norm(cat([a, b], 1).T.unsqueeze(0), 2)"},
    {"rms_norm", "rms_norm(a, [a.shape[1]], b[0]) + rms_norm(b, a.shape, eps = 0.1)"},
    {"batch_norm_eval", "batch_norm(a, b[0], abs(b[1]) + 0.5, a[0], b[0])"},
    {"batch_norm_train",
     "batch_norm(a.unsqueeze(2), b[0], abs(b[1]) + 0.5, a[0], none, training = true)[0][:, :, 0] + "
     "batch_norm(a, b[0], abs(b[1]) + 0.5, training = true, momentum = 0.5)[2]"},
    {"batch_norm_train_y", "batch_norm(a.T.unsqueeze(0), none, none, training = true)"},
    {"one_hot", "one_hot(ia % 4, 4)"},
    {"one_hot_inferred", "one_hot(ia[:, 0])"},
    {"linspace", "linspace(-1.0, 2.5, a.shape[0]) + linspace(0.0, 1.0, 3).sum()"},
    {"like", "full_like(ia, 2.5) + zeros_like(a, dtype = i32) + ones_like(ia) + zeros_like(b)"},
    {"randn_like", "randn_like(a)"},
    {"einsum_matmul", "einsum(\"ij,kj->ik\", a, b)"},
    {"einsum_chain", "einsum(\"ij,ij,i->j\", a, b, a[:, 0])"},
    {"einsum_ellipsis", "einsum(\"...i,...i->...\", a, b[0])"},
    {"einsum_diagonal", "einsum(\"ii->i\", a[:2, :2]) + einsum(\"ij->\", a)"},
    {"amax", "amax(a, [0, 1], keepdim = true) + amin(a, 1).sum()"},
    // The other algorithm of multinomial (the op's own case draws without replacement).
    {"multinomial_replacement", "multinomial(sigmoid(a), 2 * a.shape[0] + 1, replacement = true)"},
    // Shape and comparison decompositions (interp/tensors/tensor_decompositions_*.cpp).
    // A fixed number of pieces: how many unbind gives is a specialization, as in PyTorch.
    {"unbind", "unbind(a[:, :2], 1)[0] + unbind(b[:2])[1].sum()"},
    {"narrow", "narrow(a, 0, 1, a.shape[0] - 1)"},
    {"broadcast_to", "broadcast_to(b[0], a.shape)"},
    {"movedim", "movedim(a.unsqueeze(0), 0, 2)"},
    {"swapaxes", "swapaxes(a, 0, 1)"},
    {"unflatten", "unflatten(a.reshape([-1]), 0, [a.shape[0], -1])"},
    {"tile", "tile(a, [2, 1])"},
    {"diag", "diag(a[:2, :2]) + diagonal(a[:2, :2], 0).sum() + diag(b[0]).sum()"},
    {"meshgrid", "meshgrid(a[:, 0], b[0], indexing = \"xy\")[0]"},
    {"take_along_dim", "take_along_dim(a, ia % a.shape[1], 1)"},
    {"index_fill", "index_fill(a, 1, tensor([0]), -1.0)"},
    {"glu", "glu(cat([a, b], 1), 1)"},
    {"normalize", "normalize(a, dim = 1)"},
    {"cosine_similarity", "cosine_similarity(a, b, dim = 1)"},
    {"isclose", "isclose(a, a + 1e-7)"},
};

// The snippet of a composite: its own, or a decomposition of ops/elementwise.ops applied to a.
std::string compositeSnippet(const std::string& name) {
  if (auto it = kCompositeSnippets.find(name); it != kCompositeSnippets.end()) return it->second;
  return name + "(a)";
}

class CompositeParity : public testing::TestWithParam<std::string> {};

void runComposite(const std::string& name, bool views) {
  interp::Interpreter interp;
  std::ostringstream out;
  interp.setOutput(&out);
  try {
    interp.runSource("<parity " + name + ">", program(compositeSnippet(name), false, views));
  } catch (const interp::ScriptError& e) {
    FAIL() << name << ": " << interp::formatDiagnostic(e, interp.sources());
  }
}

TEST_P(CompositeParity, MatchesEager) {
  runComposite(GetParam(), false);
}

TEST_P(CompositeParity, MatchesEagerOnViews) {
  runComposite(GetParam(), /*views=*/true);
}

std::vector<std::string> compositeNames() {
  std::vector<std::string> names;
  for (const auto& [name, expr] : kCompositeSnippets) names.push_back(name);
  for (const shapes::DecompositionDef& d : shapes::decompositionDefs()) names.push_back(d.name);
  return names;
}

std::string compositeName(const testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Dense, CompositeParity, testing::ValuesIn(compositeNames()),
                         compositeName);

}  // namespace

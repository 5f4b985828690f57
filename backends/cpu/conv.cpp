// conv2d and its backward ops on the cpu through oneDNN's convolution primitives.
//
// Note [Conv on oneDNN]
// ~~~~~~~~~~~~~~~~~~~~~
// Tensors are plain NCHW (weights OIHW), but oneDNN's fast convolutions want channel-blocked
// layouts (nChw16c on AVX-512). As PyTorch's ideep does, each primitive is created with
// format_tag::any, and the operands are reordered into the layout it picked and the result back
// out; an operand whose picked layout is already plain goes in as it is. Creating a primitive
// (choosing an implementation, generating its JIT code) costs far more than a small
// convolution, so plans are cached by every size and option: a batch that changes every call
// costs one creation per distinct size, after which a call is the reorders and the run. The
// backward ops are oneDNN's backward-data and backward-weights primitives, made with a forward
// primitive as their hint, as oneDNN requires. Threads: oneDNN's OpenMP (OMP_NUM_THREADS).
// The blocked copies are Storage buffers, so they come from the block cache (Note [Block
// cache]): oneDNN's own allocation of a [32, 64, 56, 56] copy page-faulted afresh on most
// calls and cost as much as the reorder. The backward-weights primitive also sums the bias
// gradient (diff_bias), and the two backward ops share one blocked copy of the output
// gradient (Note [Conv backward reuse] in conv_backward_reuse.cpp).
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "backends/cpu/conv_backward_reuse.h"
#include "backends/cpu/kernels.h"
#include "shapes/user_error.h"

namespace tessel::backends::cpu {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using shapes::ConvParams;

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

// One operand of a plan: its plain layout, the layout the primitive wants, and the reorder
// between them (none when they are the same).
struct Operand {
  memory::desc plain, wanted;
  std::optional<dnnl::reorder> reorder;
  void init(const memory::desc& p, const memory::desc& w, bool into) {
    plain = p;
    wanted = w;
    if (p == w) return;
    reorder = into ? dnnl::reorder(dnnl::reorder::primitive_desc(engine(), p, engine(), w))
                   : dnnl::reorder(dnnl::reorder::primitive_desc(engine(), w, engine(), p));
  }
};

// A cached primitive and its three tensor operands: two read (a, b) and one written (out),
// with oneDNN's argument names. The forward op's bias is read as it is (1-D, plain); the
// backward-weights op's bias gradient is written that way.
struct Plan {
  dnnl::primitive prim;
  Operand a, b, out;
  int argA, argB, argOut;
  bool bias = false;
};

struct Geometry {
  memory::dims x, w, y, strides, dilates, padL, padR;
  bool grouped;
};

Geometry geometry(const Dims& x, const Dims& w, const Dims& y, const ConvParams& c) {
  Geometry g;
  g.x = {x[0], x[1], x[2], x[3]};
  g.y = {y[0], y[1], y[2], y[3]};
  g.grouped = c.groups > 1;
  if (g.grouped)
    g.w = {c.groups, w[0] / c.groups, w[1], w[2], w[3]};
  else
    g.w = {w[0], w[1], w[2], w[3]};
  g.strides = {c.stride[0], c.stride[1]};
  g.dilates = {c.dilation[0] - 1, c.dilation[1] - 1};  // oneDNN counts the gaps
  g.padL = {c.padBegin[0], c.padBegin[1]};
  g.padR = {c.padEnd[0], c.padEnd[1]};
  return g;
}

memory::desc anyDesc(const memory::dims& d) {
  return memory::desc(d, memory::data_type::f32, Tag::any);
}
memory::desc plainDesc(const memory::dims& d, bool weights) {
  Tag t = d.size() == 1 ? Tag::a : d.size() == 4 ? (weights ? Tag::oihw : Tag::nchw) : Tag::goihw;
  return memory::desc(d, memory::data_type::f32, t);
}

dnnl::convolution_forward::primitive_desc forwardPd(const Geometry& g, bool bias) {
  auto alg = dnnl::algorithm::convolution_direct;
  auto prop = dnnl::prop_kind::forward_training;
  auto d =
      bias ? dnnl::convolution_forward::desc(prop, alg, anyDesc(g.x), anyDesc(g.w),
                                             plainDesc({g.y[1]}, false), anyDesc(g.y), g.strides,
                                             g.dilates, g.padL, g.padR)
           : dnnl::convolution_forward::desc(prop, alg, anyDesc(g.x), anyDesc(g.w), anyDesc(g.y),
                                             g.strides, g.dilates, g.padL, g.padR);
  return dnnl::convolution_forward::primitive_desc(d, engine());
}

std::unique_ptr<Plan> makePlan(OpKind op, const Geometry& g, bool bias) {
  auto plan = std::make_unique<Plan>();
  const memory::desc px = plainDesc(g.x, false), pw = plainDesc(g.w, true),
                     py = plainDesc(g.y, false);
  auto alg = dnnl::algorithm::convolution_direct;
  if (op == OpKind::Conv2d) {
    auto pd = forwardPd(g, bias);
    plan->prim = dnnl::convolution_forward(pd);
    plan->a.init(px, pd.src_desc(), true);
    plan->b.init(pw, pd.weights_desc(), true);
    plan->out.init(py, pd.dst_desc(), false);
    plan->argA = DNNL_ARG_SRC, plan->argB = DNNL_ARG_WEIGHTS, plan->argOut = DNNL_ARG_DST;
    plan->bias = bias;
  } else if (op == OpKind::Conv2dBackwardInput) {
    dnnl::convolution_backward_data::desc d(alg, anyDesc(g.x), anyDesc(g.w), anyDesc(g.y),
                                            g.strides, g.dilates, g.padL, g.padR);
    dnnl::convolution_backward_data::primitive_desc pd(d, engine(), forwardPd(g, false));
    plan->prim = dnnl::convolution_backward_data(pd);
    plan->a.init(py, pd.diff_dst_desc(), true);
    plan->b.init(pw, pd.weights_desc(), true);
    plan->out.init(px, pd.diff_src_desc(), false);
    plan->argA = DNNL_ARG_DIFF_DST, plan->argB = DNNL_ARG_WEIGHTS;
    plan->argOut = DNNL_ARG_DIFF_SRC;
  } else {
    // With diff_bias: the bias gradient comes out of the same pass over gy.
    dnnl::convolution_backward_weights::desc d(alg, anyDesc(g.x), anyDesc(g.w),
                                               plainDesc({g.y[1]}, false), anyDesc(g.y),
                                               g.strides, g.dilates, g.padL, g.padR);
    dnnl::convolution_backward_weights::primitive_desc pd(d, engine(), forwardPd(g, true));
    plan->prim = dnnl::convolution_backward_weights(pd);
    plan->a.init(py, pd.diff_dst_desc(), true);
    plan->b.init(px, pd.src_desc(), true);
    plan->out.init(pw, pd.diff_weights_desc(), false);
    plan->argA = DNNL_ARG_DIFF_DST, plan->argB = DNNL_ARG_SRC;
    plan->argOut = DNNL_ARG_DIFF_WEIGHTS;
    plan->bias = true;
  }
  return plan;
}

// The cache: every size and option of the call. Plans are never evicted; a program sees few
// distinct convolution geometries (the primitives themselves sit in oneDNN's own LRU cache).
const Plan& planFor(OpKind op, const Geometry& g, bool bias) {
  std::vector<int64_t> key = {int64_t(op), bias};
  for (const memory::dims* d : {&g.x, &g.w, &g.y, &g.strides, &g.dilates, &g.padL, &g.padR})
    key.insert(key.end(), d->begin(), d->end());
  static std::mutex mu;
  static std::map<std::vector<int64_t>, std::unique_ptr<Plan>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[key];
  if (!slot) slot = makePlan(op, g, bias);
  return *slot;
}

// A buffer for an operand in the layout a primitive wants, from the block cache. It is the
// kernel's scratch, not a tensor of the program: it bypasses an allocation hook (a tpu
// program's static plan holds its tensors; oneDNN's own scratch was never in it either).
memory blockedMemory(const memory::desc& d, std::shared_ptr<Storage>& keep) {
  ScopedAllocationHook heap(nullptr);
  keep = Storage::allocate(d.get_size());
  return memory(d, engine(), keep->data());
}

// Runs a plan on plain tensors: a, b, out and bias (the forward's bias, read; the backward
// weights' bias gradient, written). For the backward ops a is gy, whose blocked copy the other
// backward op may have left (Note [Conv backward reuse]).
void run(const Plan& p, OpKind op, const Tensor& a, const Tensor& b, float* bias,
         int64_t channels, const Tensor& out, bool shareGy) {
  dnnl::stream s(engine());
  std::shared_ptr<Storage> keepA, keepB, keepOut;
  auto in = [&](const Operand& o, const Tensor& t, std::shared_ptr<Storage>& keep) {
    memory user(o.plain, engine(), t.data<float>());
    if (!o.reorder) return user;
    memory m = blockedMemory(o.wanted, keep);
    o.reorder->execute(s, user, m);
    return m;
  };
  const bool backward = op != OpKind::Conv2d;
  memory ma;
  if (shareGy && p.a.reorder) {
    keepA = conv_reuse::takeBlockedGy(a, p.a.wanted);
    if (keepA) {
      ma = memory(p.a.wanted, engine(), keepA->data());
    } else {
      ma = in(p.a, a, keepA);
      conv_reuse::keepBlockedGy(a, p.a.wanted, keepA);
    }
  } else {
    ma = in(p.a, a, keepA);
  }
  memory mb = in(p.b, b, keepB);
  memory user(p.out.plain, engine(), out.data<float>());
  memory mo = p.out.reorder ? blockedMemory(p.out.wanted, keepOut) : user;
  std::unordered_map<int, memory> args = {{p.argA, ma}, {p.argB, mb}, {p.argOut, mo}};
  if (p.bias)
    args.insert({backward ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS,
                 memory(plainDesc({channels}, false), engine(), bias)});
  p.prim.execute(s, args);
  if (p.out.reorder) p.out.reorder->execute(s, mo, user);
  s.wait();
}

Tensor plainF32(const Tensor& t) {
  return castTo(t, DType::F32).contiguous();
}

}  // namespace

Tensor runConv(OpKind op, std::span<const Tensor> in, const OpAttrs& attrs,
               const OpSignature& sig) {
  const Tensor a = plainF32(in[0]), b = plainF32(in[1]);
  const bool bias = op == OpKind::Conv2d && in.size() > 2;
  Tensor out = emptyLike(sig);
  if (out.numel() == 0) return out;
  Dims x, w, y;
  switch (op) {
    case OpKind::Conv2d:
      x = a.shape(), w = b.shape(), y = out.shape();
      break;
    case OpKind::Conv2dBackwardInput:
      x = out.shape(), w = b.shape(), y = a.shape();
      break;
    default:
      x = b.shape(), w = out.shape(), y = a.shape();
      break;
  }
  Tensor bv = bias ? plainF32(in[2]) : Tensor();
  // Nothing to sum over (an empty batch, no input channels): zeros, plus the bias forward.
  if (a.numel() == 0 || b.numel() == 0) {
    float* o = out.data<float>();
    const int64_t plane = out.numel() / (out.size(0) * out.size(1));
    for (int64_t i = 0; i < out.numel(); ++i)
      o[i] = bias ? bv.data<float>()[(i / plane) % out.size(1)] : 0.0f;
    return out;
  }
  const Geometry g = geometry(x, w, y, attrs.conv);
  try {
    const Plan& p = planFor(op, g, bias);
    // Only a gy used as it came is worth sharing: a converted copy dies with this call.
    const bool shareGy = op != OpKind::Conv2d && a.storage() == in[0].storage();
    std::vector<float> biasGrad(op == OpKind::Conv2dBackwardWeight ? size_t(y[1]) : 0);
    float* biasData = bias ? bv.data<float>() : biasGrad.data();
    run(p, op, a, b, biasData, y[1], out, shareGy);
    if (!biasGrad.empty() && shareGy) conv_reuse::keepBiasGrad(a, std::move(biasGrad));
  } catch (const dnnl::error& e) {
    throwUserError(ErrorKind::DeviceError,
                   std::string(shapes::opName(op)) + ": oneDNN failed: " + e.what());
  }
  return out;
}

}  // namespace tessel::backends::cpu

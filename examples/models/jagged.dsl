# Bag-of-embeddings over jagged batches (the seeds' "sparse and jagged data"): tell real English
# words from /usr/share/dict/words (Debian's wamerican) from letter strings of the same lengths
# drawn at random with English letter frequencies. Each word is a bag of its letter bigrams, a
# different number per word, so a batch is jagged: flat bigram ids plus one length per word,
# never padded. The model embeds every bigram, averages each word's bag with a segment
# reduction (torch.nn.EmbeddingBag's mean mode), and a linear layer scores the bag. The compiled
# training step sees a different total number of bigrams at every batch and compiles once
# (twice at most, with automatic dynamic shapes).
#   tessel examples/models/jagged.dsl [path/to/words]
#   TESSEL_EXAMPLE_STEPS=30 tessel examples/models/jagged.dsl   (fewer steps: the test suite)
import nn

let path = args[0] if len(args) > 0 else "/usr/share/dict/words"
let steps = int(env("TESSEL_EXAMPLE_STEPS", "400"))
let batch = 128
let dim = 32

# Lowercase a-z words of 3 to 12 letters, as letter codes 0-25.
let words = [w for w in read_lines(path) if len(w) >= 3 and len(w) <= 12 and all([c >= "a" and c <= "z" for c in w])]
let codes = [[ord(c) - 97 for c in w] for w in words]
print(len(words), "words from", path)

# English letter frequencies, from the words themselves, for the random strings.
let letter_counts = bincount(tensor([c for w in codes for c in w]), minlength = 26).to(f32)
let letter_probs = letter_counts / letter_counts.sum()

# A jagged batch: n real words and n random strings of the same lengths, as the flat bigram ids
# (26 * first + second letter) of all 2n words, the number of bigrams of each, and the labels.
fn make_batch(rows) {
  let real = [codes[i] for i in rows]
  let lengths = tensor([len(w) for w in real])
  let real_letters = tensor([c for w in real for c in w])
  let fake_letters = multinomial(letter_probs, real_letters.shape[0], replacement = true)
  let letters = cat([real_letters, fake_letters])
  let word_lengths = cat([lengths, lengths])
  # Bigram k of the flat letters pairs letters k and k + 1; the pairs that straddle two words
  # (the last letter of each word) are dropped.
  let ends = cumsum(word_lengths, 0) - 1
  let inside = scatter(ones([letters.shape[0] - 1]), 0, ends[:-1], 0.0) > 0.5
  let pairs = letters[:-1] * 26 + letters[1:]
  let ids = masked_select(pairs, inside)
  let labels = cat([ones([len(rows)]), zeros([len(rows)])])
  return (ids, word_lengths - 1, labels)
}

fn init() {
  return {"emb": randn([26 * 26, dim]) * 0.1, "out": nn.linear_init(dim, 1)}
}

# The score of each bag: the mean of its bigrams' embeddings, then a linear layer.
fn scores(p, ids, bag_sizes) {
  let bags = segment_reduce(embedding(ids, p["emb"]), "mean", lengths = bag_sizes)
  return nn.linear_apply(p["out"], bags).squeeze(1)
}

fn loss_fn(p, ids, bag_sizes, labels) {
  return binary_cross_entropy_with_logits(scores(p, ids, bag_sizes), labels)
}

@compile
fn train_step(p, opt, ids, bag_sizes, labels) {
  let (loss, grads) = value_and_grad(loss_fn)(p, ids, bag_sizes, labels)
  let (p2, opt2) = nn.adam_step(p, grads, opt, lr = 0.01)
  return (p2, opt2, loss)
}

seed(0)
let order = randperm(len(words)).tolist()
let held_out = order[:2000]
let train_rows = order[2000:]
let params = init()
let opt = nn.adam_init(params)
for step in range(steps) {
  let start = (step * batch) % (len(train_rows) - batch)
  let (ids, bag_sizes, labels) = make_batch(train_rows[start:start + batch])
  let (p, o, loss) = train_step(params, opt, ids, bag_sizes, labels)
  params = p
  opt = o
  if step % 100 == 0 or step == steps - 1 { print(f"step {step:4d}  loss {loss.item():.4f}  bigrams {int(ids.shape[0])}") }
}

let (ids, bag_sizes, labels) = make_batch(held_out)
let accuracy = ((scores(params, ids, bag_sizes) > 0.0).to(f32) == labels).to(f32).mean().item()
print(f"held-out accuracy {accuracy:.3f} on {2 * len(held_out)} strings")
print("compiles:", stats(train_step)["compiles"])

# A checkpoint of the parameters, written and read back.
let ckpt = env("TMPDIR", "/tmp") + "/tessel_jagged_example.safetensors"
save(ckpt, nn.tree_map(fn (t) { return t.to("cpu") }, params))
let back = load(ckpt, device = "cpu")
let same = bool((back["emb"] == params["emb"].to("cpu")).all().item())
print("checkpoint round trip:", same)
# What the test suite checks when it runs this example on each device.
assert same and stats(train_step)["compiles"] <= 2 and (steps < 200 or accuracy > 0.8)

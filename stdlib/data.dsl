# data: mini-batches, padding and jagged sequences (docs/models.md). Tensors in a data set share
# their first dim (the examples); sequences are tensors whose first dim is their length.

fn _check_same_length(fname, tensors) {
  if len(tensors) == 0 {
    raise ValueError(f"{fname}: needs at least one tensor")
  }
  let n = tensors[0].shape[0]
  for t in tensors {
    if t.ndim == 0 or t.shape[0] != n {
      raise ShapeError(f"{fname}: the tensors must share their first dim, got {[list(t.shape) for t in tensors]}")
    }
  }
  return n
}

# The order of n examples: randperm(n) when shuffled, seeded first with seed when one is given
# (so the same seed gives the same batches), else 0 .. n-1.
fn _order(n, shuffle, seed_value) {
  if not shuffle { return arange(n) }
  if type(seed_value) != "none" { seed(seed_value) }
  return randperm(n)
}

# The data set `tensors` (a list or tuple of tensors sharing dim 0) cut into mini-batches of
# batch_size examples: a list of tuples, one slice of each tensor per batch, in a random order
# when shuffle (randperm, under seed when given). The last, smaller batch is kept unless
# drop_last (torch's DataLoader).
fn batches(tensors, batch_size, shuffle = false, seed = none, drop_last = false) {
  if type(batch_size) != "int" or batch_size < 1 {
    raise ValueError(f"batches: batch_size must be a positive int, got {batch_size}")
  }
  let n = _check_same_length("batches", tensors)
  let order = _order(n, shuffle, seed)
  let out = []
  let start = 0
  while start < n {
    let stop = min(start + batch_size, n)
    if stop - start < batch_size and drop_last { break }
    let idx = order[start:stop]
    out.append(tuple([index_select(t, 0, idx) for t in tensors]))
    start = stop
  }
  return out
}

# Splits the data set `tensors` into (train, validation) tuples, the validation set the
# round(val_fraction * n) examples at the end of a random order (randperm, under seed when
# given); without shuffle, the last examples.
fn train_val_split(tensors, val_fraction, shuffle = true, seed = none) {
  if val_fraction < 0.0 or val_fraction > 1.0 {
    raise ValueError(f"train_val_split: val_fraction must be in [0, 1], got {val_fraction}")
  }
  let n = _check_same_length("train_val_split", tensors)
  let order = _order(n, shuffle, seed)
  let n_train = n - round(val_fraction * n)
  let train = tuple([index_select(t, 0, order[:n_train]) for t in tensors])
  let val = tuple([index_select(t, 0, order[n_train:]) for t in tensors])
  return (train, val)
}

fn _check_seqs(fname, seqs) {
  if len(seqs) == 0 {
    raise ValueError(f"{fname}: needs at least one sequence")
  }
  let rest = list(seqs[0].shape)[1:]
  for s in seqs {
    if s.ndim == 0 or list(s.shape)[1:] != rest {
      raise ShapeError(f"{fname}: sequences must be [length, ...] with the same trailing dims, got {[list(s.shape) for s in seqs]}")
    }
  }
}

# The sequences (tensors [length_i, ...]) as one tensor [B, max length, ...] filled with value
# past each length (time first, [max length, B, ...], when batch_first is false, as
# torch.nn.utils.rnn.pad_sequence), and their lengths: (padded, lengths i32 [B]).
fn pad_sequence(seqs, value = 0.0, batch_first = true) {
  _check_seqs("pad_sequence", seqs)
  let longest = max([s.shape[0] for s in seqs])
  let rows = []
  for s in seqs {
    let widths = []
    for _ in range(s.ndim - 1) { widths += [0, 0] }
    rows.append(pad(s, widths + [0, longest - s.shape[0]], value))
  }
  let padded = stack(rows)
  let lengths = tensor([s.shape[0] for s in seqs], dtype = i32)
  if not batch_first { padded = padded.transpose(0, 1) }
  return (padded, lengths)
}

# Packs sequences into a jagged pair: (values, the sequences concatenated along dim 0, and
# lengths, i32 [B]).
fn pack_sequences(seqs) {
  _check_seqs("pack_sequences", seqs)
  return (cat(seqs, 0), tensor([s.shape[0] for s in seqs], dtype = i32))
}

fn _check_jagged(fname, values, lengths) {
  if lengths.ndim != 1 {
    raise ShapeError(f"{fname}: lengths must be 1-D, got {list(lengths.shape)}")
  }
  let total = int(lengths.sum().item())
  if total != values.shape[0] {
    raise ShapeError(f"{fname}: lengths sum to {total} but values has {values.shape[0]} rows")
  }
}

# The sequences of a jagged (values, lengths) pair, as a list of tensors (pack_sequences'
# inverse).
fn unpack_sequences(values, lengths) {
  _check_jagged("unpack_sequences", values, lengths)
  return split(values, lengths.tolist(), 0)
}

# The row of each value in a [B * longest, ...] padded layout: b * longest + position.
fn _padded_rows(lengths, longest) {
  let b = lengths.shape[0]
  let seq = repeat_interleave(arange(b), lengths)
  let starts = cumsum(lengths, 0) - lengths
  let pos = arange(seq.shape[0]) - index_select(starts, 0, seq)
  return seq * longest + pos
}

# A jagged (values, lengths) pair as a padded batch [B, max length, ...] filled with value,
# without a loop over the sequences (index_copy of every row at once; differentiable in values).
fn jagged_to_padded(values, lengths, value = 0.0) {
  _check_jagged("jagged_to_padded", values, lengths)
  let b = lengths.shape[0]
  let longest = int(lengths.max().item()) if b > 0 else 0
  let rest = list(values.shape)[1:]
  let flat = full([b * longest] + rest, value, dtype = values.dtype)
  return index_copy(flat, 0, _padded_rows(lengths, longest), values).reshape([b, longest] + rest)
}

# The values of a padded batch [B, L, ...] within lengths, concatenated: jagged_to_padded's
# inverse, (values, lengths).
fn padded_to_jagged(padded, lengths) {
  if padded.ndim < 2 or lengths.ndim != 1 or padded.shape[0] != lengths.shape[0] {
    raise ShapeError(f"padded_to_jagged: padded must be [B, L, ...] and lengths [B], got {list(padded.shape)} and {list(lengths.shape)}")
  }
  let (b, longest) = (padded.shape[0], padded.shape[1])
  let flat = padded.reshape([b * longest] + list(padded.shape)[2:])
  return (index_select(flat, 0, _padded_rows(lengths, longest)), lengths)
}

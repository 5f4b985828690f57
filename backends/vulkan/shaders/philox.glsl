// Philox4x32-10 (backends/rng.h), shared by the random kernels (create.comp, sampling.comp):
// element i of a random op uses word i % 4 of counter base + i / 4, as on the cpu.

uvec4 philox(uvec4 c, uvec2 k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) k += uvec2(0x9E3779B9u, 0xBB67AE85u);
    uint hi0, lo0, hi1, lo1;
    umulExtended(0xD2511F53u, c.x, hi0, lo0);
    umulExtended(0xCD9E8D57u, c.z, hi1, lo1);
    c = uvec4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
  }
  return c;
}

// The four words of counter base + blk (a 64-bit base given as two words) under the key.
uvec4 philoxBlock(uint blk, uint keyLo, uint keyHi, uint baseLo, uint baseHi) {
  uint lo = baseLo + blk;
  uint hi = baseHi + (lo < baseLo ? 1u : 0u);
  return philox(uvec4(lo, hi, 0u, 0u), uvec2(keyLo, keyHi));
}

// A float in [0, 1) from the top 24 bits of a word (exact in f32), as uniformFromBits.
float uniformFromBits(uint w) { return float(w >> 8) * (1.0 / 16777216.0); }

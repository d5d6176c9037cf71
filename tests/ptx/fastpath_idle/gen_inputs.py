"""idle_in.bin for fastpath_idle's cases.txt: 4096 little-endian words, floats in [-4, 4) (random seed 14), words
2048-3071 indices in [64, 2000) (gather's first read)"""
import random
import struct

random.seed(14)
w = [struct.unpack('<I', struct.pack('<f', random.uniform(-4, 4)))[0] for _ in range(4096)]
for i in range(2048, 3072):
    w[i] = random.randrange(64, 2000)
with open("idle_in.bin", "wb") as f:
    f.write(struct.pack('<4096I', *w))

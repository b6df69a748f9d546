# vmap's randomness argument: random ops refused by default, allowed with "different"/"same"
import torch
from torch.func import vmap

x = torch.ones(4, 3)


def noisy(row):
    return row + torch.rand_like(row)


try:
    vmap(noisy)(x)
except Exception as e:
    print(type(e).__name__, str(e)[:120])
out = vmap(noisy, randomness="different")(x)
print(out.shape, bool((out >= 1).all()), bool((out < 2).all()))
same = vmap(noisy, randomness="same")(x)
print(same.shape, bool((same[0] == same[1]).all()), bool((same[1] == same[3]).all()))
print(vmap(lambda r: r * 2, randomness="error")(x).sum())
try:
    vmap(noisy, randomness="sometimes")(x)
except Exception as e:
    print(type(e).__name__, str(e)[:120])
d = vmap(lambda r: torch.nn.functional.dropout(r, 0.0), randomness="different")(x)
print(d.sum())

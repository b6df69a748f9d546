# vmap errors: mismatched batch sizes, in_dims out of range; randomness='same' shares values
import torch
from torch.func import vmap

try:
    vmap(torch.add)(torch.ones(2, 3), torch.ones(3, 3))
except ValueError as e:
    print("ValueError", "same size" in str(e) or "size" in str(e))
try:
    vmap(torch.sin, in_dims=2)(torch.ones(2, 3))
except ValueError as e:
    print("ValueError")
torch.manual_seed(0)
r = vmap(lambda x: x + torch.rand(()), randomness="same")(torch.zeros(4))
print(torch.allclose(r, r[0].expand(4)))
try:
    vmap(lambda x: x + torch.rand(()))(torch.zeros(4))
except RuntimeError as e:
    print("RuntimeError")
print(vmap(lambda x: x.sum(0), in_dims=1)(torch.arange(6.0).reshape(2, 3)))
print(vmap(torch.trace)(torch.arange(8.0).reshape(2, 2, 2)))

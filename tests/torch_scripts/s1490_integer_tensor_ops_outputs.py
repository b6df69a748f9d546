# integer tensors through common ops: abs, neg, sign, clamp, pow, bit shifts, float conversion
import torch

i = torch.tensor([-3, 0, 5], dtype=torch.int32)
print(i.abs(), -i, i.sign(), i.clamp(-1, 1), i ** 2, i.pow(3).dtype, i << 1, i >> 1)
print(i.float() / 2, i.double().mean(), i.sum(), i.max(), i.min(), i.argmin())
print(torch.tensor([7]) & 3, torch.tensor([7]) | 8, torch.tensor([5]) ^ 1, ~torch.tensor([0]))
print(i.to(torch.uint8), torch.tensor([300]).to(torch.uint8), torch.tensor([-1]).to(torch.uint8))
print(i.sort().values, i.flip(0), i.cumsum(0), torch.tensor([2, 3]).prod(), torch.tensor([6]) / torch.tensor([4]))

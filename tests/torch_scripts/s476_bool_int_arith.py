import torch

m = torch.tensor([True, False, True, True])
print(m.sum(), m.sum().dtype, m.float().mean(), m.long().cumsum(0), m.any(), m.all(), (~m).nonzero().squeeze(1))
print(m & torch.tensor([True, True, False, False]), m | False, m ^ True, m.logical_not(), torch.logical_xor(m, m.flip(0)))
i = torch.tensor([7, -7, 3, 0])
print(i // 2, i % 3, torch.div(i, 2, rounding_mode="trunc"), torch.div(i, 2, rounding_mode="floor"), torch.div(i, 2))
print(torch.fmod(i, 3), torch.remainder(i, -3), i.abs(), i.sign(), i.neg(), -i)
print(i * m, i + m, (i > 0) * 1.5, (i > 0).to(torch.float32).dtype, i.float() / 2)
print(torch.tensor(5) / torch.tensor(2), torch.tensor(5) // torch.tensor(2), 5 // torch.tensor(2), 2 ** torch.tensor([1, 2, 3]))
print(i.max(), i.argmin(), i.sort().values, i.double().std().round(decimals=4), i.bitwise_and(3), i >> 1, i << 2)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
try:
    torch.tensor([1, 0]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([1.0, 0.0]) // torch.tensor([0.0, 1.0]), torch.tensor([True]) + torch.tensor([True]))
try:
    print(-torch.tensor([True]))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(torch.tensor([3, 4]).pow(2), torch.tensor([2]).pow(-1.0), torch.tensor([0, 1, 2]).float().reciprocal())
try:
    torch.tensor([2]).pow(-1)
except RuntimeError as e:
    print("RuntimeError:", e)
print(i.to(torch.uint8), torch.tensor([300]).to(torch.uint8), torch.tensor([1.9, -1.9]).to(torch.int64))

# Casting corner cases: float to int truncation toward zero, negative to uint8 wraps, bool
# from floats, int8 overflow on add, float16 rounding and inf, int64 to float32 precision
import torch

f = torch.tensor([-2.7, -0.5, 0.5, 2.7])
print(f.long(), f.int(), f.to(torch.int16), f.trunc(), f.floor().long(), f.ceil().long(), f.round().long())
print(torch.tensor([-1, 256, 300]).to(torch.uint8), torch.tensor([0.0, -0.0, 0.1, float("nan")]).bool())
print(torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8), torch.tensor([127], dtype=torch.int8) + 1)
print(torch.tensor([65519.0, 65520.0, 1e-8, 0.1]).half(), torch.tensor([0.1], dtype=torch.float16).item())
print(torch.tensor([16777217], dtype=torch.int64).float().long(), torch.tensor([2 ** 40]).to(torch.float32))
print(torch.tensor([1.9999999]).float().item() == 2.0, torch.tensor(3.999).int(), torch.tensor(True).long() + torch.tensor(True))
print(torch.tensor([3, 5]).float() / 2, torch.tensor([3, 5]).div(2).dtype, torch.tensor([3.7]).to(torch.bool))
print(torch.tensor([1, 0, 2]).bool().long(), torch.tensor([1.5, 2.5]).to(torch.int64).to(torch.float64))

# Processing a big tensor in chunks: chunk/split in a loop, torch.cat of results, running
# reductions, checking against the one-shot result; split with a list of sizes
import torch

data = torch.arange(1.0, 101.0)
total, sq = torch.tensor(0.0), torch.tensor(0.0)
for part in data.chunk(7):
    total += part.sum()
    sq += (part ** 2).sum()
print(len(data.chunk(7)), [len(p) for p in data.chunk(7)], total, sq, data.sum(), (data ** 2).sum())
out = torch.cat([torch.sqrt(p) for p in data.split(30)])
print(out.shape, torch.equal(out, data.sqrt()), [p.shape[0] for p in data.split(30)])
print([p.tolist() for p in torch.arange(10).split([2, 3, 5])])
m = torch.arange(12).view(3, 4)
print(m.chunk(2, dim=1), m.split(2, dim=0), torch.chunk(torch.arange(5), 3), torch.arange(6).chunk(4))
running_max = torch.tensor(float("-inf"))
for p in torch.tensor([3.0, 9.0, 2.0, 11.0, 5.0]).split(2):
    running_max = torch.maximum(running_max, p.max())
print(running_max)
try:
    torch.arange(10).split([2, 3])
except RuntimeError as e:
    print(str(e)[:80])

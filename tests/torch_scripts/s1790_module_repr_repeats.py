# print(model): PyTorch folds runs of identical submodules ("(0-2): 3 x Linear(...)")
import torch
import torch.nn as nn

blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)] + [nn.ReLU(), nn.ReLU()])
print(blocks)
seq = nn.Sequential(*[nn.Sequential(nn.Linear(2, 2), nn.Tanh()) for _ in range(4)], nn.Linear(2, 1))
print(seq)
print(nn.Sequential())
print(nn.ModuleDict({"a": nn.Identity(), "b": nn.Identity()}))
print(nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(3, dtype=torch.float32))]))
print(nn.ParameterDict({"w": nn.Parameter(torch.ones(1, 2))}))


class Block(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.fc = nn.Linear(k, k, bias=False)

    def extra_repr(self):
        return f"k={self.k}"


print(nn.Sequential(Block(2), Block(2), Block(3)))
print(nn.Sequential(nn.Linear(1, 1), nn.Linear(1, 1), nn.Linear(1, 2), nn.Linear(1, 1)))

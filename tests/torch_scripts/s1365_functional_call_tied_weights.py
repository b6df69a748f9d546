# functional_call on a module with tied weights (embedding and output projection share)
import torch
import torch.nn as nn
from torch.func import functional_call, grad

class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 3)
        self.out = nn.Linear(3, 4, bias=False)
        self.out.weight = self.emb.weight

    def forward(self, idx):
        return self.out(self.emb(idx))

m = Tied()
print([n for n, _ in m.named_parameters()])
print(len(list(m.parameters())), list(m.state_dict().keys()))
W = torch.arange(12.0).reshape(4, 3) / 10
idx = torch.tensor([0, 3])
out = functional_call(m, {"emb.weight": W}, (idx,))
print(out)
out2 = functional_call(m, {"emb.weight": W, "out.weight": W}, (idx,))
print(torch.equal(out, out2))
def loss(p, idx):
    return functional_call(m, p, (idx,)).logsumexp(1).sum()
g = grad(loss)({"emb.weight": W}, idx)
print(g["emb.weight"])

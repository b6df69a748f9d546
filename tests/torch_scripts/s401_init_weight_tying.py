import torch
import torch.nn as nn


class TiedLM(nn.Module):
    def __init__(self, vocab=7, d=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.proj = nn.Linear(d, vocab, bias=False)
        self.proj.weight = self.emb.weight
        self.ln = nn.LayerNorm(d, elementwise_affine=True)

    def forward(self, ids):
        return self.proj(self.ln(self.emb(ids)))


m = TiedLM()
print(m.proj.weight is m.emb.weight, len(list(m.parameters())), sorted(m.state_dict().keys()))
print(m.emb.weight[0])
nn.init.constant_(m.ln.weight, 2.0)
nn.init.zeros_(m.ln.bias)
with torch.no_grad():
    m.emb.weight.copy_(torch.arange(28.0).view(7, 4).sin())
ids = torch.tensor([[1, 2, 0], [3, 3, 6]])
out = m(ids)
print(out.shape, out[0, 0].round(decimals=4))
nn.functional.cross_entropy(out.view(-1, 7), ids.view(-1), ignore_index=0).backward()
print(m.emb.weight.grad.round(decimals=4)[:3])
w = torch.empty(3, 5)
for fn in (nn.init.xavier_uniform_, nn.init.kaiming_normal_, nn.init.orthogonal_, nn.init.trunc_normal_):
    print(fn.__name__, fn(w).shape)
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("selu"))
print(nn.init.eye_(torch.empty(2, 3)), nn.init.dirac_(torch.empty(2, 2, 3)).sum())
q = nn.init.orthogonal_(torch.empty(4, 4))
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-6))

# Weight tying and shared modules: the same Linear used twice, tied embedding/decoder weights,
# parameters() deduplicating, state_dict keys for shared modules, gradients adding up
import torch
import torch.nn as nn


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 3)
        self.out = nn.Linear(3, 4, bias=False)
        self.out.weight = self.emb.weight
        self.shared = nn.Linear(3, 3)
        self.blocks = nn.ModuleList([self.shared, self.shared])


m = Tied()
with torch.no_grad():
    m.emb.weight.copy_(torch.arange(12.0).view(4, 3) / 10)
    m.shared.weight.copy_(torch.eye(3))
    m.shared.bias.zero_()
print(len(list(m.parameters())), [n for n, _ in m.named_parameters()])
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print(m.out.weight is m.emb.weight, m.blocks[0] is m.blocks[1], [n for n, _ in m.named_modules()])
h = m.emb(torch.tensor([1, 2]))
for blk in m.blocks:
    h = torch.tanh(blk(h))
logits = m.out(h)
logits.sum().backward()
print(m.emb.weight.grad, m.shared.weight.grad.shape)
print(sum(p.numel() for p in m.parameters()))

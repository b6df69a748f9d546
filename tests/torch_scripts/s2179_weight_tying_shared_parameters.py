import torch
import torch.nn as nn

class TiedLM(nn.Module):
    def __init__(self, vocab=6, dim=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.embed.weight
    def forward(self, tok):
        return self.out(torch.tanh(self.embed(tok)))

m = TiedLM()
with torch.no_grad():
    m.embed.weight.copy_(torch.linspace(-1, 1, 18).view(6, 3))
print(m.out.weight is m.embed.weight)
print([n for n, _ in m.named_parameters()], len(list(m.parameters())))
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
tok = torch.tensor([1, 4, 2])
loss = nn.functional.cross_entropy(m(tok), torch.tensor([2, 0, 5]))
loss.backward()
print(round(loss.item(), 6), m.embed.weight.grad.round(decimals=5))
opt = torch.optim.SGD(m.parameters(), lr=0.5)
opt.step()
print(torch.equal(m.out.weight, m.embed.weight), m.embed.weight[1].detach().round(decimals=5))
m2 = TiedLM()
m2.load_state_dict(m.state_dict())
print(m2.out.weight is m2.embed.weight, torch.equal(m2.out.weight, m.embed.weight))

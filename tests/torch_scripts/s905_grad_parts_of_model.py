# autograd.grad with respect to some parameters only (the encoder), then the others (the head)
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(3, 4)
head = nn.Linear(4, 1)
with torch.no_grad():
    for i, p in enumerate(list(enc.parameters()) + list(head.parameters())):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
x = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]])
loss = head(torch.tanh(enc(x))).pow(2).mean()
g_enc = torch.autograd.grad(loss, list(enc.parameters()), retain_graph=True)
g_head = torch.autograd.grad(loss, head.parameters())
print(type(g_enc).__name__, len(g_enc), [tuple(g.shape) for g in g_enc])
print([g.round(decimals=6) for g in g_head])
print(g_enc[0].round(decimals=6), enc.weight.grad is None)
try:
    torch.autograd.grad(loss, head.weight)
except RuntimeError as e:
    print("second:", str(e).split(".")[0])

# Exporting a trained model with torch.jit.trace; the traced module's state_dict saved and
# loaded through BytesIO into a fresh model (tapegrad's jit.save takes its own tapes only:
# docs/limits.md), checking outputs and input gradients agree on new inputs
import io
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(601)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return torch.log_softmax(self.fc2(torch.tanh(self.fc1(x))), dim=-1)


net = Net()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
X = torch.from_numpy(rng.standard_normal((10, 4)))
Y = torch.from_numpy(rng.integers(0, 2, 10))
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.nll_loss(net(X), Y)
    loss.backward()
    opt.step()
print(f"{loss.item():.6f}")
net.eval()
traced = torch.jit.trace(net, X[:2])
new = torch.from_numpy(rng.standard_normal((3, 4)))
with torch.no_grad():
    a, b = net(new), traced(new)
print(torch.allclose(a, b), a.numpy().round(5))
buf = io.BytesIO()
torch.save(traced.state_dict(), buf)
buf.seek(0)
loaded = Net()
print(loaded.load_state_dict(torch.load(buf)), sorted(traced.state_dict()))
with torch.no_grad():
    print(torch.allclose(loaded(new), a))
x = new.clone().requires_grad_(True)
traced(x)[:, 0].sum().backward()
print(x.grad.numpy().round(5))

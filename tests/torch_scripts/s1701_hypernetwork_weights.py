# A hypernetwork: a small network outputs the weights of a target linear layer from a task
# embedding; the target runs through F.linear with generated weights; gradients flow back
# into the hypernetwork and the task embeddings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(491)
T, DI, DO = 3, 4, 2
tasks_w = rng.standard_normal((T, DO, DI))
X = torch.from_numpy(rng.standard_normal((T, 10, DI)))
Y = torch.from_numpy(np.einsum("toi,tni->tno", tasks_w, X.numpy()))


class HyperNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.task_emb = nn.Embedding(T, 5)
        self.gen = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, DO * DI + DO))

    def forward(self, task, x):
        theta = self.gen(self.task_emb(task))
        w, b = theta[: DO * DI].view(DO, DI), theta[DO * DI:]
        return F.linear(x, w, b), w


hn = HyperNet()
with torch.no_grad():
    for p in hn.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(hn.parameters(), lr=0.02)
for epoch in range(12):
    opt.zero_grad()
    total = 0
    for t in range(T):
        pred, _ = hn(torch.tensor(t), X[t])
        total = total + F.mse_loss(pred, Y[t])
    total.backward()
    opt.step()
    if epoch % 4 == 3:
        print(epoch, f"{total.item():.6f}")
with torch.no_grad():
    _, w = hn(torch.tensor(1), X[1])
print(w.numpy().round(4))
print(hn.task_emb.weight.grad.numpy().round(5))

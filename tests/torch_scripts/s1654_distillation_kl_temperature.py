# Knowledge distillation: a fixed teacher MLP, a smaller student trained with
# KLDivLoss(log_softmax(s/T), softmax(t/T)) * T^2 plus hard-label cross entropy
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(51)
X = rng.standard_normal((60, 5))
Y = (X[:, 0] + X[:, 1] ** 2 > 0.8).astype(np.int64) + (X[:, 2] > 1).astype(np.int64)


def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def det_init(model, seed):
    g = np.random.default_rng(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(g.normal(0, 0.5, tuple(p.shape))))


teacher, student = mlp([5, 32, 32, 3]), mlp([5, 8, 3])
det_init(teacher, 1)
det_init(student, 2)
loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(Y)), batch_size=20)
t_opt = torch.optim.Adam(teacher.parameters(), lr=0.01)
for epoch in range(5):
    for xb, yb in loader:
        t_opt.zero_grad()
        F.cross_entropy(teacher(xb), yb).backward()
        t_opt.step()
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)

T, alpha = 3.0, 0.7
kl = nn.KLDivLoss(reduction="batchmean")
s_opt = torch.optim.Adam(student.parameters(), lr=0.02)
for epoch in range(6):
    student.train()
    tot_soft = tot_hard = 0.0
    for xb, yb in loader:
        with torch.no_grad():
            t_logits = teacher(xb)
        s_logits = student(xb)
        soft = kl(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * T * T
        hard = F.cross_entropy(s_logits, yb)
        loss = alpha * soft + (1 - alpha) * hard
        s_opt.zero_grad()
        loss.backward()
        s_opt.step()
        tot_soft += soft.item()
        tot_hard += hard.item()
    print(f"epoch {epoch} soft {tot_soft / 3:.5f} hard {tot_hard / 3:.5f}")

student.eval()
with torch.no_grad():
    xs = torch.from_numpy(X)
    agree = (student(xs).argmax(1) == teacher(xs).argmax(1)).double().mean()
    acc_t = (teacher(xs).argmax(1) == torch.from_numpy(Y)).double().mean()
    print("agreement", round(agree.item(), 4), "teacher acc", round(acc_t.item(), 4))
    lt = F.log_softmax(teacher(xs[:2]), 1)
    ls = F.log_softmax(student(xs[:2]), 1)
    print(F.kl_div(ls, lt, reduction="none", log_target=True).numpy().round(5))
print(sum(p.numel() for p in teacher.parameters()), sum(p.numel() for p in student.parameters()))

# Knowledge distillation: a fixed teacher, a student trained with label-smoothed,
# class-weighted cross entropy plus temperature-scaled KL divergence (batchmean,
# log_target) and ignore_index labels; the losses compared with hand-written formulas
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.stack([torch.sin(torch.arange(6.0) * (k + 1) * 0.3) for k in range(8)])
labels = torch.tensor([0, 1, 2, 3, -100, 1, 2, 0])
teacher = nn.Linear(6, 4)
student = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 4))
with torch.no_grad():
    for i, p in enumerate(list(teacher.parameters()) + list(student.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).view_as(p) * 0.6)
weights = torch.tensor([1.0, 2.0, 0.5, 1.5])
ce = nn.CrossEntropyLoss(weight=weights, label_smoothing=0.1, ignore_index=-100)
kl = nn.KLDivLoss(reduction="batchmean", log_target=True)
T = 2.0
opt = torch.optim.AdamW(student.parameters(), lr=0.02, weight_decay=0.05)
with torch.no_grad():
    t_logits = teacher(x)
for step in range(4):
    s_logits = student(x)
    hard = ce(s_logits, labels)
    soft = kl(F.log_softmax(s_logits / T, 1), F.log_softmax(t_logits / T, 1)) * T * T
    loss = 0.5 * hard + 0.5 * soft
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{hard.item():.6f} {soft.item():.6f}")
p_t = F.softmax(t_logits / T, 1)
manual = (p_t * (p_t.log() - F.log_softmax(s_logits / T, 1))).sum() / x.shape[0]
print(torch.allclose(manual * T * T, soft))
print(F.cross_entropy(s_logits, labels, reduction="none", label_smoothing=0.2).detach())
print(f"{F.cross_entropy(s_logits, labels, reduction='sum', weight=weights).item():.12f}")
probs = F.softmax(t_logits, 1)
print(F.cross_entropy(s_logits, probs, label_smoothing=0.1).item())
print(F.kl_div(F.log_softmax(s_logits, 1), probs, reduction="none").sum(1).detach())

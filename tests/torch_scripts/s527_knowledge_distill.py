import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(4, 3))
for k, net in enumerate((teacher, student)):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * (1.3 + k) + i).view_as(p))
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)
x = torch.stack([torch.linspace(-1, 1, 20) * (j + 1) for j in range(4)], dim=1).sin()
y = (x.sum(1) > 0).long() + (x[:, 0] > 0.5).long()
T, alpha = 3.0, 0.7
opt = torch.optim.SGD(student.parameters(), lr=0.5)
for step in range(30):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                  reduction="batchmean") * T * T
    hard = F.cross_entropy(s_logits, y)
    loss = alpha * kd + (1 - alpha) * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(kd.item(), 6), round(hard.item(), 6))
kd2 = F.kl_div(F.log_softmax(s_logits / T, 1), F.log_softmax(t_logits / T, 1), reduction="batchmean",
               log_target=True)
print(torch.allclose(kd2 * T * T, kd))
print(nn.KLDivLoss(reduction="sum", log_target=True))
print(all(p.grad is None for p in teacher.parameters()), sum(p.numel() for p in student.parameters()))
agree = (student(x).argmax(1) == teacher(x).argmax(1)).double().mean()
print(round(agree.item(), 4))
print(F.kl_div(torch.zeros(2, 2), torch.zeros(2, 2), reduction="mean"))

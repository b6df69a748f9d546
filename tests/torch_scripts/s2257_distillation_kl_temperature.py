import torch
import torch.nn as nn
import torch.nn.functional as F

teacher_logits = torch.tensor([[4.0, 1.0, -2.0], [0.5, 2.5, 0.0], [-1.0, 0.0, 3.0], [1.0, 1.0, 1.2]])
labels = torch.tensor([0, 1, 2, 2])
student = nn.Linear(2, 3)
feats = torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [0.5, -0.5]])
with torch.no_grad():
    student.weight.zero_()
    student.bias.zero_()
opt = torch.optim.SGD(student.parameters(), lr=0.5)
T, alpha = 3.0, 0.7
kl = nn.KLDivLoss(reduction="batchmean")
for step in range(30):
    s = student(feats)
    soft = kl(F.log_softmax(s / T, 1), F.softmax(teacher_logits / T, 1)) * T * T
    hard = F.cross_entropy(s, labels, label_smoothing=0.1)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(soft.item(), 6), round(hard.item(), 6))
print(student(feats).argmax(1), teacher_logits.argmax(1))
lt = nn.KLDivLoss(reduction="sum", log_target=True)
p = F.log_softmax(teacher_logits, 1)
q = F.log_softmax(student(feats).detach(), 1)
print(round(lt(q, p).item(), 6), round((p.exp() * (p - q)).sum().item(), 6))
print(nn.KLDivLoss(reduction="none")(q, p.exp()).shape, round(nn.KLDivLoss(reduction="mean")(q, p.exp()).item(), 6))
probs_target = F.softmax(teacher_logits, 1)
print(round(F.cross_entropy(student(feats), probs_target).item(), 6))
print(round(F.cross_entropy(student(feats), probs_target, label_smoothing=0.2, weight=torch.tensor([1.0, 2.0, 0.5])).item(), 6))

# logistic regression fitted with LBFGS (no line search) and with SGD+StepLR: final loss and weights to 4 places
import torch
import torch.nn.functional as F

X = torch.tensor([[0.5, 1.0], [1.5, -0.5], [-1.0, -1.0], [2.0, 1.0], [-0.5, 2.0], [0.0, -2.0]])
y = torch.tensor([1.0, 1.0, 0.0, 1.0, 0.0, 0.0])

def fit(opt_name):
    w = torch.zeros(2, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    if opt_name == "lbfgs":
        opt = torch.optim.LBFGS([w, b], lr=0.5, max_iter=10)
        sched = None
    else:
        opt = torch.optim.SGD([w, b], lr=0.5)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    def closure():
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(X @ w + b, y) + 0.01 * w.pow(2).sum()
        loss.backward()
        return loss
    for epoch in range(30 if sched else 5):
        loss = opt.step(closure)
        if sched:
            sched.step()
    return round(closure().item(), 4), [round(v, 3) for v in w.tolist()], round(b.item(), 3)

print(fit("lbfgs"))
print(fit("sgd"))

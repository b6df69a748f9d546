# Hessian-vector products through losses (mse, huber, bce_with_logits, cross_entropy)
import torch
import torch.nn.functional as F

x = torch.tensor([[0.2, -1.0, 1.5], [0.7, 0.0, -0.3]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
v = torch.tensor([[1.0, 0.5, -1.0], [0.0, 2.0, 1.0]])
losses = {
    "mse": lambda: F.mse_loss(x, t),
    "huber": lambda: F.huber_loss(x, t, delta=0.5),
    "bce": lambda: F.binary_cross_entropy_with_logits(x, t),
    "ce": lambda: F.cross_entropy(x, torch.tensor([2, 0])),
    "ce_soft": lambda: F.cross_entropy(x, t / t.sum(1, keepdim=True)),
    "kl": lambda: F.kl_div(F.log_softmax(x, 1), torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]]), reduction="batchmean"),
}
for name, f in losses.items():
    (g,) = torch.autograd.grad(f(), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    print(name, g.detach(), hv)

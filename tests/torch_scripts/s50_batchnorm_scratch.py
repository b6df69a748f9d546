import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1)
        return Y


X = torch.sin(torch.arange(2 * 3 * 4 * 4, dtype=torch.float64)).reshape(2, 3, 4, 4)
bn = BatchNorm(3, num_dims=4)
ref = nn.BatchNorm2d(3)
for step in range(3):
    y1 = bn(X * (step + 1))
    y2 = ref(X * (step + 1))
    print(step, torch.allclose(y1, y2), bn.moving_mean.flatten().numpy().round(6), ref.running_mean.numpy().round(6))
print(torch.allclose(bn.moving_var.flatten(), ref.running_var, atol=0.2), ref.running_var.numpy().round(5), bn.moving_var.flatten().numpy().round(5))
print(ref.num_batches_tracked, ref.momentum, ref.eps)
ref.eval()
with torch.no_grad():
    out = ref(X)
print(out.mean().item().__round__(6), out.shape)
with torch.no_grad():
    out2 = bn(X)
print(torch.allclose((X - bn.moving_mean) / torch.sqrt(bn.moving_var + 1e-5), out2))
print([n for n, _ in bn.named_parameters()], [n for n, _ in bn.named_buffers()])
print(list(ref.state_dict().keys()))
X2 = torch.cos(torch.arange(12.)).reshape(4, 3).requires_grad_()
bn1 = BatchNorm(3, num_dims=2)
ref1 = nn.BatchNorm1d(3, momentum=0.1)
a = bn1(X2)
b = ref1(X2)
print(torch.allclose(a, b))
g1, = torch.autograd.grad(a.pow(3).sum(), X2)
g2, = torch.autograd.grad(b.pow(3).sum(), X2)
print(torch.allclose(g1, g2), g1.numpy().round(5))
m = nn.BatchNorm1d(3, affine=False, momentum=None)
for i in range(3):
    m(X2.detach() + i)
print(m.running_mean.numpy().round(6), m.num_batches_tracked)
m.reset_running_stats()
print(m.running_mean, m.running_var, m.num_batches_tracked)

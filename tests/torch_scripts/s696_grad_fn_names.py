import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
w = torch.tensor([[0.5], [1.0]], requires_grad=True)
exprs = {
    "add": x + 1, "mul": x * x, "div": x / 2, "sub": 1 - x, "pow": x ** 2, "neg": -x, "matmul": x @ w, "mm": torch.mm(x, w),
    "sum": x.sum(), "sum_dim": x.sum(1), "mean": x.mean(), "exp": x.exp(), "relu": x.relu(), "sigmoid": x.sigmoid(),
    "tanh": x.tanh(), "t": x.t(), "view": x.view(4), "reshape": x.reshape(-1), "index": x[0], "slice": x[:, 1:],
    "cat": torch.cat([x, x]), "stack": torch.stack([x, x]), "softmax": x.softmax(1), "log_softmax": F.log_softmax(x, 1),
    "clone": x.clone(), "abs": x.abs(), "max": x.max(), "unsqueeze": x.unsqueeze(0), "expand": x[:1].expand(3, 2),
    "permute": x.permute(1, 0), "transpose": x.transpose(0, 1), "squeeze": x[:1].squeeze(0), "where": torch.where(x > 0, x, 0.0),
    "mse": F.mse_loss(x, torch.zeros(2, 2)), "linear": F.linear(x, w.t()), "norm": x.norm(), "sqrt": x.abs().sqrt(),
    "gather": x.gather(1, torch.tensor([[0], [1]])), "masked_fill": x.masked_fill(x < 0, 0.0), "flatten": x.flatten(),
}
for k, v in exprs.items():
    print(k, type(v.grad_fn).__name__ if v.grad_fn is not None else None)
print(x.grad_fn, (x * 2).grad_fn.next_functions[0][0].__class__.__name__)
print([(type(f).__name__, i) for f, i in x.sum().grad_fn.next_functions])

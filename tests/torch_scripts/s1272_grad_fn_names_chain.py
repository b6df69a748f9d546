# grad_fn names and next_functions walking a small graph
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
y = (w @ x).relu().sum() * 2
fn = y.grad_fn
names = []
while fn is not None:
    names.append(fn.name())
    nxt = [f for f, _ in fn.next_functions if f is not None]
    fn = nxt[0] if nxt else None
print(names)
print([type(f).__name__ if f is not None else None for f, _ in (w @ x).grad_fn.next_functions])
for t in [x.t(), x.unsqueeze(0), x.expand(3, 2), x.view(2, 1), x[0], x.mean(), x.max(), x.abs(), x.pow(2), x.exp().log(), torch.cat([x, x]), torch.stack([x, x]), x.T if x.dim() == 2 else x.reshape(1, 2), x.float(), x.to(torch.float32)]:
    print(t.grad_fn.name() if t.grad_fn is not None else None)

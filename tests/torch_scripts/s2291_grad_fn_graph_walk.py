import torch


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1, seen)


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = (a * b).sum() + (a / b).mean() - b.pow(2).max()
walk(c.grad_fn)
d = torch.cat([a, b]).view(2, 2).t().relu()
walk(d.grad_fn)
e = torch.where(a > 1.5, a, b).exp().log1p()
walk(e.grad_fn)
print(c.grad_fn.metadata, isinstance(c.grad_fn, torch.autograd.graph.Node))
print(sorted(k for k in dir(a.mul(b).grad_fn) if k.startswith("_saved")), [k for k in dir(a.exp().grad_fn) if k.startswith("_saved")])
m = a.mul(b)
print(torch.equal(m.grad_fn._saved_self, a), torch.equal(m.grad_fn._saved_other, b))
s = a.sin()
print(torch.equal(s.grad_fn._saved_self, a), s.grad_fn._saved_self is a)
ex = a.exp()
print(ex.grad_fn._saved_result.equal(ex), ex.grad_fn.name())

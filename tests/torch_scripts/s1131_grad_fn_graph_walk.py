# Walking the autograd graph: next_functions names, AccumulateGrad.variable, metadata, _saved attributes
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = (a * b).exp().sum()
def walk(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    print("  " * depth + fn.name())
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1)
walk(c.grad_fn)
acc = c.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(type(acc).__name__, acc.variable is a)
m = a * b
print(torch.equal(m.grad_fn._saved_self, a), torch.equal(m.grad_fn._saved_other, b))
p = a.pow(3)
print(p.grad_fn._saved_exponent, p.grad_fn.name())
c.grad_fn.metadata["tag"] = 1
print(c.grad_fn.metadata)
print([(type(f).__name__, i) for f, i in (a + 1).grad_fn.next_functions], a.grad_fn, a.is_leaf, (a * 2).is_leaf)

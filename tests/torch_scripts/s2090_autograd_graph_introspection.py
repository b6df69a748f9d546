import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c.sum() + a.pow(2).mean()
print(d.grad_fn.name(), [(f.name() if f is not None else None, i) for f, i in d.grad_fn.next_functions])
mul = c.grad_fn
print(mul.name(), [type(f).__name__ for f, _ in mul.next_functions])
acc = mul.next_functions[0][0]
print(acc.variable is a, acc.name())
print(a.is_leaf, c.is_leaf, d.requires_grad, a.grad_fn)
print(torch.tensor(1.0).requires_grad, (a.detach() * 2).requires_grad)
calls = []
h = mul.register_hook(lambda gi, go: calls.append(("hook", len(gi), len(go))))
p = mul.register_prehook(lambda go: calls.append(("pre", go[0].shape)))
d.backward(retain_graph=True)
print(calls, a.grad)
h.remove(); p.remove()
print(mul.metadata == {} or isinstance(mul.metadata, dict))
x = torch.tensor(2.0, requires_grad=True)
y = x.exp()
print(y.grad_fn._saved_result.item() == y.item())
z = x * 3.0
print(z.grad_fn._saved_other if hasattr(z.grad_fn, "_saved_other") else None)
u = x.sin()
print(u.grad_fn._saved_self is not None, u.grad_fn._saved_self.item())
print(torch.autograd.graph.increment_version(x) is None, x._version)
e = a.detach()
e[0] = 10.0
print(a, a._version)

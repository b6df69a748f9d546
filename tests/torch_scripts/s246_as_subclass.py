import torch


class Tagged(torch.Tensor):
    def describe(self):
        return f"Tagged{tuple(self.shape)}"


w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
t = w.as_subclass(Tagged)
print(type(t).__name__, t.describe(), isinstance(t, torch.Tensor))
print(t.requires_grad, t.is_leaf, t.grad_fn.name())
loss = (t * t).sum()
loss.backward()
print(w.grad)
h = (w * 2).as_subclass(Tagged)
print(h)
print(h.grad_fn.next_functions[0][0].name())
base = torch.zeros(3)
alias = base.as_subclass(Tagged)
alias[0] = 7.0
print(base, alias.data_ptr() == base.data_ptr())
try:
    base.as_subclass(dict)
except TypeError as e:
    print("TypeError:", str(e)[:50])

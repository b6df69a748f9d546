import torch
import torch.nn as nn


@torch.no_grad()
def evaluate(model, x):
    return model(x)


@torch.inference_mode()
def predict(model, x):
    return model(x)


@torch.enable_grad()
def grad_inside(x):
    return (x * x).sum()


@torch.inference_mode(mode=False)
def not_inference(x):
    return x * 2


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)

    def forward(self, x):
        return self.lin(x)

    @torch.no_grad()
    def reset(self):
        self.lin.weight.fill_(1.0)
        self.lin.bias.zero_()
        return self.lin.weight.requires_grad


m = Model()
print(m.reset())
x = torch.tensor([[1.0, 2.0]])
out = evaluate(m, x)
print(out, out.requires_grad, out.grad_fn)
out = predict(m, x)
print(out, out.requires_grad, out.is_inference())
with torch.no_grad():
    xg = torch.tensor([1.0, 3.0], requires_grad=True)
    s = grad_inside(xg)
print(s.requires_grad, s)
s.backward()
print(xg.grad)
with torch.inference_mode():
    n = not_inference(torch.ones(2, requires_grad=True))
print(n.requires_grad, torch.is_inference_mode_enabled())
print(evaluate.__name__, predict.__name__)
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
prev = torch.is_grad_enabled()
torch.set_grad_enabled(False)
y = m(x)
torch.set_grad_enabled(prev)
print(y.requires_grad, torch.is_grad_enabled())
is_train = False
with torch.set_grad_enabled(is_train):
    y = m(x)
print(y.requires_grad)


def gen():
    for i in range(3):
        yield (m(x) * i).requires_grad


print(list(torch.no_grad()(gen)()))
with torch.inference_mode():
    t = torch.ones(2)
try:
    t.requires_grad_()
    print("no error")
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print(t.is_inference(), torch.ones(1).is_inference())
with torch.autograd.set_grad_enabled(False):
    print(torch.ones(1, requires_grad=True).mul(2).requires_grad)
with torch.autograd.no_grad():
    print((torch.ones(1, requires_grad=True) + 1).requires_grad)

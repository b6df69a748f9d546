# no_grad / enable_grad / set_grad_enabled as decorators and nested context managers
import torch

x = torch.tensor([1.0], requires_grad=True)

@torch.no_grad()
def f(x):
    return x * 2

@torch.enable_grad()
def g(x):
    return x * 2

print(f(x).requires_grad, g(x).requires_grad)
with torch.no_grad():
    print(g(x).requires_grad, torch.is_grad_enabled())
    with torch.enable_grad():
        print((x * 2).requires_grad)
    with torch.set_grad_enabled(True):
        print((x * 2).requires_grad)
    print((x * 2).requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((x * 2).requires_grad)

@torch.set_grad_enabled(False)
def h(x):
    return x + 1
print(h(x).requires_grad, torch.is_grad_enabled())

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    with torch.set_grad_enabled(True):
        c = x * 3
    d = x * 4
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad)
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
e = x * 2
torch.set_grad_enabled(True)
print(e.requires_grad, torch.is_grad_enabled())

@torch.no_grad()
def frozen(t):
    return t * 2, torch.is_grad_enabled()

@torch.enable_grad()
def thawed(t):
    return t * 2

print(frozen(x)[0].requires_grad, frozen(x)[1])
with torch.no_grad():
    print(thawed(x).requires_grad)
with torch.inference_mode():
    f = x * 2
    print(torch.is_inference_mode_enabled(), f.requires_grad, f.is_inference())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
def gen():
    for i in range(2):
        yield torch.is_grad_enabled()
with torch.no_grad():
    g = gen()
print(list(g))
class Ctx:
    @torch.no_grad()
    def method(self, t):
        return (t * t).requires_grad
print(Ctx().method(x))
print(torch.no_grad()(lambda t: t + 1)(x).requires_grad)

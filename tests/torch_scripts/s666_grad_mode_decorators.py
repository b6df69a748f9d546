import torch


@torch.no_grad()
def evaluate(w, x):
    return (w * x).sum()


@torch.inference_mode()
def infer(w, x):
    return w * x


@torch.enable_grad()
def forced(w):
    return w * 2


w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
r = evaluate(w, x)
print(r, r.requires_grad)
i = infer(w, x)
print(i.requires_grad, i.is_inference())
with torch.no_grad():
    f = forced(w)
print(f.requires_grad)
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (w * 2).requires_grad)
torch.set_grad_enabled(False)
print((w * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.inference_mode(mode=False):
    print((w * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print((w * 2).requires_grad)


class Model(torch.nn.Module):
    @torch.no_grad()
    def predict(self, x):
        return x * 3


print(Model().predict(w).requires_grad)
try:
    with torch.inference_mode():
        t = torch.ones(2)
    t.requires_grad_()
    (t * w).sum().backward()
    print("no error")
except RuntimeError as e:
    print("RuntimeError", "inference" in str(e).lower())
print(torch.no_grad()(lambda a: a * 2)(w).requires_grad)

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


@torch.no_grad()
def predict(t):
    return t * 2


@torch.enable_grad()
def trainable(t):
    return t * 3


print(predict(x).requires_grad)
with torch.no_grad():
    y = trainable(x)
    z = x * 4
print(y.requires_grad, z.requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        w = x ** 2
print(w.requires_grad, type(w.grad_fn).__name__)
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 1).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.inference_mode():
    i = x * 2
print(i.requires_grad, i.is_inference())


@torch.inference_mode()
def infer(t):
    return t + 1


print(infer(x).requires_grad)
print(torch.no_grad().__class__.__name__, torch.is_inference_mode_enabled())

# grad-mode decorators and contexts: inference_mode on functions, set_grad_enabled(False) decorator, nesting
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)

@torch.no_grad()
def predict(x):
    return (w * x).sum()

@torch.inference_mode()
def infer(x):
    return w * x

@torch.enable_grad()
def inner(x):
    return (w * x).sum()

@torch.set_grad_enabled(False)
def frozen(x):
    return w * x

print(predict(torch.ones(2)).requires_grad, torch.is_grad_enabled())
out = infer(torch.ones(2))
print(out.requires_grad, out.is_inference(), torch.is_inference_mode_enabled())
with torch.no_grad():
    print(inner(torch.ones(2)).requires_grad)
print(frozen(torch.ones(2)).requires_grad, torch.is_grad_enabled())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (w * 2).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (w * 2).requires_grad)
print(torch.is_grad_enabled())
try:
    out.add_(1)
except RuntimeError as e:
    print(e)
torch.set_grad_enabled(False)
print((w * 1).requires_grad)
torch.set_grad_enabled(True)
print((w * 1).requires_grad, predict.__name__ if hasattr(predict, "__name__") else None)

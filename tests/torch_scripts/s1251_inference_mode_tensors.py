# inference_mode: tensors are inference tensors; using them in autograd raises
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.requires_grad, y.is_inference(), x.is_inference())
with torch.inference_mode(mode=False):
    z = x * 2
print(z.requires_grad, z.is_inference())

@torch.inference_mode()
def pred(a):
    return a.exp()
p = pred(x)
print(p.is_inference(), torch.is_inference_mode_enabled())
try:
    (p * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", "Inference tensors" in str(e))
print((p.clone() * x).requires_grad)

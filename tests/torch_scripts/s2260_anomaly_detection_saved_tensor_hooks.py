import warnings
import torch

x = torch.tensor([1.0, 0.0, 4.0], requires_grad=True)
y = torch.sqrt(x)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        with torch.autograd.detect_anomaly():
            z = torch.sqrt(x) * 0.0
            (z.sum() + (x - x).sum()).backward()
        print("no anomaly", x.grad)
    except RuntimeError as e:
        print("RuntimeError:", "SqrtBackward0" in str(e), "nan" in str(e))
print(torch.is_anomaly_enabled())
x.grad = None
(y * torch.tensor([1.0, 0.0, 1.0])).sum().backward()
print(x.grad)
packed, unpacked = [], []


def pack(t):
    packed.append(tuple(t.shape))
    return t.clone()


def unpack(t):
    unpacked.append(tuple(t.shape))
    return t


a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    b = a.exp()
    c = (b * a).sum()
c.backward()
print(sorted(packed), sorted(unpacked), a.grad.round(decimals=4))


class Halve(torch.autograd.graph.saved_tensors_hooks):
    def __init__(self):
        super().__init__(lambda t: t.to(torch.float32), lambda t: t.to(torch.float64))


w = torch.tensor([0.5, 1.5], requires_grad=True)
with Halve():
    out = (w.sin() * w).sum()
out.backward()
print(w.grad.round(decimals=5), w.grad.dtype)
with torch.autograd.graph.save_on_cpu():
    q = (w * w).sum()
q.backward()
print(w.grad.round(decimals=5))
print(torch.autograd.grad((a ** 3).sum(), a, create_graph=False)[0])

# functional_call with tied weights (tie_weights), strict=True errors, buffers replaced, original params untouched
import torch
import torch.nn as nn
from torch.func import functional_call

class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(2, 2, bias=False)
        self.dec = nn.Linear(2, 2, bias=False)
        self.dec.weight = self.enc.weight
        self.register_buffer("shift", torch.tensor([1.0, -1.0]))

    def forward(self, x):
        return self.dec(self.enc(x)) + self.shift

m = Tied()
nn.init.eye_(m.enc.weight)
x = torch.tensor([[1.0, 2.0]])
print(m(x))
w = torch.tensor([[2.0, 0.0], [0.0, 3.0]])
print(functional_call(m, {"enc.weight": w}, (x,)))
print(functional_call(m, {"enc.weight": w}, (x,), tie_weights=False))
print(functional_call(m, {"enc.weight": w, "shift": torch.zeros(2)}, x))
print(m.enc.weight, [n for n, _ in m.named_parameters()])
try:
    functional_call(m, {"enc.weight": w}, (x,), strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
wr = w.clone().requires_grad_()
functional_call(m, {"enc.weight": wr}, (x,)).sum().backward()
print(wr.grad)

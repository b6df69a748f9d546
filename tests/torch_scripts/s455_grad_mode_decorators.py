import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)

    def forward(self, x):
        return self.lin(x)

    @torch.no_grad()
    def predict(self, x):
        return self(x)

    @torch.inference_mode()
    def infer(self, x):
        return self(x) * 2

    @torch.enable_grad()
    def force(self, x):
        return self(x)


m = Model()
x = torch.ones(3, 2)
print(m(x).requires_grad, m.predict(x).requires_grad, m.infer(x).requires_grad, m.infer(x).is_inference())
with torch.no_grad():
    print(m.force(x).requires_grad, torch.is_grad_enabled())
print(m.predict.__name__, m.infer.__name__)


@torch.no_grad
def bare(x):
    return x * 2


print(bare(torch.ones(1, requires_grad=True)).requires_grad)
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (torch.ones(1, requires_grad=True) * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())


@torch.no_grad()
def gen():
    for i in range(2):
        yield torch.is_grad_enabled(), (torch.ones(1, requires_grad=True) * i).requires_grad


print(list(gen()))


class Helper:
    @staticmethod
    @torch.no_grad()
    def scale(t):
        return t * 3


print(Helper.scale(torch.ones(1, requires_grad=True)).requires_grad)
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (torch.ones(1, requires_grad=True) + 1).requires_grad)
with torch.no_grad(), torch.enable_grad():
    print(torch.is_grad_enabled())

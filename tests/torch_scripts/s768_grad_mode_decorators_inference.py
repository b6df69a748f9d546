# Evaluation helpers written with decorators: @torch.no_grad() on methods/functions, @torch.inference_mode(),
# torch.enable_grad inside no_grad, an evaluate() that restores the training flag
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 3), nn.Dropout(0.5), nn.ReLU(), nn.Linear(3, 1))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (i + 1) * 0.5)

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def predict(self, x):
        was_training = self.training
        self.eval()
        out = self(x)
        self.train(was_training)
        return out


@torch.no_grad()
def evaluate(model, x, y):
    return nn.functional.mse_loss(model(x), y).item()


@torch.inference_mode()
def infer(model, x):
    return model(x)


model = Model()
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
y = torch.tensor([[1.0], [0.0]])
p = model.predict(x)
print(p, p.requires_grad, model.training)
model.eval()
print(round(evaluate(model, x, y), 6), torch.is_grad_enabled())
out = infer(model, x)
print(out.requires_grad, out.is_inference(), torch.is_inference_mode_enabled())
with torch.no_grad():
    with torch.enable_grad():
        z = model(x).sum()
    print(z.requires_grad)
    w = model(x)
print(w.requires_grad, w.grad_fn)
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
train_mode = True
with torch.set_grad_enabled(train_mode):
    loss = nn.functional.mse_loss(model(x), y)
print(loss.requires_grad, loss.grad_fn.name())
with torch.inference_mode(mode=False):
    print(model(x).requires_grad)
try:
    out.requires_grad_(True)
    (out * model(x)).sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:55])
print(out.clone().is_inference(), torch.ones(1).is_inference())
